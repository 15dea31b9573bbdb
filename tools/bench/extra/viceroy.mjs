// The edge's headline rows: Pulse's Fastly Native service on the pinned Viceroy, beside a bare
// Compute service (tools/bench/bare-compute: reads the whole body, answers a fixed JSON) built by
// the same Debian toolchain and release profile, optimised by the same wasm-opt and served by the
// same Viceroy, in the same alternating rounds. Four requests:
//   server/discover        the deployed service (bin/main.wasm, edge/context.mjs)
//   corpus search          the deployed service's `search_docs`
//   static tool            tools/bench/edge/static.mjs (`echo`, answered inside the core)
//   catalog-backed tool    tools/bench/edge/catalog.mjs (`echo` through the backend `origin`, a
//                          loopback node:http upstream: one more hop than the bare service makes)
// each at BENCH_VICEROY_CONNECTIONS (32) connections for throughput and at 1 connection for
// per-request latency. Viceroy runs one instance per request, as Compute does, so every row pays
// instantiation; the discover group also serves the bare service with a data segment the size of
// the deployed snapshot's, which prices the data each instantiation maps (copy-on-write, not copied).
// The bare service is built only for a selected group that serves it, and cached under
// native/target/bench by the hash of its inputs; Pulse's binaries are configured anew each run
// (Wizer, under a second).
// A fifth group prices the introspection cache: tools/bench/edge/authorized.mjs (the catalog-backed
// module behind `authorization` with `authorization.cache`, Fastly's core cache as the store) answers
// server/discover with a bearer token, beside the catalog-backed module answering it unauthorized
// (target for the warm cache: at least 0.8x). Its issuer is a loopback introspection endpoint in this
// process, reached as the backend `issuer`; every round's Viceroy is warmed with one authorized
// request first, and the row reports how many introspections the endpoint answered in the measured
// window (`introspections`: about 0 when the cache works).
// A sixth prices the rate limits: tools/bench/edge/authorized-limited.mjs (the authorized module with
// a `rateLimit` never reached, both budgets counting every call) answers the authorized tools/call
// of `echo`, beside tools/bench/edge/authorized.mjs answering the same (target: at least 0.95x).
// Viceroy's Edge Rate Limiting hostcalls never count, so this prices the core's decision and the
// hostcalls (a penalty-box lookup, an increment and a count per budget), not Fastly's counters.
// BENCH_VICEROY_ONLY=<text> runs only the groups whose name contains it (e.g. `authorized`).
// BENCH_EDGE_BEFORE=<dir> holding main.wasm, static.wasm and catalog.wasm of another build (copies of
// bin/main.wasm and the two bench modules below) serves each beside its Pulse case as `(before)`, in
// the same alternating rounds (the authorized groups have none): a change to the Native service
// measured against its predecessor.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import { freePort } from '../../qualify/lib.mjs';
import { sectionSizes } from '../edge.mjs';

const CONNECTIONS = Number(process.env.BENCH_VICEROY_CONNECTIONS ?? 32);
if (!Number.isInteger(CONNECTIONS) || CONNECTIONS < 1) throw new Error(`bench: BENCH_VICEROY_CONNECTIONS must be a positive integer, not ${process.env.BENCH_VICEROY_CONNECTIONS}`);
export const BARE = 'bare Compute service (fixed JSON)';
const UNAUTHORIZED = 'Pulse edge, catalog-backed module, no authorization';
const CACHED = 'Pulse edge, authorization, introspection cache warm';
export const RATE_LIMITED = 'Viceroy authorized tools/call catalog-backed, rate limit';
const ONLY = process.env.BENCH_VICEROY_ONLY;

const hash = (...parts) => createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 16);

/**
 * The bare service: cargo (Debian rustc, wasm32-wasi, the Native service's flags), then wasm-opt -Oz;
 * with `dataBytes`, a data segment of that size that every instantiation copies.
 */
