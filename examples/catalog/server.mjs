// The MCP host in front of the backend. It uses only the artifacts `pulse-mcp compile` emitted
// (entities-catalog.json, schema-json-registry.json in ARTIFACTS, default ./build): no router, no
// handler code. BACKEND_URL is the backend's fixed JSON-RPC endpoint, BACKEND_TOKEN its service
// credential.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMcpNodeHandler } from '@pulse-compute/mcp/node';

const dir = process.env.ARTIFACTS || fileURLToPath(new URL('./build', import.meta.url));
const read = (name) => JSON.parse(readFileSync(join(dir, name), 'utf8'));
const handler = createMcpNodeHandler({
  legacyProtocol: process.env.LEGACY_PROTOCOL || undefined,
  tools: {
    catalog: read('entities-catalog.json'),
    schemas: read('schema-json-registry.json'),
    routerId: 'notes',
    target: 'node-javascript',
    endpoint: process.env.BACKEND_URL,
    backendBearerToken: process.env.BACKEND_TOKEN,
  },
});
const server = http.createServer(handler);
server.listen(Number(process.env.PORT || 3000), process.env.HOST || '127.0.0.1', () => {
  const { address, port } = server.address();
  process.stdout.write(`Pulse MCP (catalog) listening on http://${address.includes(':') ? `[${address}]` : address}:${port}/mcp\n`);
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
