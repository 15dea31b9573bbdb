// One cold start, run as its own process by tools/bench/extra/cold.mjs: load the library, build a
// handler with one `echo` tool, answer one tools/call through its Fetch handler, and print the
// milliseconds from this file's first line to the reply (Node's own start-up is not counted).
// argv[2]: `pulse` (the built package, dist/cjs) or `sdk` (@modelcontextprotocol/server 2.4.0).
const t0 = performance.now();
const which = process.argv[2];
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
};
const request = () =>
  new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: META, name: 'echo', arguments: { text: 'hi' } } }),
  });
let handler;
if (which === 'pulse') {
  const { createRequire } = await import('node:module');
  const require = createRequire(import.meta.url);
  const { EntityRouter, codec, mcp } = require('../../dist/cjs/pulse.js');
  const router = new EntityRouter('bench').operation('echo', {
    description: 'Echo',
    input: codec.object({ text: codec.string({ maxLength: 64 }) }),
    output: codec.object({ text: codec.string() }),
    handler: (_ctx, { text }) => ({ text }),
  });
  const server = mcp({ router, serverInfo: { name: 'bench', version: '1.0.0' } });
  handler = { fetch: (request) => server.handle({ request }) };
} else {
  const { McpServer, createMcpHandler } = await import('@modelcontextprotocol/server');
  const z = await import('zod/v4');
  handler = createMcpHandler(() => {
    const server = new McpServer({ name: 'bench', version: '1.0.0' });
    server.registerTool('echo', { description: 'Echo', inputSchema: z.object({ text: z.string().max(64) }), outputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
      content: [{ type: 'text', text: JSON.stringify({ text }) }],
      structuredContent: { text },
    }));
    return server;
  }, { legacy: 'reject' });
}
const res = await handler.fetch(request());
const text = await res.text();
if (res.status !== 200 || !text.includes('"text":"hi"')) throw new Error(`cold start ${which}: ${res.status} ${text.slice(0, 200)}`);
process.stdout.write(`${(performance.now() - t0).toFixed(2)}\n`);
