// The wasm build (SIMD) and the wasm2js build (non-SIMD, for runtimes without WebAssembly) must
// answer identically: a generated corpus of ≥ 2000 scripted requests is driven through both over the
// raw C ABI and the transcripts (every action code, payload byte and timeout answer) are compared;
// then the loader's fallback (WebAssembly absent) is exercised through the public Fetch handler.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CoreExports } from '../../src/core/exports';
import { resolveOptions } from '../../src/options';
import { OUTCOMES, type OutcomeRow } from '../support/outcomes';
import { headRecord, newEngine, runScript, type Script, type Step } from '../support/abi-driver';
import { discoverWith, envelope, modernHeaders, PROFILES, type ProfileName } from '../support/fixtures';
import { createMcpHttpHandler } from '../support/hosts';
import { jsonTree, mutatedText, mutation, splitAt } from '../support/json-gen';

const root = path.resolve(__dirname, '..', '..');
const CORPUS_MIN = 2000;
const enc = new TextEncoder();

// The glue the loader requires where WebAssembly is absent, loaded the same way.
const { createCoreWasm2js } = require('../../src/core/generated/core-wasm2js.cjs') as typeof import('../../src/core/generated/core-wasm2js.cjs');

function wasmCore(): CoreExports {
  const bytes = readFileSync(path.join(root, 'wasm', 'pulse_core.wasm'));
  return new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports as unknown as CoreExports;
}

interface Case {
  profile: ProfileName;
  script: Script;
  label: string;
}

const joinHeaders = (h: [string, string][]): [string, string][] => {
  const m = new Map<string, string>();
  for (const [n, v] of h) {
    const k = n.toLowerCase();
    m.set(k, m.has(k) ? `${m.get(k)}, ${v}` : v);
  }
  return [...m];
};
const toBytes = (b: string | Uint8Array) => (typeof b === 'string' ? enc.encode(b) : b);
const deadlineOf = (p: ProfileName) => (PROFILES[p] as { limits?: { deadlineMs?: number } }).limits?.deadlineMs ?? 10000;

function scriptOf(profile: ProfileName, method: string, target: string, headers: [string, string][], chunks: Uint8Array[], tail: 'end' | 'abort' | 'stall', t0: number): Script {
  const steps: Step[] = [{ op: 'head', text: headRecord(method, target, joinHeaders(headers)), now: t0 + 1 }];
  let now = t0 + 1;
  steps.push({ op: 'timeout', now });
  for (const c of chunks) {
    now += 0.5;
    steps.push({ op: 'body', bytes: c, now });
  }
  steps.push({ op: 'timeout', now });
  if (tail === 'end') steps.push({ op: 'end', now: now + 0.25 });
  else if (tail === 'abort') steps.push({ op: 'abort', now: now + 0.25 });
  else {
    steps.push({ op: 'tick', now: now + 1 }); // before the deadline: nothing expires
    steps.push({ op: 'tick', now: t0 + deadlineOf(profile) + 1 });
  }
  steps.push({ op: 'end', now: now + 2 }); // after RESPOND every call repeats the record
  return { start: t0, steps };
}

function rowCase(row: OutcomeRow): Case {
  const r = row.request;
  const chunks = (r.chunks ?? (r.body !== undefined ? [r.body] : [])).map(toBytes);
  const profile = row.profile as ProfileName;
  return { profile, label: `row: ${row.name}`, script: scriptOf(profile, r.method, r.path, r.headers, chunks, r.stall ? 'stall' : r.fail ? 'abort' : 'end', 1000) };
}

function buildCorpus(): Case[] {
  const cases: Case[] = OUTCOMES.map(rowCase);
  // Generated bodies (valid and mutated JSON), wrapped or bare, cut at random points.
  const bodyCases = fc.sample(
    fc.record({
      tree: jsonTree,
      seed: fc.integer({ min: 1, max: 0x7fffffff }),
      m: mutation,
      wrap: fc.boolean(),
      cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }),
      tail: fc.constantFrom('end', 'end', 'end', 'abort', 'stall'),
      profile: fc.constantFrom<ProfileName>('default', 'small', 'shallow'),
      t0: fc.double({ min: 0, max: 1e9, noNaN: true }),
    }),
    { numRuns: 1600, seed: 20261202 },
  );
  for (const b of bodyCases) {
    const text = Buffer.from(mutatedText(b.tree, b.seed, b.m)).toString('latin1');
    const body = b.wrap ? Buffer.from(discoverWith('\u0000').replace('\u0000', text), 'latin1') : Buffer.from(text, 'latin1');
    cases.push({
      profile: b.profile,
      label: `generated ${b.m.k}`,
      script: scriptOf(b.profile, 'POST', '/mcp', modernHeaders('server/discover'), splitAt(body, b.cuts), b.tail, b.t0),
    });
  }
  // Header and method/path perturbations around a valid request.
  const headerCases = fc.sample(
    fc.record({
      method: fc.constantFrom('POST', 'POST', 'POST', 'GET', 'DELETE', 'PUT'),
      path: fc.constantFrom('/mcp', '/mcp', '/mcp', '/mcp?x=1', '/other', '/mcp/'),
      rpc: fc.constantFrom('server/discover', 'tools/list', 'tools/call', 'ping', 'initialize', 'notifications/initialized'),
      drop: fc.subarray(['accept', 'content-type', 'mcp-protocol-version', 'mcp-method', 'mcp-name']),
      extra: fc.array(
        fc.tuple(
          fc.constantFrom('origin', 'accept', 'content-type', 'content-encoding', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'x-other'),
          fc.oneof(fc.string({ unit: 'binary-ascii', maxLength: 20 }).map((s) => s.replace(/[\r\n]/g, '')), fc.constantFrom('https://evil.example', '*/*', 'gzip', '2025-06-18', 'application/json', '=?base64?ZWNobw==?=')),
        ),
        { maxLength: 3 },
      ),
      id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(undefined)),
    }),
    { numRuns: 400, seed: 7 },
  );
  for (const h of headerCases) {
    const headers = modernHeaders(h.rpc, h.rpc === 'tools/call' ? 'echo' : undefined).filter(([n]) => !h.drop.includes(n));
    headers.push(...h.extra);
    const params = h.rpc === 'tools/call' ? { name: 'echo', arguments: {}, _meta: JSON.parse(envelope('x', 1)).params._meta } : undefined;
    const body = params ? envelope(h.rpc, h.id, params) : envelope(h.rpc, h.id);
    cases.push({ profile: 'default', label: 'headers', script: scriptOf('default', h.method, h.path, headers, [enc.encode(body)], 'end', 5) });
  }
  return cases;
}

