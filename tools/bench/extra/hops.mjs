// Requests that leave the host, each server in its own process and the upstream
// (tools/bench/server-upstream.mjs) in one of its own:
//   a catalog-backed tool against a bare two-hop proxy making the same HTTP call to the same upstream;
//   the authorized request (one RFC 7662 introspection at that upstream per request, or none with
//   the introspection cache warm) against the same tool unauthorized (target for the warm cache: at
//   least 0.8x);
//   the authorized request with the cache warm and a `rateLimit` never reached (../rate-limit.mjs:
//   both budgets count every request) against the same request without it (target: at least
//   0.95x), the two in ctx.rounds alternating rounds, each row its median round.
// BENCH_HOPS_ONLY=<text> runs only the groups whose name contains it (e.g. `rate limit`).
import { join } from 'node:path';

const ONLY = process.env.BENCH_HOPS_ONLY;
export const AUTHORIZED = 'tools/call catalog-backed, authorized (introspection per request)';
export const CACHED = 'Pulse Node host, catalog-backed tool, authorization, introspection cache warm';
export const RATE_LIMITED = 'tools/call catalog-backed, authorized, rate limit';
export const LIMITED = `${CACHED}, rate limit never reached`;

export async function rows({ root, rounds = 1, startServer, loadTest, meta, headers }) {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello' }, _meta: meta } });
  const callHeaders = { ...headers, 'mcp-method': 'tools/call', 'mcp-name': 'echo' };
  const bearer = { authorization: 'Bearer bench-token' };
  const hops = 'tools/call through a backend (two hops)';
  const proxy = 'bare two-hop proxy (node:http server and client)';
  const plain = 'Pulse Node host, catalog-backed tool, no authorization';
  // One list per group: its cases, each [name, script, args after the upstream's port, headers, baseline].
  const groups = [
    [hops, 1, [
      [proxy, 'tools/bench/server-proxy.mjs', [], {}],
      ['Pulse Node host, catalog-backed tool', 'tools/bench/server-pulse.mjs', ['catalog'], {}, proxy],
    ]],
    [AUTHORIZED, 1, [
      [plain, 'tools/bench/server-pulse.mjs', ['authz-off'], {}],
      ['Pulse Node host, catalog-backed tool, authorization', 'tools/bench/server-pulse.mjs', ['authz'], bearer, plain],
      [CACHED, 'tools/bench/server-pulse.mjs', ['authz-cache'], bearer, plain],
    ]],
    // A 0.95 bound is closer than one run's noise on a shared machine: alternating rounds, as the loopback rows.
    [RATE_LIMITED, rounds, [
      [CACHED, 'tools/bench/server-pulse.mjs', ['authz-cache'], bearer],
      [LIMITED, 'tools/bench/server-pulse.mjs', ['authz-cache-limited'], bearer, CACHED],
    ]],
  ].filter(([group]) => ONLY === undefined || group.includes(ONLY));
  if (groups.length === 0) throw new Error(`bench: BENCH_HOPS_ONLY=${ONLY} names no group`);
  const upstream = await startServer(join(root, 'tools/bench/server-upstream.mjs'));
  const out = [];
  try {
    for (const [group, n, cases] of groups) {
      const results = cases.map(() => []);
      for (let round = 0; round < n; round++) {
        for (const [i, [name, script, args, extraHeaders]] of cases.entries()) {
          const srv = await startServer(join(root, script), [...args, String(upstream.port)]);
          try {
            const r = await loadTest({ port: srv.port, headers: { ...callHeaders, ...extraHeaders }, body, cpu: srv.cpuMs });
            if (r.non2xx || r.errors) throw new Error(`bench: ${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
            results[i].push({ r, peakRssMiB: srv.peakRssMiB() });
          } finally {
            await srv.stop();
          }
        }
      }
      for (const [i, [name, , , , baseline]] of cases.entries()) {
        const { r } = [...results[i]].sort((x, y) => x.r.rps - y.r.rps)[Math.floor(results[i].length / 2)];
        const peakRssMiB = Math.max(...results[i].map((x) => x.peakRssMiB ?? 0));
        out.push({ group, name, value: r.rps, unit: 'req/s', p50ms: r.latencyP50, p99ms: r.latencyP99, peakRssMiB, cpuUsPerReq: r.cpuUsPerReq, baseline, rounds: results[i].map((x) => Math.round(x.r.rps)) });
      }
    }
  } finally {
    await upstream.stop();
  }
  return out;
}
