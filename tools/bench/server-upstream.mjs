// Bench upstream: what the Pulse host calls out to, as cheaply as node:http can answer. `POST /rpc`
// answers the JSON-RPC `echo` result (a governed backend), `POST /introspect` an active token's
// claims for RESOURCE and ISSUER (an RFC 7662 endpoint). 127.0.0.1, ephemeral port printed.
import http from 'node:http';

export const RESOURCE = 'http://127.0.0.1:1/mcp';
const server = http.createServer((req, res) => {
  // Viceroy probes its backends with `GET /` when it starts.
  if (req.method !== 'POST') return void res.writeHead(404, { 'content-length': 0 }).end();
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    let body;
    if (req.url === '/introspect') {
      const issuer = `http://127.0.0.1:${server.address().port}`;
      body = JSON.stringify({ active: true, iss: issuer, aud: RESOURCE, exp: Math.floor(Date.now() / 1000) + 600, sub: 'bench', scope: 'mcp:access', token_type: 'Bearer' });
    } else {
      const msg = JSON.parse(text);
      body = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { text: String(msg.params?.text) } });
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
