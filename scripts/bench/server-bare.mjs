// Bench baseline: a bare node:http server that reads the body, JSON.parses it and answers the same
// discover JSON the adapter sends (no validation beyond that). 127.0.0.1, ephemeral port printed.
import http from 'node:http';

const result = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: {},
  ttlMs: 0,
  cacheScope: 'private',
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'bench', version: '1.0.0' } },
};
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let msg;
    try {
      msg = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(400, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end('{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}');
      return;
    }
    const body = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result });
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) }).end(body);
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
