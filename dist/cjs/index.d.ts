/**
 * @pulse-compute/mcp: a bounded, stateless MCP 2026-07-28 server. One sans-I/O Rust core (wasm, or
 * wasm2js where WebAssembly is absent) decides every reply; this entry point is the Fetch host.
 */
export { createMcpHttpHandler } from './adapter/fetch/handler';
export type { McpHttpHandler } from './adapter/fetch/handler';
export { PROTOCOL_VERSION } from './protocol';
export { DEFAULT_LIMITS } from './limits';
export { REQUEST_CHANNEL } from './telemetry/channel';
export type { McpRequestEvent } from './telemetry/channel';
export type { McpLimits } from './limits';
export type { McpAuthorizationOptions, McpCatalogTools, McpClientInfo, McpContentBlock, McpCoreSource, McpHttpOptions, McpPrompt, McpRateBudget, McpRateLimitOptions, McpResource, McpSecretRef, McpResourceTemplate, McpToolsOptions, } from './options';
export { PulseError, PulseConfigError, PulseCoreError } from './errors';
export type { PulseErrorCode } from './errors';
export { PulseRouterError, isPulseRouterError } from './router/errors';
export { ManifestError } from './compiler/errors';
