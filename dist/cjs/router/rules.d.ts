import type { Budgets } from './definition';
/** The ranges of the i32 and u32 codecs (codec.rs). */
export declare const I32_MIN = -2147483648;
export declare const I32_MAX = 2147483647;
export declare const U32_MAX = 4294967295;
/** An integer from `lo` to `hi`. */
export declare function isInt(v: unknown, lo: number, hi: number): v is number;
/** The four boolean MCP tool hints: with title and description, all a tool publishes of itself. */
export declare const HINT_KEYS: readonly string[];
/** The core's name rule as messages state it (generated, as is the pattern `isName` applies). */
export { NAME_RULE } from '../core/generated/defaults';
/** Router, operation (tool), backend, corpus, collection and secret names (the core's `valid_name`). */
export declare function isName(v: unknown): v is string;
/** The core's static-result rule (generated): its bounds and its text for messages. */
export { STATIC_RESULT_BYTES, STATIC_RESULT_DEPTH, STATIC_RESULT_RULE } from '../core/generated/defaults';
/** Operations (tools) of one router (manifest.rs `MAX_TOOLS`). */
export declare const MAX_OPERATIONS = 128;
/** Request budgets of JavaScript handlers. Router values may only lower these. */
export declare const DEFAULT_BUDGETS: Budgets;
/** An integer range, inclusive. */
export interface Range {
    readonly min: number;
    readonly max: number;
}
export declare function inRange(v: unknown, r: Range): v is number;
/**
 * `maxBytes` of a corpus or backend handler (manifest.rs: 1 to 1048576). A handler's result can
 * never exceed the default tool-result budget, which is the default response budget.
 */
export declare const HANDLER_BYTES: Range;
/** `topK` of a corpus handler (manifest.rs `MAX_TOP_K`). */
export declare const TOP_K: Range;
export declare const DEFAULT_TOP_K = 10;
export declare const DEFAULT_CORPUS_MAX_BYTES = 16384;
/** A backend handler's `timeoutMs`; the router's own deadline may lower the ceiling. */
export declare const BACKEND_TIMEOUT_MS: Range;
/** Methods of a backend call (manifest.rs). */
export declare const BACKEND_METHODS: readonly ["GET", "POST", "PUT", "PATCH", "DELETE"];
/** The backend URL rule is the core's (`url.rs`), generated with its length cap. */
export { MAX_URL_BYTES } from '../core/generated/defaults';
/** A backend URL as the core admits it, judged on the text as written. */
export declare function isBackendUrl(u: string): boolean;
/**
 * A declared backend base URL in its normalized (WHATWG) form, or `undefined` when the core's rule
 * refuses that form. Normalizing first lets users write `HTTP://Example.com`; the core judges the text
 * it will be given.
 */
export declare function backendBase(raw: unknown): string | undefined;
/**
 * A backend handler's path: absolute, unreserved characters only, no authority (`//`), no
 * percent-escapes, no dot segments, at most 1024 characters.
 */
export declare function isBackendPath(p: unknown): p is string;
/** The URL a backend handler calls: the base without trailing slashes, then the path. */
export declare function backendCallUrl(base: string, path: string): string;
/** Characters in a backend bearer token (rpc_client.rs `MAX_BEARER`). */
export declare const MAX_BEARER = 4096;
/**
 * RFC 6750 `b64token`, at most 4096 characters (rpc_client.rs `valid_bearer`): nothing that could
 * break out of the header it travels in.
 */
export declare function isBearerToken(v: unknown): v is string;
