// `npm run example:conformance`: the conformance fixtures (router.mjs) served by the static binding's
// Node listener at http://127.0.0.1:3001/mcp (HOST and PORT override). The Origin allowlist is exactly this server's
// own loopback origin, so a page elsewhere cannot reach it. Multi-round state is sealed with
// REQUEST_STATE_KEY (at least 32 bytes), or with a key drawn at start (state then dies with the
// process).
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mcp } from '@pulse-compute/mcp/pulse';
import { options, router } from './router.mjs';

const host = process.env.HOST || '127.0.0.1';
const port = Number(process.env.PORT || 3001);
const requestStateKey = process.env.REQUEST_STATE_KEY || randomBytes(32).toString('hex');

const server = http.createServer();
server.listen(port, host, () => {
  const { address, port: bound } = server.address();
  const shown = address.includes(':') ? `[${address}]` : address;
  const origins = [`http://${shown}:${bound}`];
  if (address === '127.0.0.1' || address === '::1') origins.push(`http://localhost:${bound}`);
  const handler = mcp({ ...options, router, allowedOrigins: origins, requestStateKey }).nodeListener();
  server.on('request', handler);
  server.on('clientError', handler.clientError);
  process.stdout.write(`Pulse MCP conformance server listening on http://${shown}:${bound}/mcp\n`);
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
    setTimeout(() => process.exit(0), 1000).unref();
  });
}
