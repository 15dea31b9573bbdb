"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.HOST_STORE_DEFAULTS = exports.MAX_URL_BYTES = exports.BACKEND_URL = exports.STATIC_RESULT_RULE = exports.STATIC_RESULT_BYTES = exports.STATIC_RESULT_DEPTH = exports.NAME_RULE = exports.NAME = exports.MAX_ZERO_WAITS = exports.RESPONSE_HEADROOM_BYTES = exports.DEFAULT_LIMITS = void 0;
/** The core's default ceilings (`Limits::DEFAULT`); options may only lower them. */
exports.DEFAULT_LIMITS = Object.freeze({
    requestBytes: 65536,
    responseBytes: 1048576,
    depth: 32,
    deadlineMs: 10000,
});
/** Bytes the response budget must keep above the request budget (the core's `RESPONSE_HEADROOM`). */
exports.RESPONSE_HEADROOM_BYTES = 512;
/** Ticks in a row the core may answer with CONTINUE while reporting no time left (the core's `driver::MAX_ZERO_WAITS`). */
exports.MAX_ZERO_WAITS = 2;
/** Router, operation (tool), backend, corpus, collection and secret names (the core's `decl::valid_name`). */
exports.NAME = /^[A-Za-z0-9_.-]{1,128}$/;
/** The name rule as messages state it (the core's `NAME_RULE`). */
exports.NAME_RULE = "1-128 characters of A-Za-z0-9_.-";
/** Nesting levels (containers, counted as for a request body) of a static result (the core's `STATIC_DEPTH`). */
exports.STATIC_RESULT_DEPTH = 32;
/** Bytes of a static result's JSON text (the core's `STATIC_BYTES`). */
exports.STATIC_RESULT_BYTES = 65536;
/** The static-result rule as messages state it (the core's `STATIC_RESULT_RULE`). */
exports.STATIC_RESULT_RULE = "plain JSON of at most 32 levels and 65536 bytes";
/** A backend URL as the core admits it, as written (the core's `url::Use::Backend`). */
exports.BACKEND_URL = /^(?=[\x21-\x7e]{1,2048}$)(?:https:\x2f\x2f(?:[a-z0-9._-]+|\[[0-9a-f.]*:[0-9a-f:.]*\])|http:\x2f\x2f(?:localhost|\[::1\]|127(?:\.(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}))(?::(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}))?(?:\x2f[^?#@]*)?$/;
/** Bytes of any URL a configuration names (the core's `url::MAX_URL_BYTES`). */
exports.MAX_URL_BYTES = 2048;
/** The Node and Fetch hosts' in-process stores (introspection cache, rate limits) when `maxEntries` and `maxBytes` are absent (the core's `host_store`). */
exports.HOST_STORE_DEFAULTS = Object.freeze({ maxEntries: 10000, maxBytes: 8388608 });
