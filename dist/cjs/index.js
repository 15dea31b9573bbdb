"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ManifestError = exports.isPulseRouterError = exports.PulseRouterError = exports.PulseCoreError = exports.PulseConfigError = exports.PulseError = exports.REQUEST_CHANNEL = exports.DEFAULT_LIMITS = exports.PROTOCOL_VERSION = exports.createMcpHttpHandler = void 0;
/**
 * @pulse-compute/mcp: a bounded, stateless MCP 2026-07-28 server. One sans-I/O Rust core (wasm, or
 * wasm2js where WebAssembly is absent) decides every reply; this entry point is the Fetch host.
 */
var handler_1 = require("./adapter/fetch/handler");
Object.defineProperty(exports, "createMcpHttpHandler", { enumerable: true, get: function () { return handler_1.createMcpHttpHandler; } });
var protocol_1 = require("./protocol");
Object.defineProperty(exports, "PROTOCOL_VERSION", { enumerable: true, get: function () { return protocol_1.PROTOCOL_VERSION; } });
var limits_1 = require("./limits");
Object.defineProperty(exports, "DEFAULT_LIMITS", { enumerable: true, get: function () { return limits_1.DEFAULT_LIMITS; } });
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
