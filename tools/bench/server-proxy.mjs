// Bench baseline for catalog-backed tools: a bare two-hop proxy on node:http. It parses the MCP
// request, POSTs the same JSON-RPC call the Pulse Node host sends to the upstream (argv[2] is its
// port) with the same client (node:http, a keep-alive agent), parses the reply and answers the
// `echo` tool's result. No validation beyond JSON. 127.0.0.1, ephemeral port printed.
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true });
const serverInfo = { 'io.modelcontextprotocol/serverInfo': { name: 'bench', version: '1.0.0' } };

function post(body) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: Number(process.argv[2]), path: '/rpc', method: 'POST', agent, headers: { 'content-type': 'application/json', accept: 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    const msg = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const reply = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: msg.params.name, params: msg.params.arguments }));
    const structuredContent = reply.result;
    const result = { resultType: 'complete', content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent, isError: false, _meta: serverInfo };
    const body = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result });
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) }).end(body);
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