describe('wasm and wasm2js agree', () => {
  it(`on a corpus of ≥ ${CORPUS_MIN} scripted requests, byte for byte`, () => {
    const corpus = buildCorpus();
    expect(corpus.length).toBeGreaterThanOrEqual(CORPUS_MIN);
    const variants = [wasmCore(), createCoreWasm2js()].map((core) => {
      const engines = new Map<ProfileName, number>();
      for (const p of Object.keys(PROFILES) as ProfileName[]) {
        const e = newEngine(core, resolveOptions(PROFILES[p] as never).configJson);
        if (typeof e !== 'number') throw new Error(`engine for ${p} rejected: ${e.error}`);
        engines.set(p, e);
      }
      return { core, engines };
    });
    const mismatches: string[] = [];
    let responded = 0;
    const statuses = new Set<number>();
    const codes = new Set<number>();
    for (const c of corpus) {
      const [a, b] = variants.map((v) => runScript(v.core, v.engines.get(c.profile)!, c.script));
      // Every script ends with a call after RESPOND, which must repeat RESPOND (docs/contracts.md#the-cores-rust-api).
      const last = a.split('\n').pop()!;
      if (last.startsWith('end 1 ')) {
        responded++;
        const record = Buffer.from(last.slice(6), 'hex').toString('latin1');
        statuses.add(Number(record.slice(0, 3)));
        const code = /"code":(-\d+)/.exec(record);
        if (code) codes.add(Number(code[1]));
      }
      if (a !== b && mismatches.length < 5) mismatches.push(`${c.label}\n--- wasm\n${a.slice(0, 600)}\n--- wasm2js\n${b.slice(0, 600)}`);
      else if (a !== b) mismatches.push(c.label);
    }
    expect(mismatches, mismatches.slice(0, 5).join('\n\n')).toEqual([]);
    expect(responded).toBe(corpus.length);
    // The corpus must reach every outcome class, or agreement proves little.
    expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 202, 400, 403, 404, 405, 406, 408, 413, 415]));
    expect([...codes].sort()).toEqual(expect.arrayContaining([-32700, -32600, -32602, -32601, -32020, -32022]));
  }, 120_000);

  it('both engines reject the same invalid configurations with the same message', () => {
    const bad = [
      '{}',
      'not json',
      JSON.stringify({ ...JSON.parse(resolveOptions({} as never).configJson), limits: { requestBytes: 1e9 } }),
    ];
    const [w, j] = [wasmCore(), createCoreWasm2js()];
    for (const cfg of bad) expect(newEngine(w, cfg)).toEqual(newEngine(j, cfg));
  });
});

describe('loader falls back to wasm2js when WebAssembly is absent', () => {
  it('a Fetch handler built without WebAssembly answers every table row like the wasm one', async () => {
    const g = globalThis as { WebAssembly?: unknown };
    const saved = g.WebAssembly;
    const rows = OUTCOMES.filter((r) => !r.request.stall && !r.request.fail);
    const build = (p: ProfileName) => createMcpHttpHandler(PROFILES[p] as never);
    const viaWasm = new Map<ProfileName, ReturnType<typeof build>>();
    const viaJs = new Map<ProfileName, ReturnType<typeof build>>();
    for (const p of Object.keys(PROFILES) as ProfileName[]) viaWasm.set(p, build(p));
    delete g.WebAssembly;
    try {
      for (const p of Object.keys(PROFILES) as ProfileName[]) viaJs.set(p, build(p));
    } finally {
      g.WebAssembly = saved;
    }
    const answer = async (h: ReturnType<typeof build>, row: OutcomeRow) => {
      const headers = new Headers();
      for (const [n, v] of row.request.headers) headers.append(n, v);
      const r = row.request;
      const body = r.chunks ? Buffer.concat(r.chunks.map((c) => Buffer.from(toBytes(c)))) : r.body !== undefined ? toBytes(r.body) : undefined;
      const res = await h.fetch(new Request(`http://127.0.0.1${r.path}`, { method: r.method, headers, body: r.method === 'GET' || r.method === 'HEAD' ? undefined : (body as BodyInit | undefined) }));
      const hs: string[] = [];
      res.headers.forEach((v, k) => hs.push(`${k}: ${v}`));
      return `${res.status} ${JSON.stringify(hs)} ${Buffer.from(await res.arrayBuffer()).toString('hex')}`;
    };
    for (const row of rows) {
      const p = row.profile as ProfileName;
      expect(await answer(viaJs.get(p)!, row), row.name).toBe(await answer(viaWasm.get(p)!, row));
    }
  });
});
