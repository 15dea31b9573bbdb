#!/usr/bin/env node
// `npm run bench` (not a test): measures in one run on this machine
//   1. core validation throughput (MB/s) on 1 KiB and 64 KiB request bodies, fed through the loaded
//      wasm engine over its C ABI (head, body, end), beside JSON.parse on the same text (and wasm2js);
//   2. server/discover requests/s over loopback (autocannon, 127.0.0.1, fixed duration) for the Node
//      host beside a bare node:http server that parses and answers the same JSON;
//   3. tools/call requests/s of a trivial `echo` tool for the static binding's Node listener (static
//      result and JavaScript handler), the official SDK server (@modelcontextprotocol/server, zod
//      tool) and the bare server answering the same result bytes.
// 2 and 3 run at each of BENCH_CONNECTIONS (10,32) concurrent connections, one group per count.
// Every load test follows BENCH_WARMUP_SEC (2) seconds of the same load, not counted, and reports
// requests/s, p50/p99 latency and the server process's peak RSS (VmHWM); the cases of 2 and 3 run in
// BENCH_ROUNDS (3) alternating rounds and report their median round.
// Prints a markdown table with ratios and saves .test-results/bench.json. Extra rows: tools/bench/extra/.
// Needs the built package (npm run build; PULSE_DIST=<dir> benches another build of dist/cjs, and
// BENCH_BEFORE=<dir> benches one beside it in the same rounds).
// Every server is a child process stopped by its PID.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { GROUP as COLD_GROUP, LISTENER as COLD_LISTENER, NODE_HOST as COLD_NODE_HOST } from './extra/cold.mjs';
import { AUTHORIZED, CACHED, LIMITED, RATE_LIMITED } from './extra/hops.mjs';
import { RATE_LIMITED as VICEROY_RATE_LIMITED } from './extra/viceroy.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DURATION = Number(process.env.BENCH_DURATION_SEC ?? 5);
/**
 * Load before every measured load test, not counted: each server is a fresh process, and its JIT
 * (for Pulse also the tier-up of the core's wasm, on background threads that share the 2 cores)
 * would otherwise be measured as per-request cost. Steady state is what the ratios compare.
 */
const WARMUP = Number(process.env.BENCH_WARMUP_SEC ?? 2);
if (!(WARMUP >= 0)) throw new Error(`bench: BENCH_WARMUP_SEC must be a non-negative number, not ${process.env.BENCH_WARMUP_SEC}`);
/** Connection counts of the loopback server cases; the first is also what extra/ files load with. */
const COUNTS = String(process.env.BENCH_CONNECTIONS ?? '10,32').split(',').map(Number);
if (!COUNTS.every((n) => Number.isInteger(n) && n > 0)) throw new Error(`bench: BENCH_CONNECTIONS must be positive integers separated by commas, not ${process.env.BENCH_CONNECTIONS}`);
const CONNECTIONS = COUNTS[0];
/** Alternating rounds of the loopback server cases; each row is the median round. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error(`bench: BENCH_ROUNDS must be a positive integer, not ${process.env.BENCH_ROUNDS}`);
const MIN_SAMPLE_MS = Number(process.env.BENCH_SAMPLE_MS ?? 1500);
const PROTOCOL = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': PROTOCOL,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
};
const HEADERS = {
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
  'mcp-protocol-version': PROTOCOL,
  'mcp-method': 'server/discover',
};
const enc = new TextEncoder();

// ── core validation throughput ──

/** A discover request of exactly `size` bytes whose bulk is realistic JSON inside `_meta`. */
function bodyOfSize(size) {
  const item = (i) => ({ id: i, name: `item-${i}`, tags: ['a', 'b\u00e9'], score: i * 1.25, ok: i % 2 === 0, note: null });
  const build = (items, pad) =>
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: { ...META, 'org.example/bulk': { items, pad } } } });
  const items = [];
  while (Buffer.byteLength(build([...items, item(items.length)], '')) < size - 16) items.push(item(items.length));
  const base = Buffer.byteLength(build(items, ''));
  const text = build(items, 'x'.repeat(Math.max(0, size - base)));
  if (Buffer.byteLength(text) !== size) throw new Error(`bench body is ${Buffer.byteLength(text)} bytes, wanted ${size}`);
  return text;
}

