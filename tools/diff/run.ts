/**
 * The differential run (`npm run diff`): one corpus, sent over real TCP to every target —
 *   node-javascript     http.createServer(createMcpNodeHandler(options)), or a static binding's own
 *                       nodeListener(): the reference
 *   node-native         the package's Native service configured per profile (as `pulse-mcp build --wasm`
 *                       does) in the Node Native host; the `example` profile is the deployed bin/main.wasm,
 *                       built by `npm run edge:build` at the start of the run
 *   fastly-native       the same Native binaries on Fastly's Viceroy (scripts/viceroy.mjs builds it if missing)
 *   workerd-javascript  inside workerd (miniflare), the core imported as a WebAssembly.Module: createMcpHttpHandler
 *                       for the host adapters' profiles, mcp(...).handle(ctx) for the static-binding fixtures
 *                       (not the deployed module)
 *   fastly-javascript   the Fastly JavaScript package (bin/js/main.wasm) in the Node Native host, when built
 * — comparing status, content-type, cache-control, allow, www-authenticate and the body bytes.
 * Differences not in tools/diff/allowlist.json (each with a justification) fail the run, and so do a
 * target that does not answer (never agreement, even when another target is silent too) and a
 * target whose build is stale and cannot be rebuilt. Then the rate-limit rows (./rate-limit.ts, run
 * by ./rate-limit-run.ts): sequences of requests on fresh servers of the first four targets, each
 * step held to its exact answer (on Viceroy, whose rate counters never count, the unlimited answer
 * and the hostcalls its trace shows), and the configuration refusals on every host and the Native
 * build. `PULSE_TEST_PORT_BASE` moves the backend ports.
 * Written for reading afterwards: .test-results/diff-observed.json (what each target answered, per
 * case) and .test-results/diff-evidence.json (per router and operation, the targets that answered
 * its calls alike with the reference: what `pulse-mcp build --evidence` reads, src/compiler/evidence.ts).
 */
import { createServer, type Server } from 'node:http';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMcpNodeHandler } from '../../src/node';
import { resolveOptions } from '../../src/options';
import { encodeRequest, type RawRequest } from '../../test/support/raw-http';
import { exchange } from './exchange';
import { buildCorpus, type Case } from './corpus';
import { profileOptions } from './profiles';
import { staticCases, staticProfiles, type StaticCase } from './static-profiles';
import { CLOSED_PORT, ORIGIN_PORT } from './backend-router';
import { BACKEND_TOKEN } from './catalog-router';
import * as authz from './authz-profile';
// Plain ESM modules outside the bundle (they locate their own files by import.meta.url).
import { startOrigin } from './origin.mjs';
import { startHost } from '../../src/cli/compute-host/host.mjs';
import { startViceroy } from '../../scripts/viceroy.mjs';
import { freePort } from '../qualify/lib.mjs';
import { ROOT, WORK, run, nativeBinary, bundleJsEntry, bundleForRuntime } from '../../scripts/edge-lib.mjs';
import { targetRefusal, type Target } from '../../src/compiler/types';
import { calledOperation } from './evidence';
import { count, evidenceOf, evidenceReport, type Served } from '../../src/cli/diff/evidence-report';
import { answerOf, COMPARED, type Field } from '../../src/cli/diff/compare';
import { RATE_LIMIT_PROFILES, originTokens } from './rate-limit';
import { RATE_LIMIT_TARGETS, runRateLimits, selectedRows } from './rate-limit-run';

/** Every answer is compared with this target's. */
const REFERENCE: Target = 'node-javascript';
/** What a target that did not answer "says": a failure wherever it appears. */
const NO_RESPONSE = 'no response';
/** The fields compared and how an answer reads as them: the package's own diff decides both. */
const FIELDS = COMPARED;
type Observed = Record<Field, string>;

interface AllowEntry {
  case: string;
  targets: Target[];
  fields: Field[];
  justification: string;
}

