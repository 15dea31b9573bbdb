/** @pulse-compute/mcp/node: the same core behind an `http.createServer` request listener. */
export { createMcpNodeHandler } from './adapter/node/handler';
export type { McpNodeHandler } from './adapter/node/handler';
export type { McpHttpOptions, McpLimits } from './index';
