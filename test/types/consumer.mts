// Type-checks an ESM consumer of the built package under module NodeNext (not executed).
import http from 'node:http';
import {
  createMcpHttpHandler,
  DEFAULT_LIMITS,
  PROTOCOL_VERSION,
  type McpAuthorizationOptions,
  type McpHttpHandler,
  type McpHttpOptions,
  type McpLimits,
  type McpToolsOptions,
} from '@pulse-compute/mcp';
import { createMcpNodeHandler } from '@pulse-compute/mcp/node';

const limits: Partial<McpLimits> = { requestBytes: DEFAULT_LIMITS.requestBytes / 2 };
const tools: McpToolsOptions | undefined = undefined;
const options: McpHttpOptions = { path: '/mcp', allowedOrigins: ['https://app.example'], limits, legacyProtocol: '2025-06-18', tools };
const handler: McpHttpHandler = createMcpHttpHandler(options);
const response: Promise<Response> = handler.fetch(new Request('http://127.0.0.1/mcp'));
const version: '2026-07-28' = PROTOCOL_VERSION;
const server: http.Server = http.createServer(createMcpNodeHandler({ serverInfo: { name: 'demo', version: '1.0.0' } }));
type Reserved = McpAuthorizationOptions['issuer'];
// @ts-expect-error only the measured legacy revision is accepted
createMcpNodeHandler({ legacyProtocol: '2025-03-26' });
export { response, server, version, type Reserved };
