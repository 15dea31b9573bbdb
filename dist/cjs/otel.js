"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.REQUEST_CHANNEL = exports.instrument = void 0;
/**
 * @pulse-compute/mcp/otel: OpenTelemetry server spans of every request, from the request events the
 * hosts publish on `node:diagnostics_channel` (`pulse-mcp:request`). Requires `@opentelemetry/api`.
 */
var otel_1 = require("./telemetry/otel");
Object.defineProperty(exports, "instrument", { enumerable: true, get: function () { return otel_1.instrument; } });
var channel_1 = require("./telemetry/channel");
Object.defineProperty(exports, "REQUEST_CHANNEL", { enumerable: true, get: function () { return channel_1.REQUEST_CHANNEL; } });
