#!/usr/bin/env node
// Edge rows for `npm run bench`: the Fastly Native service (bin/main.wasm) and, when built, the
// Fastly JavaScript package (bin/js/main.wasm), both in the Node Native host on 127.0.0.1:
//   size       bytes of main.wasm, and of its code and data sections
//   cold       compile (main thread), first instantiation, first server/discover response
//   instance   instantiation alone (median of many, the per-request cost of one instance per request)
//   warm       server/discover requests/s (autocannon, fixed duration)
// Run directly it prints JSON; `rows(ctx)` returns rows for tools/bench/run.mjs (see bench/extra/README.md).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startHost } from '../../src/cli/compute-host/host.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TOML = join(ROOT, 'fastly.toml');
const PROTOCOL = '2026-07-28';
const HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': PROTOCOL, 'mcp-method': 'server/discover' };
const BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'server/discover',
  params: { _meta: { 'io.modelcontextprotocol/protocolVersion': PROTOCOL, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' } } },
});

function instantiateMedian(bytes, n) {
  const module = new WebAssembly.Module(bytes);
  const imports = {};
  for (const i of WebAssembly.Module.imports(module)) (imports[i.module] ??= {})[i.name] = () => 0;
  const times = [];
  for (let k = 0; k < n; k++) {
    const t = performance.now();
    new WebAssembly.Instance(module, imports);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(n / 2)];
}

/** Bytes of the code and data sections (the data is what every instantiation copies). */
export function sectionSizes(bytes) {
  const sizes = { code: 0, data: 0 };
  let at = 8;
  const leb = () => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const b = bytes[at++];
      value += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return value;
    }
  };
  while (at < bytes.length) {
    const id = bytes[at++];
    const size = leb();
    if (id === 10) sizes.code = size;
    if (id === 11) sizes.data = size;
    at += size;
  }
  return sizes;
}

async function measure(wasmPath, { durationSec, connections }) {
  const bytes = readFileSync(wasmPath);
  const t0 = performance.now();
  const host = await startHost({ wasm: wasmPath, toml: TOML, addr: '127.0.0.1:0', workers: 2 });
  const started = performance.now();
  try {
    const res = await fetch(`${host.url}/mcp`, { method: 'POST', headers: HEADERS, body: BODY });
    const ok = res.status === 200 && (await res.json()).result?.resultType === 'complete';
    const first = performance.now();
    if (!ok) throw new Error(`${wasmPath}: first server/discover did not answer 200 complete`);
    const r = await autocannon({ url: `${host.url}/mcp`, method: 'POST', headers: HEADERS, body: BODY, connections, duration: durationSec });
    return {
      file: wasmPath.replace(ROOT + '/', ''),
      bytes: bytes.length,
      ...(() => {
        const { code, data } = sectionSizes(bytes);
        return { codeBytes: code, dataBytes: data };
      })(),
      compileMs: +host.compileMs.toFixed(2),
      hostStartMs: +(started - t0).toFixed(1),
      firstInstantiatedMs: host.firstInstantiated ? +(host.firstInstantiated - started).toFixed(1) : null,
      firstResponseMs: +(first - started).toFixed(1),
      instantiateMedianMs: +instantiateMedian(bytes, wasmPath.includes('/js/') ? 5 : 50).toFixed(3),
      warmRps: Math.round(r.requests.average),
      warmP50Ms: r.latency.p50,
      non2xx: r.non2xx,
      errors: r.errors + r.timeouts,
    };
  } finally {
    await host.close();
  }
}

export async function measureEdge(opts = {}) {
  const o = { durationSec: Number(process.env.BENCH_DURATION_SEC ?? 5), connections: Number(String(process.env.BENCH_CONNECTIONS ?? 10).split(',')[0]), ...opts };
  const out = { native: null, js: null, pkgBytes: null };
  const native = join(ROOT, 'bin', 'main.wasm');
  const js = join(ROOT, 'bin', 'js', 'main.wasm');
  if (!existsSync(native)) throw new Error('bin/main.wasm is missing: run npm run edge:build');
  out.native = await measure(native, o);
  if (existsSync(js)) out.js = await measure(js, o);
  const pkg = join(ROOT, 'pkg', 'pulse-mcp-edge.tar.gz');
  if (existsSync(pkg)) out.pkgBytes = statSync(pkg).size;
  return out;
}

/** Rows for tools/bench/run.mjs. */
export async function rows(ctx) {
  // Without a built service there is nothing to measure (npm run edge:build makes bin/main.wasm).
  if (!existsSync(join(ROOT, 'bin', 'main.wasm'))) return [];
  const m = await measureEdge({ durationSec: ctx.durationSec, connections: ctx.connections });
  const r = [
    { group: 'edge', name: 'Native main.wasm size', value: m.native.bytes, unit: 'bytes' },
    { group: 'edge', name: 'Native main.wasm code section', value: m.native.codeBytes, unit: 'bytes' },
    { group: 'edge', name: 'Native main.wasm data section (copied per instance)', value: m.native.dataBytes, unit: 'bytes' },
    { group: 'edge', name: 'Native cold: compile', value: m.native.compileMs, unit: 'ms' },
    { group: 'edge', name: 'Native cold: first response', value: m.native.firstResponseMs, unit: 'ms' },
    { group: 'edge', name: 'Native instantiate (per request)', value: m.native.instantiateMedianMs, unit: 'ms' },
    { group: 'edge server/discover', name: 'Native (Node Native host)', value: m.native.warmRps, unit: 'req/s' },
  ];
  if (m.js) {
    r.push(
      { group: 'edge', name: 'JS package main.wasm size', value: m.js.bytes, unit: 'bytes' },
      { group: 'edge', name: 'JS package cold: first response', value: m.js.firstResponseMs, unit: 'ms' },
      { group: 'edge server/discover', name: 'JS package (Node Native host)', value: m.js.warmRps, unit: 'req/s', baseline: 'Native (Node Native host)' },
    );
  }
  return r;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  measureEdge().then(
    (m) => process.stdout.write(JSON.stringify(m, null, 2) + '\n'),
    (e) => {
      process.stderr.write(`bench/edge: ${e.message}\n`);
      process.exit(1);
    },
  );
}
