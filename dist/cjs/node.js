"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ManifestError = exports.isPulseRouterError = exports.PulseRouterError = exports.PulseCoreError = exports.PulseConfigError = exports.PulseError = exports.REQUEST_CHANNEL = exports.createMcpNodeHandler = void 0;
/** @pulse-compute/mcp/node: the same core behind an `http.createServer` request listener. */
var handler_1 = require("./adapter/node/handler");
Object.defineProperty(exports, "createMcpNodeHandler", { enumerable: true, get: function () { return handler_1.createMcpNodeHandler; } });
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
