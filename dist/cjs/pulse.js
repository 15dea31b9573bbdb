"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createMemoryKv = exports.handlers = exports.ManifestError = exports.isPulseRouterError = exports.PulseRouterError = exports.PulseCoreError = exports.PulseConfigError = exports.PulseError = exports.REQUEST_CHANNEL = exports.STATIC_LIMITS = exports.DEFAULT_BUDGETS = exports.jsonRpc = exports.mcp = exports.assertNativeEligible = exports.codec = exports.EntityRouter = void 0;
/**
 * @pulse-compute/mcp/pulse: declare a module-level router of schema-typed operations and bind it
 * statically, `const server = mcp({ router, serverInfo })`: `server.handle(ctx)` on Fetch runtimes,
 * `http.createServer(server.nodeListener())` on Node. The core decodes inputs, encodes outputs and
 * frames every reply; JavaScript handlers get a request-owned context and nothing else.
 */
var router_1 = require("./router");
Object.defineProperty(exports, "EntityRouter", { enumerable: true, get: function () { return router_1.EntityRouter; } });
Object.defineProperty(exports, "codec", { enumerable: true, get: function () { return router_1.codec; } });
Object.defineProperty(exports, "assertNativeEligible", { enumerable: true, get: function () { return router_1.assertNativeEligible; } });
Object.defineProperty(exports, "mcp", { enumerable: true, get: function () { return router_1.mcp; } });
Object.defineProperty(exports, "jsonRpc", { enumerable: true, get: function () { return router_1.jsonRpc; } });
Object.defineProperty(exports, "DEFAULT_BUDGETS", { enumerable: true, get: function () { return router_1.DEFAULT_BUDGETS; } });
Object.defineProperty(exports, "STATIC_LIMITS", { enumerable: true, get: function () { return router_1.STATIC_LIMITS; } });
var channel_1 = require("./telemetry/channel");
Object.defineProperty(exports, "REQUEST_CHANNEL", { enumerable: true, get: function () { return channel_1.REQUEST_CHANNEL; } });
// The error classes: every entry re-exports the same module, so `instanceof` holds across entries.
var errors_1 = require("./errors");
Object.defineProperty(exports, "PulseError", { enumerable: true, get: function () { return errors_1.PulseError; } });
Object.defineProperty(exports, "PulseConfigError", { enumerable: true, get: function () { return errors_1.PulseConfigError; } });
Object.defineProperty(exports, "PulseCoreError", { enumerable: true, get: function () { return errors_1.PulseCoreError; } });
var errors_2 = require("./router/errors");
Object.defineProperty(exports, "PulseRouterError", { enumerable: true, get: function () { return errors_2.PulseRouterError; } });
Object.defineProperty(exports, "isPulseRouterError", { enumerable: true, get: function () { return errors_2.isPulseRouterError; } });
var errors_3 = require("./compiler/errors");
Object.defineProperty(exports, "ManifestError", { enumerable: true, get: function () { return errors_3.ManifestError; } });
var handlers_1 = require("./handlers");
Object.defineProperty(exports, "handlers", { enumerable: true, get: function () { return handlers_1.handlers; } });
Object.defineProperty(exports, "createMemoryKv", { enumerable: true, get: function () { return handlers_1.createMemoryKv; } });
