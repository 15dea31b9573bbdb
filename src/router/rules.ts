/**
 * The declaration rules TypeScript checks early, each written once and imported by the router, the
 * handler builders, the handler context and the compiler. The core checks the compiled manifest
 * against the same rules on its own (native/core/src/manifest.rs) and is the authority; these only
 * make a bad declaration fail where it is written.
 */
import { BACKEND_URL, MAX_URL_BYTES, NAME, STATIC_RESULT_BYTES, STATIC_RESULT_DEPTH } from '../core/generated/defaults';
import { DEFAULT_LIMITS } from '../limits';
import type { Budgets } from './definition';

/** The ranges of the i32 and u32 codecs (codec.rs). */
export const I32_MIN = -2147483648;
export const I32_MAX = 2147483647;
export const U32_MAX = 4294967295;

/** An integer from `lo` to `hi`. */
export function isInt(v: unknown, lo: number, hi: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;
}

/** The four boolean MCP tool hints: with title and description, all a tool publishes of itself. */
export const HINT_KEYS: readonly string[] = Object.freeze(['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']);

/** The core's name rule as messages state it (generated, as is the pattern `isName` applies). */
export { NAME_RULE } from '../core/generated/defaults';

/** Router, operation (tool), backend, corpus, collection and secret names (the core's `valid_name`). */
export function isName(v: unknown): v is string {
  return typeof v === 'string' && NAME.test(v);
}

/** The core's static-result rule (generated): its bounds and its text for messages. */
export { STATIC_RESULT_BYTES, STATIC_RESULT_DEPTH, STATIC_RESULT_RULE } from '../core/generated/defaults';

/** Operations (tools) of one router (manifest.rs `MAX_TOOLS`). */
export const MAX_OPERATIONS = 128;

/** Request budgets of JavaScript handlers. Router values may only lower these. */
export const DEFAULT_BUDGETS: Budgets = Object.freeze({
  deadlineMs: 5000,
  fetches: 8,
  fetchBytes: 1048576,
  calls: 16,
});

/** An integer range, inclusive. */
export interface Range {
  readonly min: number;
  readonly max: number;
}

export function inRange(v: unknown, r: Range): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= r.min && v <= r.max;
}

/**
 * `maxBytes` of a corpus or backend handler (manifest.rs: 1 to 1048576). A handler's result can
 * never exceed the default tool-result budget, which is the default response budget.
 */
export const HANDLER_BYTES: Range = Object.freeze({ min: 1, max: DEFAULT_LIMITS.responseBytes });
/** `topK` of a corpus handler (manifest.rs `MAX_TOP_K`). */
export const TOP_K: Range = Object.freeze({ min: 1, max: 64 });
export const DEFAULT_TOP_K = 10;
export const DEFAULT_CORPUS_MAX_BYTES = 16384;
/** A backend handler's `timeoutMs`; the router's own deadline may lower the ceiling. */
export const BACKEND_TIMEOUT_MS: Range = Object.freeze({ min: 1, max: DEFAULT_BUDGETS.deadlineMs });

/** Methods of a backend call (manifest.rs). */
export const BACKEND_METHODS = Object.freeze(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const);

/** The backend URL rule is the core's (`url.rs`), generated with its length cap. */
export { MAX_URL_BYTES } from '../core/generated/defaults';

/** A backend URL as the core admits it, judged on the text as written. */
export function isBackendUrl(u: string): boolean {
  return BACKEND_URL.test(u);
}

/**
 * A declared backend base URL in its normalized (WHATWG) form, or `undefined` when the core's rule
 * refuses that form. Normalizing first lets users write `HTTP://Example.com`; the core judges the text
 * it will be given.
 */
export function backendBase(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.length > MAX_URL_BYTES) return undefined;
  let href: string;
  try {
    href = new URL(raw).href;
  } catch {
    return undefined;
  }
  return isBackendUrl(href) ? href : undefined;
}

/**
 * A backend handler's path: absolute, unreserved characters only, no authority (`//`), no
 * percent-escapes, no dot segments, at most 1024 characters.
 */
export function isBackendPath(p: unknown): p is string {
  return typeof p === 'string' && /^\/(?!\/)[A-Za-z0-9\-._~/]{0,1023}$/.test(p) && !p.split('/').some((s) => s === '.' || s === '..');
}

/** The URL a backend handler calls: the base without trailing slashes, then the path. */
export function backendCallUrl(base: string, path: string): string {
  const url = new URL(base);
  return url.origin + url.pathname.replace(/\/+$/, '') + path;
}

/** Characters in a backend bearer token (rpc_client.rs `MAX_BEARER`). */
export const MAX_BEARER = 4096;

/**
 * RFC 6750 `b64token`, at most 4096 characters (rpc_client.rs `valid_bearer`): nothing that could
 * break out of the header it travels in.
 */
export function isBearerToken(v: unknown): v is string {
  return typeof v === 'string' && v.length <= MAX_BEARER && /^[A-Za-z0-9\-._~+/]+=*$/.test(v);
}
