import type { McpLimits } from '../../limits';
/** The core's default ceilings (`Limits::DEFAULT`); options may only lower them. */
export declare const DEFAULT_LIMITS: Readonly<McpLimits>;
/** Bytes the response budget must keep above the request budget (the core's `RESPONSE_HEADROOM`). */
export declare const RESPONSE_HEADROOM_BYTES = 512;
/** Ticks in a row the core may answer with CONTINUE while reporting no time left (the core's `driver::MAX_ZERO_WAITS`). */
export declare const MAX_ZERO_WAITS = 2;
/** Router, operation (tool), backend, corpus, collection and secret names (the core's `decl::valid_name`). */
export declare const NAME: RegExp;
/** The name rule as messages state it (the core's `NAME_RULE`). */
export declare const NAME_RULE = "1-128 characters of A-Za-z0-9_.-";
/** Nesting levels (containers, counted as for a request body) of a static result (the core's `STATIC_DEPTH`). */
export declare const STATIC_RESULT_DEPTH = 32;
/** Bytes of a static result's JSON text (the core's `STATIC_BYTES`). */
export declare const STATIC_RESULT_BYTES = 65536;
/** The static-result rule as messages state it (the core's `STATIC_RESULT_RULE`). */
export declare const STATIC_RESULT_RULE = "plain JSON of at most 32 levels and 65536 bytes";
/** A backend URL as the core admits it, as written (the core's `url::Use::Backend`). */
export declare const BACKEND_URL: RegExp;
/** Bytes of any URL a configuration names (the core's `url::MAX_URL_BYTES`). */
export declare const MAX_URL_BYTES = 2048;
/** The Node and Fetch hosts' in-process stores (introspection cache, rate limits) when `maxEntries` and `maxBytes` are absent (the core's `host_store`). */
export declare const HOST_STORE_DEFAULTS: Readonly<{
    maxEntries: 10000;
    maxBytes: 8388608;
}>;
