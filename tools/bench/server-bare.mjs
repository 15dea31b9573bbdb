// Bench baseline: a bare node:http server that reads the body, JSON.parses it and answers the same
// JSON the Pulse host sends (no validation beyond that): the discover result, or with argv `tools`
// the `echo` tool's result built from the parsed arguments. 127.0.0.1, ephemeral port printed.
import http from 'node:http';

const TOOLS = process.argv[2] === 'tools';
const serverInfo = { 'io.modelcontextprotocol/serverInfo': { name: 'bench', version: '1.0.0' } };
const discover = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: {},
  ttlMs: 0,
  cacheScope: 'private',
  _meta: serverInfo,
};
function echo(msg) {
  const structuredContent = { text: String(msg.params?.arguments?.text) };
  return { resultType: 'complete', content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent, isError: false, _meta: serverInfo };
}
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
    const body = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: TOOLS ? echo(msg) : discover });
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) }).end(body);
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
