// The governed backend: the notes router as plain JSON-RPC (`jsonRpc(router)`) on node:http, on
// loopback. It admits only requests carrying its own service token (BACKEND_TOKEN), so bypassing
// the MCP host does not bypass it, and logs one line per request it receives.
import http from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { jsonRpc } from '@pulse-compute/mcp/pulse';
import { router } from './router.mjs';

const token = process.env.BACKEND_TOKEN;
if (!token) throw new Error('BACKEND_TOKEN must be set: the backend admits only its own service token');
const expected = Buffer.from(`Bearer ${token}`);
const rpc = jsonRpc(router);

const server = http.createServer(async (req, res) => {
  const given = Buffer.from(req.headers.authorization ?? '');
  const admitted = given.length === expected.length && timingSafeEqual(given, expected);
  process.stdout.write(`backend: ${req.method} ${req.url} ${admitted ? 'admitted' : 'refused (no service token)'}\n`);
  if (!admitted) {
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
    return;
  }
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const reply = await rpc.fetch(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers: { 'content-type': req.headers['content-type'] ?? '' }, body: Buffer.concat(chunks) }));
  res.writeHead(reply.status, Object.fromEntries(reply.headers)).end(Buffer.from(await reply.arrayBuffer()));
});
server.listen(Number(process.env.BACKEND_PORT || 0), '127.0.0.1', () => {
  process.stdout.write(`backend listening on http://127.0.0.1:${server.address().port}/\n`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close(() => process.exit(0)));