function coreConfig() {
  // docs/contracts.md#engine-configuration
  return JSON.stringify({
    path: '/mcp',
    allowedOrigins: [],
    serverInfo: { name: 'bench', version: '1.0.0' },
    limits: { requestBytes: 65536, responseBytes: 1048576, depth: 32, deadlineMs: 10000, toolResultBytes: 1048576 },
    legacyProtocol: null,
    tools: null,
  });
}

async function loadCores() {
  const bytes = readFileSync(join(ROOT, 'wasm', 'pulse_core.wasm'));
  const wasm = new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports;
  // wasm/pulse_core.wasm2js.js is ESM text under a CommonJS package; the built factory wraps the same code.
  const { createCoreWasm2js } = createRequire(import.meta.url)(join(ROOT, 'dist', 'cjs', 'core', 'generated', 'core-wasm2js.cjs'));
  const wasm2js = typeof createCoreWasm2js === 'function' ? createCoreWasm2js() : undefined;
  return { wasm, wasm2js };
}

function input(core, bytes, call) {
  const ptr = core.pulse_alloc(bytes.length) >>> 0;
  new Uint8Array(core.memory.buffer, ptr, bytes.length).set(bytes);
  const r = call(ptr, bytes.length) >>> 0;
  core.pulse_dealloc(ptr, bytes.length);
  return r;
}

/** One request through the core: head, the body in one chunk, end. Returns the status line. */
function makeValidator(core) {
  const cfg = enc.encode(coreConfig());
  const engine = input(core, cfg, (p, l) => core.pulse_engine_new(p, l));
  if (engine === 0) throw new Error('bench: the core rejected the configuration');
  const head = enc.encode(`POST /mcp\r\n${Object.entries(HEADERS).map(([k, v]) => `${k}: ${v}\r\n`).join('')}`);
  return (body) => {
    const req = core.pulse_request_new(engine, 0, Date.now()) >>> 0;
    let code = input(core, head, (p, l) => core.pulse_request_head(req, p, l, 1));
    if (code === 0) code = input(core, body, (p, l) => core.pulse_request_body(req, p, l, 2));
    if (code === 0) code = core.pulse_request_end(req, 3) >>> 0;
    const ptr = core.pulse_output_ptr(req) >>> 0;
    const status = String.fromCharCode(...new Uint8Array(core.memory.buffer, ptr, 3));
    core.pulse_request_free(req);
    return status;
  };
}

/** Runs `fn` repeatedly for at least MIN_SAMPLE_MS (after a warm-up); returns MB/s over `bytes` per call. */
function throughput(fn, bytes) {
  const warm = performance.now() + 200;
  while (performance.now() < warm) fn();
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < MIN_SAMPLE_MS) {
    for (let i = 0; i < 16; i++) fn();
    n += 16;
    t = performance.now();
  }
  return (bytes * n) / ((t - t0) / 1000) / 1e6;
}

async function coreRows() {
  const { wasm, wasm2js } = await loadCores();
  const rows = [];
  const validators = [['wasm', makeValidator(wasm)]];
  if (wasm2js) validators.push(['wasm2js', makeValidator(wasm2js)]);
  const dec = new TextDecoder();
  for (const size of [1024, 65536]) {
    const text = bodyOfSize(size);
    const bytes = enc.encode(text);
    const group = `validate ${size === 1024 ? '1 KiB' : '64 KiB'} body`;
    for (const [name, validate] of validators) {
      const status = validate(bytes);
      if (status !== '200') throw new Error(`bench: the core answered ${status} to the ${size}-byte body`);
      rows.push({ group, name: `core (${name}), head+body+end`, value: throughput(() => validate(bytes), size), unit: 'MB/s', baseline: 'JSON.parse(string)' });
    }
    rows.push({ group, name: 'JSON.parse(string)', value: throughput(() => JSON.parse(text), size), unit: 'MB/s' });
    rows.push({ group, name: 'JSON.parse(TextDecoder(bytes))', value: throughput(() => JSON.parse(dec.decode(bytes)), size), unit: 'MB/s', baseline: 'JSON.parse(string)' });
  }
  return rows;
}