const argv = process.argv.slice(2);
const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : undefined;
const verbose = argv.includes('--verbose');
const log = (s: string) => process.stdout.write(s + '\n');
const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
/** A core wasm to use instead of the committed one (for runs while the artifacts are being rebuilt). */
const CORE_OVERRIDE = process.env.PULSE_DIFF_CORE;

/** A profile's Native binary: the package's Native service configured with its configuration (Wizer, under a second). */
async function nativeBuild(profile: string, configJson: string): Promise<string> {
  const out = join(WORK, 'diff', `${profile}.wasm`);
  await nativeBinary(configJson, out);
  return out;
}

const DIFF_TOML = `manifest_version = 3
name = "pulse-diff"
language = "other"

[local_server.backends.origin]
url = "http://127.0.0.1:${ORIGIN_PORT}"

[local_server.backends.closed]
url = "http://127.0.0.1:${CLOSED_PORT}"
`;

/** Where the Native builds find the secrets a profile gives as text: Fastly's secret store, as deployed. */
const SECRET_STORE = 'diff';
const STATE_SECRET = { secretStore: SECRET_STORE, key: 'request-state' };
const BACKEND_SECRET = { secretStore: SECRET_STORE, key: 'backend-token' };
const INTROSPECTION_SECRET = { secretStore: SECRET_STORE, key: 'introspection-secret' };

/**
 * The options of a Native build: secrets given as text (the `requestState` key, a catalog backend
 * token, the introspection client's secret) move into the secret store the diff manifest holds; `secrets` are that store's entries.
 */
function nativeOptions(o: Record<string, unknown>): { options: Record<string, unknown>; secrets: Record<string, string> } {
  const options = { ...o };
  const secrets: Record<string, string> = {};
  if (typeof o.requestStateKey === 'string') {
    options.requestStateKey = STATE_SECRET;
    secrets[STATE_SECRET.key] = o.requestStateKey;
  }
  const tools = o.tools as Record<string, unknown> | undefined;
  if (typeof tools?.backendBearerToken === 'string') {
    options.tools = { ...tools, backendBearerToken: BACKEND_SECRET };
    secrets[BACKEND_SECRET.key] = tools.backendBearerToken;
  }
  const authorization = o.authorization as Record<string, unknown> | undefined;
  if (typeof authorization?.clientSecret === 'string') {
    options.authorization = { ...authorization, clientSecret: INTROSPECTION_SECRET };
    secrets[INTROSPECTION_SECRET.key] = authorization.clientSecret;
  }
  return { options, secrets };
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  });
  return (server.address() as { port: number }).port;
}

async function startWorkerd(): Promise<{ port: number; close(): Promise<void> }> {
  const dir = join(WORK, 'workerd');
  mkdirSync(dir, { recursive: true });
  // The core stays a separate module: workerd refuses to compile wasm bytes at run time.
  // workerd has no process.env: the backend port base is fixed into the bundle as this run sees it.
  await bundleForRuntime(join(ROOT, 'tools', 'diff', 'workerd-entry.ts'), join(dir, 'worker.mjs'), {
    external: ['*.wasm'],
    define: { 'process.env.PULSE_TEST_PORT_BASE': JSON.stringify(process.env.PULSE_TEST_PORT_BASE ?? '') },
  });
  copyFileSync(CORE_OVERRIDE ?? join(ROOT, 'wasm', 'pulse_core.wasm'), join(dir, 'pulse_core.wasm'));
  const { Miniflare } = await import('miniflare');
  const mf = new Miniflare({
    rootPath: dir,
    scriptPath: join(dir, 'worker.mjs'),
    modules: true,
    modulesRules: [{ type: 'CompiledWasm', include: ['**/*.wasm'] }],
    compatibilityDate: '2025-06-01',
    host: '127.0.0.1',
    port: 0,
  });
  const url = await mf.ready;
  return { port: Number(url.port), close: () => mf.dispose() };
}

