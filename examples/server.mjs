// The `npm start` server: the deployed service (edge/context.mjs, the static binding Fastly Native
// serves) on Node at http://127.0.0.1:3000/mcp (HOST and PORT override).
import http from 'node:http';
import { mcp } from '@pulse-compute/mcp/pulse';
import { server as deployed, serverInfo, tools } from '../edge/context.mjs';

const host = process.env.HOST || '127.0.0.1';
const port = Number(process.env.PORT || 3000);
// LEGACY_PROTOCOL=2025-06-18 also serves the stateless 2025-06-18 profile (Codex). The deployed
// binding is declared once, at module level, modern only; the legacy variant binds the same router
// again with legacyProtocol, as `npm run edge:build` builds bin/main-legacy.wasm beside bin/main.wasm.
// Any other value is refused by mcp() at start-up.
const legacyProtocol = process.env.LEGACY_PROTOCOL || undefined;
const binding = legacyProtocol === undefined ? deployed : mcp({ router: tools, serverInfo, legacyProtocol });
const server = http.createServer(binding.nodeListener());
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
