"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.LOG_RECORDS_PER_REQUEST = exports.KV_OPS_PER_REQUEST = exports.MAX_CALL_DEPTH = exports.createMemoryKv = exports.createHandlerRunner = exports.isNativeHandler = exports.handlers = void 0;
/** Handler builders (native kinds) and the request-owned context of JavaScript handlers. */
var helpers_1 = require("./helpers");
Object.defineProperty(exports, "handlers", { enumerable: true, get: function () { return helpers_1.handlers; } });
Object.defineProperty(exports, "isNativeHandler", { enumerable: true, get: function () { return helpers_1.isNativeHandler; } });
var context_1 = require("./context");
Object.defineProperty(exports, "createHandlerRunner", { enumerable: true, get: function () { return context_1.createHandlerRunner; } });
Object.defineProperty(exports, "createMemoryKv", { enumerable: true, get: function () { return context_1.createMemoryKv; } });
Object.defineProperty(exports, "MAX_CALL_DEPTH", { enumerable: true, get: function () { return context_1.MAX_CALL_DEPTH; } });
Object.defineProperty(exports, "KV_OPS_PER_REQUEST", { enumerable: true, get: function () { return context_1.KV_OPS_PER_REQUEST; } });
Object.defineProperty(exports, "LOG_RECORDS_PER_REQUEST", { enumerable: true, get: function () { return context_1.LOG_RECORDS_PER_REQUEST; } });
