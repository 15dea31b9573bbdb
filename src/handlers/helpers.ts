/**
 * Handler builders for the native kinds (static, corpus, backend), which run inside the core on every
 * target. A plain function passed as `handler` is the `javascript` kind instead (JavaScript hosts only).
 */
import type { HandlerDefinition } from '../router/definition';
import { fail } from '../router/errors';
import { BACKEND_METHODS, BACKEND_TIMEOUT_MS, HANDLER_BYTES, inRange, isBackendPath, isName, STATIC_RESULT_BYTES, STATIC_RESULT_DEPTH, TOP_K } from '../router/rules';

export type NativeHandler = Exclude<HandlerDefinition, { kind: 'javascript' }>;

/** Native handlers built here; the router accepts only these (or a function). */
const built = new WeakSet<object>();

export function isNativeHandler(v: unknown): v is NativeHandler {
  return typeof v === 'object' && v !== null && built.has(v);
}

function finish<H extends NativeHandler>(h: H): H {
  const frozen = Object.freeze(h);
  built.add(frozen);
  return frozen;
}


function isPlain(v: object): boolean {
  const p = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null;
}

/**
 * True when `v` is plain JSON data (no functions, cycles, non-finite numbers, class instances) of at
 * most STATIC_RESULT_DEPTH nested arrays and objects, counted as the core counts them.
 */
export function isPlainJson(v: unknown, outer = 0): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (outer >= STATIC_RESULT_DEPTH) return false;
  if (Array.isArray(v)) return v.every((x) => isPlainJson(x, outer + 1));
  if (typeof v === 'object' && isPlain(v)) {
    return Object.keys(v).every((k) => k !== '__proto__' && isPlainJson((v as Record<string, unknown>)[k], outer + 1));
  }
  return false;
}

const encoder = new TextEncoder();

export function utf8Length(s: string): number {
  return encoder.encode(s).length;
}

export function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

/**
 * The JSON text of a static result within the core's rule (STATIC_RESULT_RULE), or `undefined`:
 * checked early, for the router and the compiler; the core checks the manifest again.
 */
export function staticResultText(value: unknown): string | undefined {
  if (!isPlainJson(value)) return undefined;
  const text = JSON.stringify(value);
  return utf8Length(text) > STATIC_RESULT_BYTES ? undefined : text;
}

/** A fixed result, copied and frozen at declaration. */
function staticResult(value: unknown): NativeHandler {
  const text = staticResultText(value);
  if (text === undefined) fail('PULSE_ERR_DECLARATION', 'handlerStatic');
  return finish({ kind: 'static', result: deepFreeze(JSON.parse(text)) });
}

function onlyKeys(v: unknown, keys: readonly string[]): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && isPlain(v) && Object.keys(v).every((k) => keys.includes(k));
}

/** Bounded corpus access: `search` (top-k full text), `read` (one entry by id), `list` (all entries). */
function corpus(opts: { corpus: string; action: 'search' | 'read' | 'list'; topK?: number; maxBytes?: number }): NativeHandler {
  if (!onlyKeys(opts, ['corpus', 'action', 'topK', 'maxBytes'])) fail('PULSE_ERR_DECLARATION', 'handlerCorpusOptions');
  const { corpus: name, action, topK, maxBytes } = opts;
  if (!isName(name)) fail('PULSE_ERR_DECLARATION', 'handlerCorpusOptions');
  if (action !== 'search' && action !== 'read' && action !== 'list') fail('PULSE_ERR_DECLARATION', 'handlerCorpusOptions');
  if (topK !== undefined && !inRange(topK, TOP_K)) fail('PULSE_ERR_DECLARATION', 'handlerCorpusOptions');
  if (maxBytes !== undefined && !inRange(maxBytes, HANDLER_BYTES)) fail('PULSE_ERR_DECLARATION', 'handlerCorpusOptions');
  const h: Record<string, unknown> = { kind: 'corpus', corpus: name, action };
  if (topK !== undefined) h.topK = topK;
  if (maxBytes !== undefined) h.maxBytes = maxBytes;
  return finish(h as NativeHandler);
}

/** One governed HTTP call to a declared backend; the core builds the body from the decoded input. */
function backend(opts: {
  backend: string;
  method: (typeof BACKEND_METHODS)[number];
  path: string;
  maxBytes: number;
  timeoutMs: number;
}): NativeHandler {
  if (!onlyKeys(opts, ['backend', 'method', 'path', 'maxBytes', 'timeoutMs'])) fail('PULSE_ERR_DECLARATION', 'handlerBackendOptions');
  const { backend: name, method, path, maxBytes, timeoutMs } = opts;
  if (!isName(name)) fail('PULSE_ERR_DECLARATION', 'handlerBackendOptions');
  if (!BACKEND_METHODS.includes(method)) fail('PULSE_ERR_DECLARATION', 'handlerBackendOptions');
  if (!isBackendPath(path)) fail('PULSE_ERR_DECLARATION', 'handlerBackendOptions');
  if (!inRange(maxBytes, HANDLER_BYTES) || !inRange(timeoutMs, BACKEND_TIMEOUT_MS)) fail('PULSE_ERR_DECLARATION', 'handlerBackendOptions');
  return finish({ kind: 'backend', backend: name, method, path, maxBytes, timeoutMs });
}

export const handlers = Object.freeze({ static: staticResult, corpus, backend });
