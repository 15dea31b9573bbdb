// The `npm start` server: the Node host on http://127.0.0.1:3000/mcp (HOST and PORT override).
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { createMcpNodeHandler } from '@pulse-compute/mcp/node';

// Plug point for tools. MANIFEST=<file> serves a manifest written by `pulse-mcp compile`: the
// deployed form, which needs none of the declarations' sources (its tools must all be native, as the
// context server's are). Otherwise examples/context/router.mjs exporting `tools` (a manifest + handler
// runner); without either the server answers discovery only.
const routerUrl = new URL('./context/router.mjs', import.meta.url);
const tools = process.env.MANIFEST
  ? { manifest: JSON.parse(readFileSync(process.env.MANIFEST, 'utf8')) }
  : existsSync(routerUrl) ? (await import(routerUrl.href)).tools : undefined;

const host = process.env.HOST || '127.0.0.1';
const port = Number(process.env.PORT || 3000);
// LEGACY_PROTOCOL=2025-06-18 also serves the stateless 2025-06-18 profile (Codex); any other value
// fails option validation at construction.
const legacyProtocol = process.env.LEGACY_PROTOCOL || undefined;
const server = http.createServer(createMcpNodeHandler({ tools, legacyProtocol }));
server.listen(port, host, () => {
  const { address, port: bound } = server.address();
  const shown = address.includes(':') ? `[${address}]` : address;
  process.stdout.write(`Pulse MCP listening on http://${shown}:${bound}/mcp\n`);
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
    // Sockets in a lingering close are not the server's any more; do not wait for them.
    setTimeout(() => process.exit(0), 1000).unref();
  });
}
