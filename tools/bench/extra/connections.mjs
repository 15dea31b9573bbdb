// 500 concurrent connections: tools/call `echo` on the bare server, the official SDK server and the
// Pulse static binding's Node listener (static tool), each in its own process; req/s, latency and the server's peak RSS.
import { join } from 'node:path';

const CONNECTIONS = 500;

export async function rows({ root, startServer, loadTest, meta, headers }) {
  const group = `tools/call echo, ${CONNECTIONS} connections`;
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello' }, _meta: meta } });
  const callHeaders = { ...headers, 'mcp-method': 'tools/call', 'mcp-name': 'echo' };
  const bare = 'bare node:http + JSON.parse';
  const sdk = 'official SDK server (@modelcontextprotocol/server)';
  const cases = [
    { name: bare, script: 'tools/bench/server-bare.mjs', args: ['tools'] },
    { name: sdk, script: 'tools/bench/server-sdk.mjs', args: [] },
    { name: 'Pulse static binding, Node listener, static tool', script: 'tools/bench/server-pulse.mjs', args: ['binding'], baseline: [sdk, bare] },
  ];
  const out = [];
  for (const c of cases) {
    const srv = await startServer(join(root, c.script), c.args);
    try {
      const r = await loadTest({ port: srv.port, headers: callHeaders, body, connections: CONNECTIONS });
      if (r.non2xx || r.errors) throw new Error(`bench: ${c.name} at ${CONNECTIONS} connections: ${r.non2xx} non-2xx, ${r.errors} errors`);
      out.push({ group, name: c.name, value: r.rps, unit: 'req/s', p50ms: r.latencyP50, p99ms: r.latencyP99, peakRssMiB: srv.peakRssMiB(), baseline: c.baseline });
    } finally {
      await srv.stop();
    }
  }
  return out;
}
