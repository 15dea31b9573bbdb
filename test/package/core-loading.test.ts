// The built package (dist/, npm run build) as consumers get it: the tarball carries each form of the
// core once; a Node process (CommonJS or ESM entry, per module or over Node's bundle) reads the
// packaged wasm file and compiles it once, and never loads the wasm2js build unless WebAssembly is
// absent; workerd, which has no file system for the package, runs the core it is given and otherwise
// refuses at construction with a PulseConfigError naming `core`.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GLUE, SOURCES } from '../../scripts/core-glue.mjs';
import { bundleForRuntime } from '../../scripts/edge-lib.mjs';
import { envelope, modernHeaders } from '../support/fixtures';
import { run } from '../support/run';

const root = path.resolve(__dirname, '..', '..');
const dist = path.join(root, 'dist');
const distWasm2js = path.join(dist, 'cjs', path.relative('src', GLUE.wasm2js));
const packageWasm = path.join(root, SOURCES.wasm);
const work = path.join(root, 'native', 'target');
let dir: string;

beforeAll(() => {
  expect(existsSync(path.join(dist, 'cjs', 'index.js')), 'dist/ built (npm run build)').toBe(true);
  mkdirSync(work, { recursive: true });
  dir = mkdtempSync(path.join(work, 'package-test-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const discoverHeaders = Object.fromEntries(modernHeaders('server/discover'));
const discoverBody = envelope('server/discover', 1);

/** Where each form of the entries lives: Node's package exports resolve to `node`. */
const FORMS = {
  cjs: { dir: 'cjs', ext: '.js' },
  esm: { dir: 'esm', ext: '.mjs' },
  'node (require)': { dir: 'node', ext: '.js' },
  'node (import)': { dir: 'node', ext: '.mjs' },
} as const;

/**
 * A probe run in a fresh Node process: counts WebAssembly.Module compilations and .wasm file reads,
 * builds three handlers from the entry, answers one discover request and lists the loaded wasm2js
 * modules. With `withoutWasm`, WebAssembly is absent while the package loads and the handlers are
 * built (Node's fetch needs it back to answer).
 */
function probe(kind: keyof typeof FORMS, withoutWasm = false): string {
  const { dir: formDir, ext } = FORMS[kind];
  const entry = (name: string) => JSON.stringify(path.join(dist, formDir, `${name}${ext}`));
  const load = ext === '.js'
    ? `const { createMcpHttpHandler } = require(${entry('index')}); const { createMcpNodeHandler } = require(${entry('node')});`
    : `const { createMcpHttpHandler } = await import(${entry('index')}); const { createMcpNodeHandler } = await import(${entry('node')});`;
  return `
    const fs = require('node:fs');
    const reads = [];
    const readFileSync = fs.readFileSync;
    fs.readFileSync = (p, ...rest) => { if (String(p).endsWith('.wasm')) reads.push(String(p)); return readFileSync(p, ...rest); };
    let compiles = 0;
    if (typeof WebAssembly !== 'undefined') {
      const Real = WebAssembly.Module;
      WebAssembly.Module = new Proxy(Real, { construct(t, a) { compiles++; return Reflect.construct(t, a); } });
    }
    const savedWasm = globalThis.WebAssembly;
    ${withoutWasm ? 'delete globalThis.WebAssembly;' : ''}
    (async () => {
      ${load}
      const h = createMcpHttpHandler({});
      createMcpHttpHandler({ limits: { depth: 8 } });
      createMcpNodeHandler({});
      globalThis.WebAssembly = savedWasm;
      const res = await h.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: ${JSON.stringify(discoverHeaders)}, body: ${JSON.stringify(discoverBody)} }));
      const loaded = Object.keys(require.cache).filter((k) => /wasm2js/.test(k));
      process.stdout.write(JSON.stringify({ status: res.status, compiles, reads, loaded }));
    })().catch((e) => { process.stderr.write(String(e && e.stack)); process.exit(1); });
  `;
}

async function node(code: string): Promise<{ status: number; compiles: number; reads: string[]; loaded: string[] }> {
  const r = await run(process.execPath, ['-e', code], { cwd: dir, timeoutMs: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('the npm tarball', () => {
  it('carries the wasm binary once and the wasm2js build once, nothing else of the core, beside the Native service', async () => {
    const r = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, timeoutMs: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const files: string[] = JSON.parse(r.stdout)[0].files.map((f: { path: string }) => f.path);
    const wasm = readFileSync(packageWasm);
    const wasmHead = wasm.subarray(0, 48).toString('base64');
    // The wasm2js build ships minified: its longest data segment (base64) is what identifies it.
    const jsLine = [...readFileSync(path.join(root, SOURCES.wasm2js), 'utf8').matchAll(/"([A-Za-z0-9+/=]{200,})"/g)].map((m) => m[1]!).reduce((a, b) => (b.length > a.length ? b : a));
    const content = (f: string) => readFileSync(path.join(root, f));
    expect(files.filter((f) => content(f).includes(wasm.subarray(0, 4096)))).toEqual([SOURCES.wasm]);
    expect(files.filter((f) => content(f).toString('latin1').includes(wasmHead))).toEqual([]);
    expect(files.filter((f) => content(f).toString('utf8').includes(jsLine))).toEqual([path.relative(root, distWasm2js)]);
    // The other module is the Fastly Native service (wasm32-wasi, the core linked in), which
    // `pulse-mcp build --wasm` configures; no JavaScript host loads it.
    expect(files.filter((f) => f.endsWith('.wasm'))).toEqual([SOURCES.wasm, 'wasm/pulse_native_service.wasm']);
  }, 130_000);
});

describe('Node entries of the built package', () => {
  for (const kind of Object.keys(FORMS) as (keyof typeof FORMS)[]) {
    it(`${kind}: reads the packaged wasm once, compiles it once, never loads wasm2js`, async () => {
      expect(await node(probe(kind))).toEqual({ status: 200, compiles: 1, reads: [packageWasm], loaded: [] });
    }, 70_000);
  }

  for (const kind of ['cjs', 'node (require)'] as const) {
    it(`${kind} without WebAssembly: the wasm2js build is loaded, and nothing is read or compiled`, async () => {
      expect(await node(probe(kind, true))).toEqual({ status: 200, compiles: 0, reads: [], loaded: [distWasm2js] });
    }, 70_000);
  }

  it("Node resolves the package's exports to the bundle's views, and /otel to its own modules", async () => {
    const code = `
      const { createRequire } = require('node:module');
      const req = createRequire(${JSON.stringify(path.join(root, 'package.json'))});
      const names = ['', '/node', '/pulse', '/otel'].map((s) => '@pulse-compute/mcp' + s);
      process.stdout.write(JSON.stringify(names.map((n) => req.resolve(n))));
    `;
    const r = await run(process.execPath, ['-e', code], { cwd: dir, timeoutMs: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(['node/index.js', 'node/node.js', 'node/pulse.js', 'cjs/otel.js'].map((f) => path.join(dist, f)));
    const esm = await run(process.execPath, ['--input-type=module', '-e', `process.stdout.write(JSON.stringify(['', '/node', '/pulse', '/otel'].map((s) => import.meta.resolve('@pulse-compute/mcp' + s))))`], { cwd: root, timeoutMs: 60_000 });
    expect(esm.status, esm.stderr).toBe(0);
    expect(JSON.parse(esm.stdout)).toEqual(['node/index.mjs', 'node/node.mjs', 'node/pulse.mjs', 'esm/otel.mjs'].map((f) => `file://${path.join(dist, f)}`));
  }, 70_000);
});

describe('workerd (miniflare) with the built package bundled', () => {
  it('answers with the core it is given and names `core` when none is', async () => {
    const entry = path.join(dir, 'worker.ts');
    writeFileSync(
      entry,
      [
        `import { createMcpHttpHandler } from ${JSON.stringify(path.join(dist, 'esm', 'index.mjs'))};`,
        "// @ts-expect-error: workerd's CompiledWasm module rule",
        "import core from './pulse_core.wasm';",
        'export default {',
        '  async fetch(req) {',
        '    if (new URL(req.url).pathname === "/mcp") return createMcpHttpHandler({ core }).fetch(req);',
        '    try { createMcpHttpHandler({}); } catch (e) { return new Response(`${e.name} ${e.code} ${e.message}`); }',
        '    return new Response("constructed");',
        '  },',
        '};',
      ].join('\n'),
    );
    await bundleForRuntime(entry, path.join(dir, 'worker.mjs'), { external: ['*.wasm'] });
    expect(readFileSync(path.join(dir, 'worker.mjs'), 'utf8')).not.toMatch(/from\s*["']node:/);
    writeFileSync(path.join(dir, 'pulse_core.wasm'), readFileSync(packageWasm));
    const { Miniflare } = await import('miniflare');
    const mf = new Miniflare({
      rootPath: dir,
      scriptPath: path.join(dir, 'worker.mjs'),
      modules: true,
      modulesRules: [{ type: 'CompiledWasm', include: ['**/*.wasm'] }],
      compatibilityDate: '2025-06-01',
      host: '127.0.0.1',
      port: 0,
    });
    try {
      const answer = await mf.dispatchFetch('http://127.0.0.1/mcp', { method: 'POST', headers: discoverHeaders, body: discoverBody });
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain('"supportedVersions":["2026-07-28"]');
      const refusal = await (await mf.dispatchFetch('http://127.0.0.1/refusal')).text();
      expect(refusal).toMatch(/^PulseConfigError PULSE_ERR_CONFIG core: .*pass the pulse_core\.wasm module or its bytes as core$/);
    } finally {
      await mf.dispose();
    }
  }, 120_000);
});
