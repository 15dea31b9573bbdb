// Stand-in server for `npm run qualify -- --against-reference`: the official
// @modelcontextprotocol/server 2.4.0 behind a hand-written node:http bridge.
// It honours the same environment as the example server (HOST, PORT,
// LEGACY_PROTOCOL) so the harness drives both the same way:
//   LEGACY_PROTOCOL unset        -> modern-only  (createMcpHandler legacy:'reject')
//   LEGACY_PROTOCOL=2025-06-18   -> dual profile (createMcpHandler legacy:'stateless')
import http from 'node:http';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

const HOST = process.env.HOST || '127.0.0.1';
const PORT = Number(process.env.PORT || 3000);
const legacyEnv = process.env.LEGACY_PROTOCOL;
if (legacyEnv !== undefined && legacyEnv !== '' && legacyEnv !== '2025-06-18') {
  console.error('reference-server: LEGACY_PROTOCOL must be 2025-06-18 or unset');
  process.exit(2);
}
const legacy = legacyEnv === '2025-06-18' ? 'stateless' : 'reject';
const BODY_LIMIT = 64 * 1024;
const STREAM_LIMIT_MS = 30_000;

function factory() {
  const server = new McpServer({ name: 'reference-server', version: '2.4.0' });
  server.registerTool('echo', { description: 'Echo a string back', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text }] }));
  server.registerTool('add', {
    description: 'Add two integers',
    inputSchema: z.object({ a: z.number().int(), b: z.number().int() }),
    outputSchema: z.object({ sum: z.number().int() }),
  }, async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }));
  return server;
}

const handler = createMcpHandler(factory, { legacy, onerror: () => {} });

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url, `http://${HOST}:${PORT}`);
    if (url.pathname !== '/mcp') { res.writeHead(404).end(); return; }
    const chunks = []; let size = 0;
    for await (const c of req) {
      size += c.length;
      if (size > BODY_LIMIT) { res.writeHead(413).end(); req.destroy(); return; }
      chunks.push(c);
    }
    const ac = new AbortController();
    res.on('close', () => ac.abort());
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      for (const x of Array.isArray(v) ? v : [v]) if (x !== undefined) headers.append(k, x);
    }
    const hasBody = !['GET', 'HEAD'].includes(req.method);
    const resp = await handler.fetch(new Request(url, {
      method: req.method, headers, body: hasBody ? Buffer.concat(chunks) : undefined, signal: ac.signal,
    }));
    res.writeHead(resp.status, Object.fromEntries(resp.headers.entries()));
    if (resp.body) {
      // SSE streams (subscriptions/listen) stay open until the client leaves; cap them anyway.
      const timer = setTimeout(() => ac.abort(), STREAM_LIMIT_MS);
      try {
        const reader = resp.body.getReader();
        for (;;) { const { value, done } = await reader.read(); if (done) break; res.write(value); }
      } catch { /* client went away */ } finally { clearTimeout(timer); }
    }
    res.end();
  } catch {
    if (!res.headersSent) res.writeHead(500);
    res.end();
  }
});
server.listen(PORT, HOST, () => console.log(`reference-server (${legacy === 'reject' ? 'modern-only' : 'dual'}) on http://${HOST}:${PORT}/mcp`));
const stop = () => { server.close(); handler.close?.(); server.closeAllConnections?.(); process.exit(0); };
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