function toRaw(c: Case): { req: RawRequest; stallAfterBytes?: number } {
  const r = c.request;
  const bytes = (b: string | Uint8Array) => (typeof b === 'string' ? Buffer.from(b, 'utf8') : b);
  const req: RawRequest = { method: r.method, path: r.path, headers: [['host', `${c.profile}.diff`], ...r.headers] };
  if (r.chunks) req.chunks = r.chunks.map(bytes);
  else if (r.body !== undefined) req.body = bytes(r.body);
  if (r.stall && !req.chunks) req.chunks = [req.body ?? new Uint8Array(0)];
  // A stalled upload is the chunked request without its terminating "0\r\n\r\n".
  return { req, stallAfterBytes: r.stall ? encodeRequest(req).length - 5 : undefined };
}

async function observe(port: number, c: Case): Promise<Observed> {
  const { req, stallAfterBytes } = toRaw(c);
  const t = performance.now();
  const res = await exchange(port, req, c.timeoutMs ?? 5000, stallAfterBytes);
  if (verbose) log(`    ${c.name} @${port}: ${(performance.now() - t).toFixed(0)} ms`);
  if (!res) return { status: NO_RESPONSE, 'content-type': '', 'cache-control': '', allow: '', 'www-authenticate': '', body: '' };
  // Every target is sealed with the diff's own requestStateKey.
  return answerOf(res, true)!;
}

async function pool<T>(items: T[], n: number, f: (t: T) => Promise<void>): Promise<void> {
  let i = 0;
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, async () => {
    while (i < items.length) await f(items[i++]!);
  }));
}

const short = (s: string) => (s.length > 120 ? `${JSON.stringify(s.slice(0, 117))}… (${s.length} bytes)` : JSON.stringify(s));