// ── loopback requests/s ──

/** Peak resident set of a live process in MiB (Linux /proc); undefined elsewhere. */
function peakRssMiB(pid) {
  try {
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kb ? Number(kb[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) a live process has used, in ms (Linux /proc; clock ticks of 10 ms). */
function cpuMs(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return undefined;
  }
}

function startServer(script, args = [], env = {}) {
  return new Promise((resolvePort, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`bench: ${script} did not start`));
    }, 10_000);
    child.once('exit', (code) => reject(new Error(`bench: ${script} exited with ${code}`)));
    child.stdout.once('data', (d) => {
      clearTimeout(timer);
      const port = Number(String(d).trim());
      resolvePort({
        port,
        pid: child.pid,
        peakRssMiB: () => peakRssMiB(child.pid),
        cpuMs: () => cpuMs(child.pid),
        stop: () =>
          new Promise((r) => {
            child.removeAllListeners('exit');
            child.once('exit', r);
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 3000).unref();
          }),
      });
    });
  });
}

/**
 * One load test of `port` after WARMUP seconds of the same load; `cpu` (the server's CPU ms so far),
 * when given, is read around the measured part only and gives `cpuUsPerReq`.
 */
async function loadTest({ port, method = 'POST', path = '/mcp', headers = HEADERS, body, connections = CONNECTIONS, cpu }) {
  // One probe first: a benchmark of error replies would be meaningless.
  const probe = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers, body });
  const text = await probe.text();
  if (probe.status !== 200) throw new Error(`bench: probe answered ${probe.status}: ${text.slice(0, 200)}`);
  const load = (duration) => autocannon({ url: `http://127.0.0.1:${port}${path}`, method, headers, body, connections, duration, pipelining: 1 });
  if (WARMUP > 0) await load(WARMUP);
  const cpu0 = cpu?.();
  const r = await load(DURATION);
  const cpu1 = cpu?.();
  const cpuUsPerReq = cpu0 === undefined || cpu1 === undefined || !r.requests.total ? undefined : ((cpu1 - cpu0) * 1000) / r.requests.total;
  return { rps: r.requests.average, total: r.requests.total, latencyP50: r.latency.p50, latencyP99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts, cpuUsPerReq };
}

/**
 * One server per case, each in its own process; peak RSS is read just before it is stopped. The
 * cases run in alternating rounds (all cases, then all again), so a slow minute of the shared
 * machine touches every case alike, and each row is its median round by req/s.
 */
