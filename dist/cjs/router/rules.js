"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_BEARER = exports.MAX_URL_BYTES = exports.BACKEND_METHODS = exports.BACKEND_TIMEOUT_MS = exports.DEFAULT_CORPUS_MAX_BYTES = exports.DEFAULT_TOP_K = exports.TOP_K = exports.HANDLER_BYTES = exports.DEFAULT_BUDGETS = exports.MAX_OPERATIONS = exports.STATIC_RESULT_RULE = exports.STATIC_RESULT_DEPTH = exports.STATIC_RESULT_BYTES = exports.NAME_RULE = exports.HINT_KEYS = exports.U32_MAX = exports.I32_MAX = exports.I32_MIN = void 0;
exports.isInt = isInt;
exports.isName = isName;
exports.inRange = inRange;
exports.isBackendUrl = isBackendUrl;
exports.backendBase = backendBase;
exports.isBackendPath = isBackendPath;
exports.backendCallUrl = backendCallUrl;
exports.isBearerToken = isBearerToken;
/**
 * The declaration rules TypeScript checks early, each written once and imported by the router, the
 * handler builders, the handler context and the compiler. The core checks the compiled manifest
 * against the same rules on its own (native/core/src/manifest.rs) and is the authority; these only
 * make a bad declaration fail where it is written.
 */
const defaults_1 = require("../core/generated/defaults");
const limits_1 = require("../limits");
/** The ranges of the i32 and u32 codecs (codec.rs). */
exports.I32_MIN = -2147483648;
exports.I32_MAX = 2147483647;
exports.U32_MAX = 4294967295;
/** An integer from `lo` to `hi`. */
function isInt(v, lo, hi) {
    return typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;
}
/** The four boolean MCP tool hints: with title and description, all a tool publishes of itself. */
exports.HINT_KEYS = Object.freeze(['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']);
/** The core's name rule as messages state it (generated, as is the pattern `isName` applies). */
var defaults_2 = require("../core/generated/defaults");
Object.defineProperty(exports, "NAME_RULE", { enumerable: true, get: function () { return defaults_2.NAME_RULE; } });
/** Router, operation (tool), backend, corpus, collection and secret names (the core's `valid_name`). */
function isName(v) {
    return typeof v === 'string' && defaults_1.NAME.test(v);
}
/** The core's static-result rule (generated): its bounds and its text for messages. */
var defaults_3 = require("../core/generated/defaults");
Object.defineProperty(exports, "STATIC_RESULT_BYTES", { enumerable: true, get: function () { return defaults_3.STATIC_RESULT_BYTES; } });
Object.defineProperty(exports, "STATIC_RESULT_DEPTH", { enumerable: true, get: function () { return defaults_3.STATIC_RESULT_DEPTH; } });
Object.defineProperty(exports, "STATIC_RESULT_RULE", { enumerable: true, get: function () { return defaults_3.STATIC_RESULT_RULE; } });
/** Operations (tools) of one router (manifest.rs `MAX_TOOLS`). */
exports.MAX_OPERATIONS = 128;
/** Request budgets of JavaScript handlers. Router values may only lower these. */
exports.DEFAULT_BUDGETS = Object.freeze({
    deadlineMs: 5000,
    fetches: 8,
    fetchBytes: 1048576,
    calls: 16,
});
function inRange(v, r) {
    return typeof v === 'number' && Number.isInteger(v) && v >= r.min && v <= r.max;
}
/**
 * `maxBytes` of a corpus or backend handler (manifest.rs: 1 to 1048576). A handler's result can
 * never exceed the default tool-result budget, which is the default response budget.
 */
exports.HANDLER_BYTES = Object.freeze({ min: 1, max: limits_1.DEFAULT_LIMITS.responseBytes });
/** `topK` of a corpus handler (manifest.rs `MAX_TOP_K`). */
exports.TOP_K = Object.freeze({ min: 1, max: 64 });
exports.DEFAULT_TOP_K = 10;
exports.DEFAULT_CORPUS_MAX_BYTES = 16384;
/** A backend handler's `timeoutMs`; the router's own deadline may lower the ceiling. */
exports.BACKEND_TIMEOUT_MS = Object.freeze({ min: 1, max: exports.DEFAULT_BUDGETS.deadlineMs });
/** Methods of a backend call (manifest.rs). */
exports.BACKEND_METHODS = Object.freeze(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
/** The backend URL rule is the core's (`url.rs`), generated with its length cap. */
var defaults_4 = require("../core/generated/defaults");
Object.defineProperty(exports, "MAX_URL_BYTES", { enumerable: true, get: function () { return defaults_4.MAX_URL_BYTES; } });
/** A backend URL as the core admits it, judged on the text as written. */
function isBackendUrl(u) {
    return defaults_1.BACKEND_URL.test(u);
}
/**
 * A declared backend base URL in its normalized (WHATWG) form, or `undefined` when the core's rule
 * refuses that form. Normalizing first lets users write `HTTP://Example.com`; the core judges the text
 * it will be given.
 */
function backendBase(raw) {
    if (typeof raw !== 'string' || raw.length > defaults_1.MAX_URL_BYTES)
        return undefined;
    let href;
    try {
        href = new URL(raw).href;
    }
    catch {
        return undefined;
    }
    return isBackendUrl(href) ? href : undefined;
}
/**
 * A backend handler's path: absolute, unreserved characters only, no authority (`//`), no
 * percent-escapes, no dot segments, at most 1024 characters.
 */
function isBackendPath(p) {
    return typeof p === 'string' && /^\/(?!\/)[A-Za-z0-9\-._~/]{0,1023}$/.test(p) && !p.split('/').some((s) => s === '.' || s === '..');
}
/** The URL a backend handler calls: the base without trailing slashes, then the path. */
function backendCallUrl(base, path) {
    const url = new URL(base);
    return url.origin + url.pathname.replace(/\/+$/, '') + path;
}
/** Characters in a backend bearer token (rpc_client.rs `MAX_BEARER`). */
exports.MAX_BEARER = 4096;
/**
 * RFC 6750 `b64token`, at most 4096 characters (rpc_client.rs `valid_bearer`): nothing that could
 * break out of the header it travels in.
 */
function isBearerToken(v) {
    return typeof v === 'string' && v.length <= exports.MAX_BEARER && /^[A-Za-z0-9\-._~+/]+=*$/.test(v);
}