function buildBare(root, work, dataBytes = 0) {
  const dir = join(root, 'tools', 'bench', 'bare-compute');
  const sources = ['Cargo.toml', 'Cargo.lock', 'src/main.rs'].map((f) => readFileSync(join(dir, f), 'utf8'));
  const out = join(work, `bare-${dataBytes}-${hash(...sources, readFileSync(join(root, 'native', 'edge', 'src', 'fastly.rs'), 'utf8'))}.wasm`);
  if (existsSync(out)) return out;
  const target = join(work, `bare-target-${dataBytes}`);
  const flags = ['-C', 'target-feature=+simd128', '-C', 'link-arg=-zstack-size=65536'];
  const env = { ...process.env, RUSTC: '/usr/bin/rustc', CARGO_TARGET_DIR: target, CARGO_ENCODED_RUSTFLAGS: flags.join('\x1f'), CARGO_PROFILE_RELEASE_OPT_LEVEL: 'z', BARE_DATA_BYTES: String(dataBytes) };
  delete env.RUSTFLAGS;
  const r = spawnSync('/usr/bin/cargo', ['build', '--release', '--locked', '--quiet', '--target', 'wasm32-wasi'], { cwd: dir, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bench: the bare Compute service did not build:\n${r.stderr}`);
  const wasmOpt = existsSync('/usr/bin/wasm-opt') ? '/usr/bin/wasm-opt' : join(root, 'node_modules', '.bin', 'wasm-opt');
  const o = spawnSync(wasmOpt, ['-Oz', '--enable-simd', '--strip-debug', '--strip-producers', join(target, 'wasm32-wasi', 'release', 'bare-compute.wasm'), '-o', out], { encoding: 'utf8' });
  if (o.status !== 0) throw new Error(`bench: wasm-opt failed on the bare service:\n${o.stderr}`);
  return out;
}

/**
 * A bench edge module as the Native service, built as `pulse-mcp build --wasm` builds it (the
 * package's Native service configured by Wizer); returns the binary and the module's options.
 */
async function buildModule(root, work, module) {
  const { edgeService, nativeBinary } = await import(join(root, 'scripts', 'edge-lib.mjs'));
  const service = await edgeService(join(root, module));
  const out = join(work, `${module.split('/').pop().replace(/\.mjs$/, '')}.wasm`);
  await nativeBinary(await service.config(), out);
  return { wasm: out, options: service.options };
}

/**
 * The authorized module's RFC 7662 endpoint, in this process so that it can count: an active token
 * for the module's issuer and resource on `POST /introspect`, 404 to anything else.
 */
function startIssuer({ issuer, resource }) {
  let introspections = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    // Viceroy probes its backends with `GET /` when it starts.
    if (req.method !== 'POST' || req.url !== '/introspect') return void res.writeHead(404, { 'content-length': 0 }).end();
    introspections++;
    const body = JSON.stringify({ active: true, iss: issuer, aud: resource, exp: Math.floor(Date.now() / 1000) + 600, sub: 'bench', scope: 'mcp:access', token_type: 'Bearer' });
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body));
  });
  server.keepAliveTimeout = 30_000;
  return new Promise((ready) =>
    server.listen(0, '127.0.0.1', () =>
      ready({
        port: server.address().port,
        introspections: () => introspections,
        close: () => new Promise((done) => (server.closeAllConnections(), server.close(done))),
      }),
    ),
  );
}

async function serve(root, wasm, toml) {
  const { startViceroy } = await import(join(root, 'scripts', 'viceroy.mjs'));
  const port = await freePort();
  const v = await startViceroy({ wasm, toml, addr: `127.0.0.1:${port}` });
  return { ...v, port };
}

export async function rows({ root, rounds = 1, loadTest, startServer, meta, headers, cpuMs, peakRssMiB }) {
  const deployed = join(root, 'bin', 'main.wasm');
  if (!existsSync(deployed)) throw new Error('bench: bin/main.wasm is missing (npm run edge:build)');
  const work = join(root, 'native', 'target', 'bench');
  mkdirSync(work, { recursive: true });
  // Built when a selected group serves it: a first build is a cargo build.
  let bareWasm;
  const bare = () => (bareWasm ??= buildBare(root, work));
  // The profile's first question: how much of a request is the copy of the snapshot's data.
  const snapshotBytes = sectionSizes(readFileSync(deployed)).data;
  const bareWithData = () => buildBare(root, work, snapshotBytes);
  const WITH_DATA = `bare Compute service + ${snapshotBytes} B data segment`;
  const staticWasm = (await buildModule(root, work, 'tools/bench/edge/static.mjs')).wasm;
  const catalogWasm = (await buildModule(root, work, 'tools/bench/edge/catalog.mjs')).wasm;
  const authorized = await buildModule(root, work, 'tools/bench/edge/authorized.mjs');
  const limitedWasm = (await buildModule(root, work, 'tools/bench/edge/authorized-limited.mjs')).wasm;
  const { authorization } = authorized.options;
  const upstream = await startServer(join(root, 'tools', 'bench', 'server-upstream.mjs'));
  const issuer = await startIssuer(authorization);
  const toml = join(work, `fastly-${process.pid}.toml`);
  writeFileSync(
    toml,
    `manifest_version = 3\nname = "pulse-bench"\nlanguage = "other"\n[local_server.backends.origin]\nurl = "http://127.0.0.1:${upstream.port}"\n` +
      `[local_server.backends.issuer]\nurl = "http://127.0.0.1:${issuer.port}"\n` +
      `[[local_server.secret_stores.${authorization.clientSecret.secretStore}]]\nkey = "${authorization.clientSecret.key}"\ndata = "bench-secret"\n`,
  );
  const call = (name, args) => ({
    headers: { ...headers, 'mcp-method': 'tools/call', 'mcp-name': name },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: meta } }),
  });
  const discover = { headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } }) };
  const bearer = { authorization: 'Bearer bench-token' };
  const authorizedEcho = call('echo', { text: 'hello' });
  const groups = [
    { group: 'Viceroy server/discover', pulse: 'Pulse edge (deployed service)', wasm: deployed, before: 'main', withData: true, ...discover },
    { group: 'Viceroy tools/call static', pulse: 'Pulse edge, static tool', wasm: staticWasm, before: 'static', ...call('echo', { text: 'hello' }) },
    { group: 'Viceroy tools/call corpus search', pulse: 'Pulse edge (deployed service), search_docs', wasm: deployed, before: 'main', ...call('search_docs', { query: 'deadline budget', limit: 3 }) },
    { group: 'Viceroy tools/call catalog-backed', pulse: 'Pulse edge, catalog-backed tool (one backend hop)', wasm: catalogWasm, before: 'catalog', ...call('echo', { text: 'hello' }) },
    {
      group: 'Viceroy authorized server/discover',
      ...discover,
      cases: [
        { name: UNAUTHORIZED, wasm: catalogWasm },
        { name: CACHED, wasm: authorized.wasm, headers: { ...headers, ...bearer }, baseline: UNAUTHORIZED, issuer },
      ],
    },
    {
      group: RATE_LIMITED,
      ...authorizedEcho,
      cases: [
        { name: CACHED, wasm: authorized.wasm, headers: { ...authorizedEcho.headers, ...bearer }, issuer },
        { name: `${CACHED}, rate limit never reached`, wasm: limitedWasm, headers: { ...authorizedEcho.headers, ...bearer }, baseline: CACHED, issuer },
      ],
    },
  ].filter((g) => ONLY === undefined || g.group.includes(ONLY));
  if (groups.length === 0) throw new Error(`bench: BENCH_VICEROY_ONLY=${ONLY} names no group`);
  const beforeDir = process.env.BENCH_EDGE_BEFORE ? resolve(process.env.BENCH_EDGE_BEFORE) : undefined;
  const beforeOf = (g) => {
    if (beforeDir === undefined) return [];
    const wasm = join(beforeDir, `${g.before}.wasm`);
    if (!existsSync(wasm)) throw new Error(`bench: BENCH_EDGE_BEFORE has no ${g.before}.wasm (${wasm})`);
    return [{ name: `${g.pulse} (before)`, wasm, baseline: BARE }];
  };
  const out = [];
  try {
    for (const connections of [CONNECTIONS, 1]) {
      for (const g of groups) {
        // The Pulse case is the group's first row with a baseline: the one the targets read.
        const cases = g.cases ?? [
          { name: BARE, wasm: bare },
          { name: g.pulse, wasm: g.wasm, baseline: [...(g.withData ? [BARE, WITH_DATA] : [BARE]), ...beforeOf(g).map((c) => c.name)] },
          ...(g.withData ? [{ name: WITH_DATA, wasm: bareWithData, baseline: BARE }] : []),
          ...beforeOf(g),
        ];
        const results = cases.map(() => []);
        // Alternating rounds, as the Node rows: a slow minute of the shared machine touches both.
        for (let round = 0; round < rounds; round++) {
          for (const [i, c] of cases.entries()) {
            const v = await serve(root, typeof c.wasm === 'function' ? c.wasm() : c.wasm, toml);
            try {
              const caseHeaders = c.headers ?? g.headers;
              const marks = [];
              if (c.issuer) {
                // One request warms this Viceroy's cache; it must have asked the issuer, or the
                // service is not authorizing at all.
                const before = c.issuer.introspections();
                const warm = await fetch(`http://127.0.0.1:${v.port}/mcp`, { method: 'POST', headers: caseHeaders, body: g.body });
                const text = await warm.text();
                if (warm.status !== 200 || c.issuer.introspections() !== before + 1) throw new Error(`bench: ${g.group}, ${c.name}: the warming request answered ${warm.status} after ${c.issuer.introspections() - before} introspections: ${text.slice(0, 200)}`);
              }
              // loadTest reads `cpu` just before and just after its measured load: the
              // introspection count is taken at the same two points.
              const cpu = () => (marks.push(c.issuer?.introspections()), cpuMs(v.pid));
              const r = await loadTest({ port: v.port, headers: caseHeaders, body: g.body, connections, cpu });
              if (r.non2xx || r.errors) throw new Error(`bench: ${g.group}, ${c.name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
              results[i].push({ r, rss: peakRssMiB(v.pid), introspections: c.issuer ? marks[1] - marks[0] : undefined });
            } finally {
              await v.close();
            }
          }
        }
        for (const [i, c] of cases.entries()) {
          const sorted = [...results[i]].sort((x, y) => x.r.rps - y.r.rps);
          const { r, introspections } = sorted[Math.floor(sorted.length / 2)];
          if (c.issuer) process.stdout.write(`viceroy: ${g.group}, ${connections} connection(s), ${c.name}: introspections in the measured window by round ${results[i].map((x) => `${x.introspections} of ${x.r.total} requests`).join(', ')}\n`);
          out.push({
            group: `${g.group}, ${connections} connection${connections === 1 ? '' : 's'}`,
            name: c.name,
            value: r.rps,
            unit: 'req/s',
            p50ms: r.latencyP50,
            p99ms: r.latencyP99,
            peakRssMiB: Math.max(...results[i].map((x) => x.rss ?? 0)),
            cpuUsPerReq: r.cpuUsPerReq,
            baseline: c.baseline,
            rounds: results[i].map((x) => Math.round(x.r.rps)),
            ...(c.issuer ? { introspections, introspectionsByRound: results[i].map((x) => x.introspections) } : {}),
          });
        }
      }
    }
  } finally {
    await upstream.stop();
    await issuer.close();
    rmSync(toml, { force: true });
  }
  const size = (p) => readFileSync(p).length;
  if (bareWasm !== undefined) {
    out.push(
      { group: 'Viceroy module size', name: BARE, value: size(bareWasm), unit: 'bytes' },
      { group: 'Viceroy module size', name: 'Pulse edge (deployed service)', value: size(deployed), unit: 'bytes', baseline: BARE },
    );
  }
  return out;
}
