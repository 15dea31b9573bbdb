/**
 * @pulse-compute/mcp/otel: OpenTelemetry server spans of every request, from the request events the
 * hosts publish on `node:diagnostics_channel` (`pulse-mcp:request`). Requires `@opentelemetry/api`.
 */
export { instrument } from './telemetry/otel';
export type { InstrumentOptions } from './telemetry/otel';
export { REQUEST_CHANNEL } from './telemetry/channel';
export type { McpRequestEvent } from './telemetry/channel';