async function main() {
  const t0 = performance.now();
  const date = new Date().toISOString();
  const corpus = [...buildCorpus(), ...staticCases()].filter((c) => !only || c.name.includes(only));
  // The static binding's profiles: Node serves the binding's own listener, the Native builds its configuration.
  const statics = await staticProfiles();
  const options = { ...profileOptions(), ...Object.fromEntries(Object.entries(statics).map(([p, s]) => [p, s.options])) };
  const profiles = [...new Set(corpus.map((c) => c.profile))];
  for (const p of profiles) if (!(p in options)) throw new Error(`corpus names unknown profile ${p}`);
  // The rate-limit rows: sequences on servers of their own (./rate-limit-run.ts), and refusals.
  const rateRows = selectedRows(only);
  const rateProfiles = [...new Set(rateRows.sequences.map(([, s]) => s.profile))];
  const allow: AllowEntry[] = JSON.parse(readFileSync(join(ROOT, 'tools', 'diff', 'allowlist.json'), 'utf8')).entries;
  for (const e of allow) if (typeof e.justification !== 'string' || e.justification.length < 20) throw new Error(`allow-list entry for ${e.case} lacks a justification`);
  for (const e of allow) for (const t of e.targets) {
    const refused = targetRefusal(`tools/diff/allowlist.json: ${e.case}: targets`, t);
    if (refused !== undefined) throw new Error(refused);
  }

  const closers: (() => Promise<void>)[] = [];
  const origin = await startOrigin(ORIGIN_PORT, BACKEND_TOKEN, { client: authz.CLIENT, issuer: authz.ISSUER, resource: authz.RESOURCE, tokens: { ...authz.TOKENS, ...originTokens(RATE_LIMIT_TARGETS) } });
  closers.push(origin.close);
  try {
    // node-javascript
    const nodePorts = new Map<string, number>();
    for (const p of profiles) {
      const opts = CORE_OVERRIDE ? { ...options[p], core: readFileSync(CORE_OVERRIDE) } : options[p];
      const server = createServer(statics[p]?.listener ?? createMcpNodeHandler(opts as never));
      nodePorts.set(p, await listen(server));
      closers.push(() => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }));
    }
    // node-native and fastly-native
    mkdirSync(WORK, { recursive: true });
    const toml = join(WORK, 'diff-fastly.toml');
    // One store for every profile: profiles that give the same secret give the same text.
    const natives = new Map([...profiles.map((p) => [p, nativeOptions(options[p])] as const), ...rateProfiles.map((p) => [p, nativeOptions(RATE_LIMIT_PROFILES[p]!)] as const)]);
    const store = new Map<string, string>();
    for (const n of natives.values()) {
      for (const [key, data] of Object.entries(n.secrets)) {
        if (store.has(key) && store.get(key) !== data) throw new Error(`diff: profiles give different values for the secret ${key}; they need one secret each`);
        store.set(key, data);
      }
    }
    const secrets = [...store].map(([key, data]) => `\n[[local_server.secret_stores.${SECRET_STORE}]]\nkey = "${key}"\ndata = ${JSON.stringify(data)}\n`);
    writeFileSync(toml, DIFF_TOML + secrets.join(''), { mode: 0o600 });
    const nativePorts = new Map<string, number>();
    const viceroyPorts = new Map<string, number>();
    const tb = performance.now();
    const mainWasm = join(ROOT, 'bin', 'main.wasm');
    const notes: string[] = [];
    if (CORE_OVERRIDE) notes.push(`node-javascript and workerd-javascript run the core from PULSE_DIFF_CORE=${CORE_OVERRIDE}, not wasm/pulse_core.wasm`);
    /** What each profile serves, read from the configuration the Native build embeds. */
    const served = new Map<string, Served>();
    for (const p of profiles) {
      const cfg = resolveOptions(natives.get(p)!.options, 'native', p in statics ? 'static' : 'facade').configJson;
      const tools = (JSON.parse(cfg) as { tools?: { routerId: string; catalogHash: string; tools: { name: string }[] } }).tools;
      if (tools !== undefined) served.set(p, { routerId: tools.routerId, catalogHash: tools.catalogHash, operations: new Set(tools.tools.map((t) => t.name)) });
      let wasm: string;
      if (p === 'example') {
        // The deployed artifact itself is under test: built by the package's own command, packed and validated (npm run edge:build).
        run(process.execPath, [join(ROOT, 'scripts', 'edge-build.mjs')], { cwd: ROOT });
        wasm = mainWasm;
        notes.push('node-native and fastly-native, example: bin/main.wasm, built, packed and validated by npm run edge:build');
      } else {
        wasm = await nativeBuild(p, cfg);
      }
      const h = await startHost({ wasm, toml, addr: '127.0.0.1:0', workers: 2 });
      nativePorts.set(p, h.port);
      closers.push(() => h.close());
      // Viceroy takes no port 0: a port just freed by the kernel.
      const vport = await freePort();
      const v = await startViceroy({ wasm, toml, addr: `127.0.0.1:${vport}` });
      viceroyPorts.set(p, vport);
      closers.push(() => v.close());
    }
    // The rate-limit profiles' binaries: each sequence starts its own Node Native host and Viceroy on them.
    const rateWasm = new Map<string, string>();
    for (const p of rateProfiles) rateWasm.set(p, await nativeBuild(p, resolveOptions(natives.get(p)!.options, 'native').configJson));
    const buildMs = performance.now() - tb;
    // workerd-javascript
    const wd = await startWorkerd();
    closers.push(wd.close);
    // fastly-javascript (the Fastly JavaScript package serves the deployed router only)
    const jsWasm = join(ROOT, 'bin', 'js', 'main.wasm');
    let jsPort: number | undefined;
    const jsKey = join(WORK, 'js.build-key');
    const jsIsCurrent = async () => existsSync(jsWasm) && existsSync(jsKey) && readFileSync(jsKey, 'utf8').trim() === (await bundleJsEntry(join(WORK, 'js', 'diff-check.js')));
    let jsCurrent = await jsIsCurrent();
    // A package built before (or --with-js) is kept current; without one the target is skipped.
    if (!jsCurrent && (existsSync(jsWasm) || argv.includes('--with-js'))) {
      log('diff: bin/js/main.wasm missing or stale, running npm run edge:build:js');
      run(process.execPath, [join(ROOT, 'scripts', 'edge-build-js.mjs')], { cwd: ROOT });
      jsCurrent = await jsIsCurrent();
    }
    if (jsCurrent) {
      const h = await startHost({ wasm: jsWasm, toml, addr: '127.0.0.1:0', workers: 2, requestTimeoutMs: 60000 });
      jsPort = h.port;
      closers.push(() => h.close());
    }
    // A package that exists (or was asked for) but is not current cannot be compared: that fails.
    const jsStale = !jsCurrent && (existsSync(jsWasm) || argv.includes('--with-js'));
    if (!jsCurrent && !jsStale) notes.push('fastly-javascript: bin/js/main.wasm not built (npm run edge:build:js, or npm run diff -- --with-js), target skipped');

    const portOf = (t: Target, p: string): number | undefined =>
      t === 'node-javascript' ? nodePorts.get(p) : t === 'node-native' ? nativePorts.get(p) : t === 'fastly-native' ? viceroyPorts.get(p) : t === 'workerd-javascript' ? (p === 'example' ? undefined : wd.port) : p === 'example' ? jsPort : undefined;
    const targets: Target[] = ['node-javascript', 'node-native', 'fastly-native', 'workerd-javascript', ...(jsPort ? (['fastly-javascript'] as const) : [])];
    const results = new Map<string, Partial<Record<Target, Observed>>>();
    const tr = performance.now();
    // Deadline rows time out on purpose; a few in flight keep the run short without starving timers.
    await pool(corpus, 4, async (c) => {
      const got: Partial<Record<Target, Observed>> = {};
      await Promise.all(targets.map(async (t) => {
        const port = portOf(t, c.profile);
        if (port !== undefined) got[t] = await observe(port, c);
      }));
      results.set(c.name, got);
    });
    const runMs = performance.now() - tr;
    const trl = performance.now();
    const rate = await runRateLimits({
      rows: rateRows,
      introspections: origin.introspections,
      wasm: rateWasm,
      toml,
      workerdPort: wd.port,
      nodeOptions: (o) => (CORE_OVERRIDE ? { ...o, core: readFileSync(CORE_OVERRIDE) } : o),
      nativeConfig: (o) => resolveOptions(nativeOptions(o).options, 'native').configJson,
      scratchWasm: join(WORK, 'diff', 'rate-limit-refused.wasm'),
      log: verbose ? log : undefined,
    });
    const rateMs = performance.now() - trl;
    // What each target answered, for reading after the run.
    mkdirSync(join(ROOT, '.test-results'), { recursive: true });
    writeFileSync(join(ROOT, '.test-results', 'diff-observed.json'), JSON.stringify({ ...Object.fromEntries(results), ...rate.observed }, null, 1));

    // Compare every pair; count each target against the reference.
    const allowed = (c: Case, t: Target, f: Field) => allow.some((e) => e.case === c.name && e.targets.includes(t) && e.fields.includes(f));
    const pairs: [Target, Target][] = [];
    for (let i = 0; i < targets.length; i++) for (let j = i + 1; j < targets.length; j++) pairs.push([targets[i]!, targets[j]!]);
    const table = new Map<string, { agree: number; total: number; allowed: number }>();
    let passed = 0;
    let failed = 0;
    const failures: string[] = [];
    const usedAllow = new Set<AllowEntry>();
    const evidence = evidenceOf(served);
    for (const c of corpus) {
      const got = results.get(c.name)!;
      for (const [a, b] of pairs) {
        const x = got[a];
        const y = got[b];
        if (!x || !y) continue;
        const row = table.get(`${a} ↔ ${b}`) ?? { agree: 0, total: 0, allowed: 0 };
        row.total++;
        const diff = FIELDS.filter((f) => x[f] !== y[f]);
        const silent = x.status === NO_RESPONSE || y.status === NO_RESPONSE;
        if (!diff.length && !silent) row.agree++;
        else if (a === REFERENCE && diff.every((f) => allowed(c, b, f))) row.allowed++;
        table.set(`${a} ↔ ${b}`, row);
      }
      const ref = got[REFERENCE]!;
      // A row with its answer: the reference gives exactly it (and every other target the reference's).
      const want = (c as Partial<StaticCase>).expect;
      if (want && ref.status !== NO_RESPONSE && (ref.status !== String(want.status) || (want.body !== undefined && ref.body !== want.body) || (want.bytes !== undefined && ref.body.length !== want.bytes))) {
        failed++;
        failures.push(`  ✗ [${REFERENCE}] ${c.name}\n      expected ${want.status} ${want.body !== undefined ? short(want.body) : `${want.bytes} bytes`}, got ${ref.status} ${short(ref.body)}`);
      }
      const call = calledOperation(c, served.get(c.profile));
      if (ref.status === NO_RESPONSE) {
        failed++;
        failures.push(`  ✗ [${REFERENCE}] ${c.name}\n      no response`);
      } else if (call) count(evidence, call, REFERENCE);
      for (const t of targets) {
        if (t === REFERENCE || !got[t]) continue;
        const o = got[t]!;
        const diff = FIELDS.filter((f) => o[f] !== ref[f]);
        const bad = o.status === NO_RESPONSE ? ['status' as const] : diff.filter((f) => !allowed(c, t, f));
        for (const e of allow) if (e.case === c.name && e.targets.includes(t) && diff.some((f) => e.fields.includes(f))) usedAllow.add(e);
        if (bad.length) {
          failed++;
          failures.push(`  ✗ [${t}] ${c.name}\n${bad.map((f) => `      ${f}: ${REFERENCE}=${short(ref[f])} ${t}=${short(o[f])}`).join('\n')}`);
        } else {
          passed++;
          if (call) count(evidence, call, t);
        }
      }
    }

    log(`diff: ${corpus.length} requests, ${profiles.length} profiles, targets ${targets.join(', ')} (native builds ${(buildMs / 1000).toFixed(1)} s, requests ${(runMs / 1000).toFixed(1)} s)`);
    log(`rate limits: ${rate.sequences} sequences (${rate.steps} steps) on ${RATE_LIMIT_TARGETS.join(', ')}, each on fresh servers, and ${rate.refusals} refusals on every host and the Native build (${(rateMs / 1000).toFixed(1)} s)`);
    for (const n of notes) log(`note: ${n}`);
    log('');
    log('agreement per target pair (all compared fields identical / requests both answered; allowed = listed differences)');
    for (const [k, v] of table) log(`  ${k.padEnd(38)} ${String(v.agree).padStart(4)} / ${String(v.total).padEnd(4)} agree${v.allowed ? `, ${v.allowed} allowed` : ''}`);
    if (verbose) for (const c of corpus) log(`  ${c.name}: ${targets.map((t) => `${t}=${results.get(c.name)![t]?.status ?? '-'}`).join(' ')}`);
    const unused = allow.filter((e) => !usedAllow.has(e) && corpus.some((c) => c.name === e.case));
    for (const e of unused) log(`note: allow-list entry not needed any more: ${e.case} [${e.targets.join(', ')}]`);
    if (jsStale) {
      failed++;
      failures.push('  ✗ [fastly-javascript] bin/js/main.wasm is stale and could not be rebuilt: the target was not compared');
    }
    writeFileSync(join(ROOT, '.test-results', 'diff-evidence.json'), `${JSON.stringify(evidenceReport(date, evidence), null, 1)}\n`);
    if (failures.length) {
      log('');
      log('differences not in tools/diff/allowlist.json:');
      for (const f of failures) log(f);
    }
    passed += rate.passed;
    failed += rate.failed;
    if (rate.failures.length) {
      log('');
      log('rate limits, answers other than the rows say (tools/diff/rate-limit.ts):');
      for (const f of rate.failures) log(f);
    }
    log('');
    log(`total ${((performance.now() - t0) / 1000).toFixed(1)} s; the last line counts requests × targets compared with ${REFERENCE}, rate-limit steps × targets and refusals × builds held to their rows`);
    log(`${passed} passed, ${failed} failed`);
    process.exitCode = failed ? 1 : 0;
  } finally {
    for (const c of closers.reverse()) await c().catch(() => undefined);
  }
}

main().catch((e) => {
  process.stderr.write(`diff: ${e && e.stack ? e.stack : String(e)}\n`);
  process.exit(1);
});