async function serverRows(group, cases, connections) {
  const all = withBefore(cases);
  const rounds = all.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, { name, script, args, env, headers, body }] of all.entries()) {
      const srv = await startServer(join(ROOT, script), args, env);
      try {
        const r = await loadTest({ port: srv.port, headers, body, connections, cpu: srv.cpuMs });
        if (r.non2xx || r.errors) throw new Error(`bench: ${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
        rounds[i].push({ r, peakRssMiB: srv.peakRssMiB() });
      } finally {
        await srv.stop();
      }
    }
  }
  return all.map(({ name, baseline }, i) => {
    const sorted = [...rounds[i]].sort((x, y) => x.r.rps - y.r.rps);
    const { r } = sorted[Math.floor(sorted.length / 2)];
    const cpus = rounds[i].map((x) => x.r.cpuUsPerReq).filter((x) => x !== undefined).sort((x, y) => x - y);
    const peakRssMiB = Math.max(...rounds[i].map((x) => x.peakRssMiB ?? 0));
    // CPU per request: the median of its rounds too.
    const cpu = cpus.length === 0 ? undefined : cpus[Math.floor(cpus.length / 2)];
    return { group, name, value: r.rps, unit: 'req/s', p50ms: r.latencyP50, p99ms: r.latencyP99, peakRssMiB, cpuUsPerReq: cpu, baseline, rounds: rounds[i].map((x) => Math.round(x.r.rps)) };
  });
}

/**
 * With BENCH_BEFORE=<dist/cjs of another build>, every Pulse case also runs that build in the same
 * alternating rounds, as `<case> (before)`, and the case's ratios include it: a change measured
 * against its predecessor in one run.
 */
const BEFORE = process.env.BENCH_BEFORE ? resolve(process.env.BENCH_BEFORE) : undefined;
function withBefore(cases) {
  if (BEFORE === undefined) return cases;
  return cases.flatMap((c) =>
    c.name.startsWith('Pulse')
      ? [
          { ...c, name: `${c.name} (before)`, env: { PULSE_DIST: BEFORE } },
          { ...c, baseline: [c.baseline ?? [], `${c.name} (before)`].flat() },
        ]
      : [c],
  );
}

const BARE = 'bare node:http + JSON.parse';
/** The static binding's Node listener, `mcp({ router, serverInfo }).nodeListener()`. */
const STATIC_LISTENER = 'Pulse static binding, Node listener';

const SDK = 'official SDK server (@modelcontextprotocol/server)';
const DISCOVER = 'server/discover over loopback';
const TOOLS = 'tools/call echo over loopback';
/** The group of a loopback case list at one connection count. */
const at = (group, connections) => `${group}, ${connections} connections`;

/** The loopback server cases, one list per group; each runs at every count of COUNTS. */
function loopbackCases() {
  const discover = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } });
  const call = (name) => ({
    headers: { ...HEADERS, 'mcp-method': 'tools/call', 'mcp-name': name },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: { text: 'hello' }, _meta: META } }),
  });
  return [
    [DISCOVER, [
      { name: BARE, script: 'tools/bench/server-bare.mjs', body: discover },
      { name: 'Pulse Node host', script: 'tools/bench/server-pulse.mjs', body: discover, baseline: BARE },
      { name: STATIC_LISTENER, script: 'tools/bench/server-pulse.mjs', args: ['binding'], body: discover, baseline: ['Pulse Node host', BARE] },
    ]],
    [TOOLS, [
      { name: BARE, script: 'tools/bench/server-bare.mjs', args: ['tools'], ...call('echo') },
      { name: SDK, script: 'tools/bench/server-sdk.mjs', ...call('echo') },
      { name: `${STATIC_LISTENER}, static tool`, script: 'tools/bench/server-pulse.mjs', args: ['binding'], ...call('echo'), baseline: [SDK, BARE] },
      { name: `${STATIC_LISTENER}, JavaScript tool`, script: 'tools/bench/server-pulse.mjs', args: ['binding'], ...call('echo_js'), baseline: [SDK, BARE] },
    ]],
  ];
}

async function loopbackRows() {
  const rows = [];
  for (const connections of COUNTS) for (const [group, cases] of loopbackCases()) rows.push(...(await serverRows(at(group, connections), cases, connections)));
  return rows;
}

async function extraRows(ctx, only) {
  const dir = join(ROOT, 'tools', 'bench', 'extra');
  let files = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.mjs') && (only === undefined || f === `${only}.mjs`)).sort();
  } catch {
    return [];
  }
  const rows = [];
  for (const f of files) {
    const mod = await import(pathToFileURL(join(dir, f)).href);
    if (typeof mod.rows === 'function') rows.push(...(await mod.rows(ctx)));
  }
  return rows;
}

/** Sets `ratios` (baseline name → value ratio) and `ratio` (first baseline) on every row with a baseline. */
function addRatios(rows) {
  for (const r of rows) {
    const names = r.baseline === undefined ? [] : [r.baseline].flat();
    r.ratios = {};
    for (const name of names) {
      const base = rows.find((b) => b.group === r.group && b.name === name);
      if (base) r.ratios[name] = r.value / base.value;
    }
    r.ratio = r.ratios[names[0]];
  }
}

function table(rows) {
  const fmt = (v) => (v === undefined ? '' : v >= 100 ? v.toFixed(0) : v.toFixed(1));
  const pct = (x) => (x >= 2 ? `${x.toFixed(1)}×` : `${(x * 100).toFixed(0)}%`);
  const lines = ['| measurement | what | value | p50 / p99 ms | peak RSS MiB | server CPU µs/req | ratio |', '| --- | --- | ---: | ---: | ---: | ---: | ---: |'];
  for (const r of rows) {
    const lat = r.p50ms === undefined ? '' : `${r.p50ms} / ${r.p99ms ?? ''}`;
    const ratio = Object.entries(r.ratios ?? {}).map(([n, x]) => `${pct(x)} of ${n}`).join('; ');
    lines.push(`| ${r.group} | ${r.name} | ${fmt(r.value)} ${r.unit} | ${lat} | ${fmt(r.peakRssMiB)} | ${fmt(r.cpuUsPerReq)} | ${ratio} |`);
  }
  return lines.join('\n');
}

const started = new Date();
// "servers" while tuning the Node host, or the name of one file of extra/ (viceroy, hops, telemetry…)
// for its rows alone; the saved file says so
const only = process.env.BENCH_ONLY;
const EXTRA_ONLY = readdirSync(join(ROOT, 'tools', 'bench', 'extra')).filter((f) => f.endsWith('.mjs')).map((f) => f.slice(0, -4));
if (only !== undefined && only !== 'servers' && !EXTRA_ONLY.includes(only)) throw new Error(`bench: BENCH_ONLY must be servers or one of ${EXTRA_ONLY.join(', ')}, not ${only}`);
const ctx = { durationSec: DURATION, connections: CONNECTIONS, rounds: ROUNDS, startServer, loadTest, cpuMs, peakRssMiB, root: ROOT, meta: META, headers: HEADERS };
const rows = only === undefined ? await coreRows() : [];
if (only === undefined || only === 'servers') rows.push(...(await loopbackRows()));
if (only !== 'servers') rows.push(...(await extraRows(ctx, only)));
addRatios(rows);
const md = table(rows);
process.stdout.write(`\nPulse MCP benchmark (${started.toISOString()}, node ${process.version}, ${DURATION} s per load test after ${WARMUP} s of warm-up load, ${COUNTS.join(' and ')} connections, loopback servers: median of ${ROUNDS} alternating rounds)\n\n${md}\n`);
// The targets, one row each: what is measured, the bound, and whether it is a floor or a ceiling.
const row = (name, group) => rows.find((r) => r.name === name && (group === undefined || r.group === group));
const viceroyRatio = (group) => rows.find((r) => r.group.startsWith(`${group}, `) && !r.group.endsWith(' 1 connection') && r.baseline !== undefined)?.ratio;
const [D10, T10, D32, T32] = [at(DISCOVER, 10), at(TOOLS, 10), at(DISCOVER, 32), at(TOOLS, 32)];
const cpuRatio = (name, group) => (row(name, group)?.cpuUsPerReq && row(BARE, group)?.cpuUsPerReq ? row(name, group).cpuUsPerReq / row(BARE, group).cpuUsPerReq : undefined);
/** Cold start on one Node line (20, 22, 24): a Pulse case's time × the bare server's, same line. */
const coldRatio = (line, name) => rows.find((r) => r.group.startsWith(`${COLD_GROUP}, Node v${line}.`) && r.name === name)?.ratio;
const targets = {
  'core on a 64 KiB body (MB/s)': { bound: 300, floor: true, measured: rows.find((r) => r.group === 'validate 64 KiB body' && r.name.startsWith('core (wasm)'))?.value },
  'server/discover, × bare req/s (10 connections)': { bound: 0.8, floor: true, measured: row('Pulse Node host', D10)?.ratio },
  'server/discover, × bare CPU per request (10 connections)': { bound: 1.3, floor: false, measured: cpuRatio('Pulse Node host', D10) },
  'server/discover, static binding Node listener × Node host req/s (10 connections)': { bound: 0.95, floor: true, measured: row(STATIC_LISTENER, D10)?.ratios['Pulse Node host'] },
  'tools/call static, × bare req/s (10 connections)': { bound: 0.75, floor: true, measured: row(`${STATIC_LISTENER}, static tool`, T10)?.ratios[BARE] },
  'tools/call JavaScript, × bare req/s (10 connections)': { bound: 0.6, floor: true, measured: row(`${STATIC_LISTENER}, JavaScript tool`, T10)?.ratios[BARE] },
  'tools/call static, × official SDK req/s (10 connections)': { bound: 5, floor: true, measured: row(`${STATIC_LISTENER}, static tool`, T10)?.ratios[SDK] },
  'server/discover, × bare req/s (32 connections)': { bound: 0.8, floor: true, measured: row('Pulse Node host', D32)?.ratio },
  'tools/call static, × bare req/s (32 connections)': { bound: 0.75, floor: true, measured: row(`${STATIC_LISTENER}, static tool`, T32)?.ratios[BARE] },
  'tools/call JavaScript, × bare req/s (32 connections)': { bound: 0.6, floor: true, measured: row(`${STATIC_LISTENER}, JavaScript tool`, T32)?.ratios[BARE] },
  ...Object.fromEntries(
    ['20', '22', '24'].flatMap((line) => [
      [`cold start to first tools/call, Node host × bare node:http (Node ${line})`, { bound: 1.3, floor: false, measured: coldRatio(line, COLD_NODE_HOST) }],
      [`cold start to first tools/call, static binding listener × bare node:http (Node ${line})`, { bound: 1.3, floor: false, measured: coldRatio(line, COLD_LISTENER) }],
    ]),
  ),
  'catalog-backed tool, × bare two-hop proxy req/s': { bound: 0.5, floor: true, measured: row('Pulse Node host, catalog-backed tool', 'tools/call through a backend (two hops)')?.ratio },
  'request event, nothing subscribed, × no telemetry µs/request': { bound: 1.03, floor: false, measured: row('nothing subscribed')?.ratio },
  'request event, a subscriber, × no telemetry µs/request': { bound: 1.1, floor: false, measured: row('no-op subscriber')?.ratio },
  'Viceroy authorized, introspection cache warm, × unauthorized req/s (32 connections)': { bound: 0.8, floor: true, measured: viceroyRatio('Viceroy authorized server/discover') },
  'authorized, introspection cache warm, × unauthorized req/s': { bound: 0.8, floor: true, measured: row(CACHED, AUTHORIZED)?.ratio },
  'authorized with a rate limit, × without req/s': { bound: 0.95, floor: true, measured: row(LIMITED, RATE_LIMITED)?.ratio },
  'Viceroy authorized with a rate limit, × without req/s (32 connections)': { bound: 0.95, floor: true, measured: viceroyRatio(VICEROY_RATE_LIMITED) },
  'edge Native main.wasm (bytes)': { bound: 300_000, floor: false, measured: row('Native main.wasm size')?.value },
  'Viceroy server/discover, × bare Compute req/s (32 connections)': { bound: 0.8, floor: true, measured: viceroyRatio('Viceroy server/discover') },
  'Viceroy static tool, × bare Compute req/s (32 connections)': { bound: 0.8, floor: true, measured: viceroyRatio('Viceroy tools/call static') },
  'core per request, 32 KiB body, native (µs)': { bound: 100, floor: false, measured: row('head + body + end + reply')?.value },
};
const shown = (x) => (x === undefined ? 'n/a' : x >= 10 ? x.toFixed(0) : x.toFixed(2));
process.stdout.write(
  `\n| target | bound | measured | met |\n| --- | ---: | ---: | --- |\n${Object.entries(targets)
    .map(([k, t]) => `| ${k} | ${t.floor ? '≥' : '≤'} ${t.bound} | ${shown(t.measured)} | ${t.measured === undefined ? 'n/a' : (t.floor ? t.measured >= t.bound : t.measured <= t.bound) ? 'yes' : 'no'} |`)
    .join('\n')}\n`,
);
mkdirSync(join(ROOT, '.test-results'), { recursive: true });
writeFileSync(join(ROOT, '.test-results', only ? `bench-${only}.json` : 'bench.json'), JSON.stringify({ date: started.toISOString(), node: process.version, only, before: BEFORE, durationSec: DURATION, connections: COUNTS, rounds: ROUNDS, rows, targets, markdown: md }, null, 2) + '\n');
