/** @pulse-compute/mcp/node: the same core behind an `http.createServer` request listener. */
export { createMcpNodeHandler } from './adapter/node/handler';
export type { McpNodeHandler } from './adapter/node/handler';
export { REQUEST_CHANNEL } from './telemetry/channel';
export type { McpRequestEvent } from './telemetry/channel';
export { PulseError, PulseConfigError, PulseCoreError } from './errors';
export type { PulseErrorCode } from './errors';
export { PulseRouterError, isPulseRouterError } from './router/errors';
export { ManifestError } from './compiler/errors';
export type { McpCatalogTools, McpContentBlock, McpHttpOptions, McpLimits, McpPrompt, McpResource, McpResourceTemplate, McpSecretRef } from './index';
