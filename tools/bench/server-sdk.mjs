// Bench server: the official SDK (@modelcontextprotocol/server 2.4.0, 2026-07-28 only) serving the
// `echo` tool through its web-standard handler and a minimal node:http bridge (the SDK's own recipe,
// without its logging). 127.0.0.1, ephemeral port printed.
import http from 'node:http';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

// The SDK builds one server per HTTP request (its stateless 2026 mode); so does this factory.
function factory() {
  const server = new McpServer({ name: 'bench', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echo', inputSchema: z.object({ text: z.string().max(64) }), outputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text: JSON.stringify({ text }) }], structuredContent: { text } }),
  );
  return server;
}
const handler = createMcpHandler(factory, { legacy: 'reject' });

const server = http.createServer(async (req, res) => {
  try {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const headers = new Headers();
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
    const ac = new AbortController();
    res.on('close', () => ac.abort());
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const resp = await handler.fetch(
      new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body: hasBody ? Buffer.concat(chunks) : undefined, signal: ac.signal }),
    );
    const body = Buffer.from(await resp.arrayBuffer());
    const out = [];
    resp.headers.forEach((v, k) => out.push(k, v));
    if (!resp.headers.has('content-length')) out.push('content-length', String(body.length));
    res.writeHead(resp.status, out).end(body);
  } catch {
    if (!res.headersSent) res.writeHead(500).end();
    else res.destroy();
  }
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
