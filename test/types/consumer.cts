// Type-checks a CommonJS consumer of the built package under module NodeNext (not executed).
import http = require('node:http');
import mcp = require('@pulse-compute/mcp');
import node = require('@pulse-compute/mcp/node');

const options: mcp.McpHttpOptions = { limits: { deadlineMs: 5000 } };
const handler: mcp.McpHttpHandler = mcp.createMcpHttpHandler(options);
const response: Promise<Response> = handler.fetch(new Request('http://127.0.0.1/mcp'));
const limits: Readonly<mcp.McpLimits> = mcp.DEFAULT_LIMITS;
const version: string = mcp.PROTOCOL_VERSION;
const server: http.Server = http.createServer(node.createMcpNodeHandler());
// @ts-expect-error limits are numbers
mcp.createMcpHttpHandler({ limits: { depth: '8' } });
export = { response, limits, version, server };
