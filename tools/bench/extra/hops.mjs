// Requests that leave the host: a catalog-backed tool against a bare two-hop proxy making the same
// HTTP call to the same upstream (tools/bench/server-upstream.mjs), and the authorized request
// (one RFC 7662 introspection at that upstream per request, or none with the introspection cache
// warm) against the same tool unauthorized (target for the warm cache: at least 0.8x).
// Each server in its own process; the upstream runs in a process of its own too.
import { join } from 'node:path';

export async function rows({ root, startServer, loadTest, meta, headers }) {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello' }, _meta: meta } });
  const callHeaders = { ...headers, 'mcp-method': 'tools/call', 'mcp-name': 'echo' };
  const upstream = await startServer(join(root, 'tools/bench/server-upstream.mjs'));
  const out = [];
  const measure = async (group, name, script, args, extraHeaders = {}, baseline = undefined) => {
    const srv = await startServer(join(root, script), args);
    try {
      const r = await loadTest({ port: srv.port, headers: { ...callHeaders, ...extraHeaders }, body });
      if (r.non2xx || r.errors) throw new Error(`bench: ${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      out.push({ group, name, value: r.rps, unit: 'req/s', p50ms: r.latencyP50, p99ms: r.latencyP99, peakRssMiB: srv.peakRssMiB(), baseline });
    } finally {
      await srv.stop();
    }
  };
  try {
    const hops = 'tools/call through a backend (two hops)';
    const proxy = 'bare two-hop proxy (node:http server and client)';
    await measure(hops, proxy, 'tools/bench/server-proxy.mjs', [String(upstream.port)]);
    await measure(hops, 'Pulse Node host, catalog-backed tool', 'tools/bench/server-pulse.mjs', ['catalog', String(upstream.port)], {}, proxy);
    const authz = 'tools/call catalog-backed, authorized (introspection per request)';
    const plain = 'Pulse Node host, catalog-backed tool, no authorization';
    await measure(authz, plain, 'tools/bench/server-pulse.mjs', ['authz-off', String(upstream.port)]);
    await measure(authz, 'Pulse Node host, catalog-backed tool, authorization', 'tools/bench/server-pulse.mjs', ['authz', String(upstream.port)], { authorization: 'Bearer bench-token' }, plain);
    const cached = 'Pulse Node host, catalog-backed tool, authorization, introspection cache warm';
    await measure(authz, cached, 'tools/bench/server-pulse.mjs', ['authz-cache', String(upstream.port)], { authorization: 'Bearer bench-token' }, plain);
  } finally {
    await upstream.stop();
  }
  return out;
}
