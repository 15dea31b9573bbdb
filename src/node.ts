/** @pulse-compute/mcp/node: the same core behind an `http.createServer` request listener. */
export { createMcpNodeHandler } from './adapter/node/handler';
export type { McpNodeHandler } from './adapter/node/handler';
export type { McpCatalogTools, McpContentBlock, McpHttpOptions, McpLimits, McpPrompt, McpResource, McpResourceTemplate, McpSecretRef } from './index';
