// The Node Native host on its own: fastly.toml reading (loopback-only backends), the Viceroy command
// line, the ABI's `unsupported` status for every call it does not implement, import checks, the
// wall-clock limit on a guest that never finishes, and the Native binary's streaming body reads.
// Guests are assembled from WebAssembly text with binaryen's wasm-as (installed with the toolchain).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, parseArgs } from '../../tools/compute-host/host.mjs';
import { loadHostConfig } from '../../tools/compute-host/config.mjs';
import { checkImports } from '../../scripts/lib/compute-module.mjs';
import { envelope, modernHeaders } from '../support/fixtures';
import { configFor, edgeService } from '../../scripts/edge-lib.mjs';
import { STATIC_LIMITS } from '../../src/pulse';
import { Engine } from '../../src/core/engine';

const ROOT = resolve(__dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'pulse-host-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TOML = `manifest_version = 3
name = "host-test"
language = "other"

[local_server.backends.origin]
url = "http://127.0.0.1:9"

[local_server.config_stores.settings]
format = "inline-toml"
[local_server.config_stores.settings.contents]
greeting = "hello"
`;

function tomlFile(text: string): string {
  const p = join(dir, `fastly-${Math.random().toString(36).slice(2)}.toml`);
  writeFileSync(p, text);
  return p;
}

function assemble(wat: string): Uint8Array<ArrayBuffer> {
  const src = join(dir, `g-${Math.random().toString(36).slice(2)}.wat`);
  writeFileSync(src, wat);
  const out = src.replace(/\.wat$/, '.wasm');
  const wasmAs = existsSync('/usr/bin/wasm-as') ? '/usr/bin/wasm-as' : join(ROOT, 'node_modules', '.bin', 'wasm-as');
  const r = spawnSync(wasmAs, [src, '-o', out], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return new Uint8Array(readFileSync(out));
}

/** A guest that answers with status 600 + the status code an import returned. */
const reporter = (importDecl: string, call: string) => `(module
  ${importDecl}
  (import "fastly_http_req" "body_downstream_get" (func $dget (param i32 i32) (result i32)))
  (import "fastly_http_resp" "new" (func $rnew (param i32) (result i32)))
  (import "fastly_http_resp" "status_set" (func $sset (param i32 i32) (result i32)))
  (import "fastly_http_resp" "send_downstream" (func $send (param i32 i32 i32) (result i32)))
  (import "fastly_http_body" "new" (func $bnew (param i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 200) "settings")
  (data (i32.const 220) "greeting")
  (func (export "_start") (local $code i32)
    (local.set $code ${call})
    (drop (call $dget (i32.const 100) (i32.const 104)))
    (drop (call $rnew (i32.const 108)))
    (drop (call $sset (i32.load (i32.const 108)) (i32.add (i32.const 600) (local.get $code))))
    (drop (call $bnew (i32.const 112)))
    (drop (call $send (i32.load (i32.const 108)) (i32.load (i32.const 112)) (i32.const 0)))))`;

async function statusOf(wasm: Uint8Array, toml = tomlFile(TOML), timeoutMs?: number): Promise<number> {
  const h = await startHost({ wasm, toml, addr: '127.0.0.1:0', workers: 1, ...(timeoutMs ? { requestTimeoutMs: timeoutMs } : {}) });
  try {
    return (await fetch(`${h.url}/`, { signal: AbortSignal.timeout(5000) })).status;
  } finally {
    await h.close();
  }
}

describe('fastly.toml', () => {
  it('reads stores from tables, arrays of tables and inline tables', () => {
    const cfg = loadHostConfig(tomlFile(`name = "t" # c\n[local_server.backends]\no = { url = 'http://localhost:8080/p/', override_host = "api" }\n[[local_server.secret_stores.s]]\nkey = "k1"\ndata = \"\"\"multi\nline\"\"\"\n[[local_server.secret_stores.s]]\nkey = "k2"\ndata = "two"\n[local_server.dictionaries.d]\nformat = "inline-toml"\ncontents = { n = 1 }\n`));
    expect(cfg.name).toBe('t');
    expect(cfg.backends.get('o')).toMatchObject({ host: 'localhost', port: 8080, pathPrefix: '/p', overrideHost: 'api' });
    expect([...cfg.secretStores.get('s')!.entries()].map(([k, v]) => [k, v.data.toString()])).toEqual([['k1', 'multi\nline'], ['k2', 'two']]);
    expect(cfg.dictionaries.get('d')?.get('n')).toBe('1');
  });

  it('refuses a malformed fastly.toml naming the file and line, never quoting it', () => {
    const secret = tomlFile('[[local_server.secret_stores.s]]\nkey = "k"\ndata = "hunter2"\ndata = "again"\n');
    expect(() => loadHostConfig(secret)).toThrow(expect.objectContaining({ code: 'TOML_SYNTAX', message: expect.stringMatching(/^fastly-\w+\.toml line 4: [^\n]+$/) }));
    expect(() => loadHostConfig(secret)).toThrow(expect.objectContaining({ message: expect.not.stringContaining('hunter2') }));
    expect(() => loadHostConfig(tomlFile('name = \n'))).toThrow(expect.objectContaining({ code: 'TOML_SYNTAX', message: expect.stringMatching(/ line 1: /) }));
  });

  it('refuses backends that are not loopback http', () => {
    expect(() => loadHostConfig(tomlFile('[local_server.backends.o]\nurl = "http://example.com"\n'))).toThrow(expect.objectContaining({ code: 'BACKEND_NOT_LOOPBACK' }));
    expect(() => loadHostConfig(tomlFile('[local_server.backends.o]\nurl = "https://127.0.0.1:8443"\n'))).toThrow(expect.objectContaining({ code: 'BACKEND_SCHEME' }));
    const cfg = loadHostConfig(tomlFile(TOML));
    expect(cfg.backends.get('origin')).toMatchObject({ host: '127.0.0.1', port: 9 });
    expect(cfg.configStores.get('settings')?.get('greeting')).toBe('hello');
  });
});

describe('command line', () => {
  it('takes what fastly compute serve passes to Viceroy', () => {
    expect(parseArgs(['-v', '-C', '/abs/fastly.toml', '--addr', '127.0.0.1:7676', './bin/main.wasm'])).toMatchObject({ verbose: 1, toml: '/abs/fastly.toml', addr: '127.0.0.1:7676', wasm: './bin/main.wasm' });
    expect(parseArgs(['--version']).version).toBe(true);
    expect(() => parseArgs(['--bogus'])).toThrow(/unknown option/);
  });

  it('binds loopback only', async () => {
    await expect(startHost({ wasm: assemble('(module (memory (export "memory") 1) (func (export "_start")))'), toml: tomlFile(TOML), addr: '0.0.0.0:0' })).rejects.toMatchObject({ code: 'ADDR_NOT_LOOPBACK' });
  });
});

describe('hostcalls', () => {
  it('answers unsupported (5) for a call it does not implement', async () => {
    const wasm = assemble(reporter('(import "fastly_geo" "lookup" (func $x (param i32 i32 i32 i32 i32) (result i32)))', '(call $x (i32.const 0) (i32.const 4) (i32.const 16) (i32.const 64) (i32.const 80))'));
    expect(await statusOf(wasm)).toBe(605);
  });

  it('reads a declared config store and reports a missing key as none (10)', async () => {
    const open = '(import "fastly_config_store" "open" (func $open (param i32 i32 i32) (result i32))) (import "fastly_config_store" "get" (func $get (param i32 i32 i32 i32 i32 i32) (result i32)))';
    const hit = '(block (result i32) (drop (call $open (i32.const 200) (i32.const 8) (i32.const 300))) (call $get (i32.load (i32.const 300)) (i32.const 220) (i32.const 8) (i32.const 400) (i32.const 64) (i32.const 304)))';
    expect(await statusOf(assemble(reporter(open, hit)))).toBe(600);
    const miss = '(block (result i32) (drop (call $open (i32.const 200) (i32.const 8) (i32.const 300))) (call $get (i32.load (i32.const 300)) (i32.const 220) (i32.const 4) (i32.const 400) (i32.const 64) (i32.const 304)))';
    expect(await statusOf(assemble(reporter(open, miss)))).toBe(610);
    const noStore = '(call $open (i32.const 220) (i32.const 8) (i32.const 300))';
    expect(await statusOf(assemble(reporter(open, noStore)))).toBe(603);
  });

  it('refuses a send to an undeclared backend with inval (2)', async () => {
    const decl = '(import "fastly_http_req" "new" (func $qnew (param i32) (result i32))) (import "fastly_http_req" "send_async" (func $sa (param i32 i32 i32 i32 i32) (result i32))) (import "fastly_http_body" "new" (func $b2 (param i32) (result i32)))';
    const call = '(block (result i32) (drop (call $qnew (i32.const 300))) (drop (call $b2 (i32.const 304))) (call $sa (i32.load (i32.const 300)) (i32.load (i32.const 304)) (i32.const 220) (i32.const 8) (i32.const 308)))';
    expect(await statusOf(assemble(reporter(decl, call)))).toBe(602);
  });

  it('checks that a module imports only fastly_* and WASI', () => {
    const foreign = new WebAssembly.Module(assemble('(module (import "env" "f" (func)) (memory (export "memory") 1) (func (export "_start")))'));
    expect(() => checkImports(foreign)).toThrow(expect.objectContaining({ code: 'FOREIGN_IMPORT' }));
    const reactor = new WebAssembly.Module(assemble('(module (memory (export "memory") 1))'));
    expect(() => checkImports(reactor)).toThrow(expect.objectContaining({ code: 'NOT_A_COMMAND' }));
  });

  it('stops a guest that never finishes at the wall-clock limit and keeps serving', async () => {
    const spin = assemble('(module (memory (export "memory") 1) (func (export "_start") (loop $l (br $l))))');
    const h = await startHost({ wasm: spin, toml: tomlFile(TOML), addr: '127.0.0.1:0', workers: 1, requestTimeoutMs: 400 });
    try {
      const t = Date.now();
      expect((await fetch(`${h.url}/`, { signal: AbortSignal.timeout(5000) })).status).toBe(500);
      expect(Date.now() - t).toBeLessThan(3000);
      expect((await fetch(`${h.url}/`, { signal: AbortSignal.timeout(5000) })).status).toBe(500);
    } finally {
      await h.close();
    }
  });
});

describe('the Native binary in the host', () => {
  // The deployed binary when it was built; otherwise one built here (no packaging), never a skip.
  let wasm = join(ROOT, 'bin', 'main.wasm');
  beforeAll(() => {
    if (existsSync(wasm)) return;
    wasm = join(dir, 'main.wasm');
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'edge-build.mjs'), '--out', wasm], { cwd: ROOT, encoding: 'utf8', timeout: 900_000 });
    if (r.status !== 0) throw new Error(`edge build failed: ${r.stderr || r.stdout}`);
  }, 900_000);
  it('carries the parsed engine, not the configuration text beside it', async () => {
    // The snapshot wipes the embedded text and zeroes freed memory: a long run of the text is gone.
    const json = await configFor(join(ROOT, 'edge', 'context.mjs'));
    const bytes = readFileSync(wasm);
    expect(json.length).toBeGreaterThan(10_000);
    for (const at of [0, Math.floor(json.length / 2), json.length - 200]) expect(bytes.includes(Buffer.from(json.slice(at, at + 200)))).toBe(false);
  }, 60_000);

  it('streams a chunked request body into the core and answers', async () => {
    const h = await startHost({ wasm, toml: join(ROOT, 'fastly.toml'), addr: '127.0.0.1:0', workers: 1 });
    try {
      const text = envelope('server/discover', 'chunks');
      const body = new ReadableStream<Uint8Array>({
        async start(c) {
          for (const part of text.match(/[\s\S]{1,9}/g)!) {
            c.enqueue(new TextEncoder().encode(part));
            await new Promise((r) => setTimeout(r, 2));
          }
          c.close();
        },
      });
      const res = await fetch(`${h.url}/mcp`, { method: 'POST', headers: modernHeaders('server/discover'), body, duplex: 'half', signal: AbortSignal.timeout(5000) } as RequestInit);
      expect(res.status).toBe(200);
      expect((await res.json()).id).toBe('chunks');
    } finally {
      await h.close();
    }
  });
});

/** An edge module in the test directory: the declaration API imported as a service imports it. */
function edgeModule(name: string, lines: string[]): string {
  const mod = join(dir, name);
  writeFileSync(mod, ["import { EntityRouter, codec, handlers, mcp } from '@pulse-compute/mcp/pulse';", ...lines].join('\n'));
  return mod;
}

const PING = "export const tools = new EntityRouter('ping').operation('ping', { output: codec.string({ maxLength: 8 }), handler: handlers.static('pong') });";

describe('the static profile: an edge module exporting server = mcp({...})', () => {
  it('fails closed for a router with a JavaScript handler, with a clear message', async () => {
    const mod = edgeModule('js-router.mjs', [
      "export const tools = new EntityRouter('jsrouter').operation('hello', { output: codec.string({ maxLength: 16 }), handler: () => 'hi' });",
      "export const server = mcp({ router: tools, serverInfo: { name: 'js', version: '1.0.0' } });",
    ]);
    await expect(configFor(mod)).rejects.toMatchObject({
      code: 'NATIVE_INELIGIBLE',
      message: `${mod}: hello has a JavaScript handler, which target fastly-native does not run. The Native service runs only static, corpus and backend handlers; a router with JavaScript handlers ships as the Fastly JavaScript package: npm run edge:build:js`,
    });
  }, 60_000);

  it('builds from the declarations alone: a module whose top level throws after them still builds', async () => {
    const declared = [PING, "export const server = mcp({ router: tools, serverInfo: { name: 'ping', version: '1' } });"];
    const plain = edgeModule('ping.mjs', declared);
    const throws = edgeModule('ping-throws.mjs', [...declared, "throw new Error('evaluated');"]);
    // Run, the module throws; read, it is the same service as without the throw.
    await expect(import(throws)).rejects.toThrow('evaluated');
    const service = await edgeService(throws);
    expect(service.profile).toBe('static');
    expect(service.config()).toBe(await configFor(plain));
    expect(() => Engine.create(service.config())).not.toThrow();
  }, 60_000);

  it('lowers the ceilings by the declared limits, a lowered reply budget lowering the tool-result one', async () => {
    const mod = edgeModule('lowered.mjs', [PING, "export const server = mcp({ router: tools, serverInfo: { name: 'ping', version: '1' }, limits: { requestBytes: 16384, responseBytes: 20000 } });"]);
    const cfg = JSON.parse(await configFor(mod));
    expect(cfg.limits).toEqual({ ...STATIC_LIMITS, requestBytes: 16384, responseBytes: 20000, toolResultBytes: 20000 });
  }, 60_000);

  it('refuses a raise of a ceiling, as mcp() does', async () => {
    const mod = edgeModule('raised.mjs', [PING, "export const server = mcp({ router: tools, serverInfo: { name: 'ping', version: '1' }, limits: { requestBytes: 65536 } });"]);
    await expect(configFor(mod)).rejects.toMatchObject({
      code: 'NOT_BUILDABLE',
      message: `pulse-mcp build ${mod.replace(`${ROOT}/`, '')} --target fastly-native: limits.requestBytes: the static binding's ceiling is 32768; limits may only lower it`,
    });
  }, 60_000);

  it.each([
    ['an option the build does not read', "export const server = mcp({ router: tools, serverInfo: { name: 'p', version: '1' }, allowedOrigins: ['https://a.example'] });", 'the mcp() option allowedOrigins is not part of a built binding; a build reads router, serverInfo, legacyProtocol, limits, fastlyLogEndpoint'],
    ['a computed option', "const n = () => 1024;\nexport const server = mcp({ router: tools, serverInfo: { name: 'p', version: '1' }, limits: { requestBytes: n() } });", 'a call of n; the lowerer runs no application code'],
    ['a server not made by mcp()', "const make = () => ({});\nexport const server = make();", 'exports server, but not as a call of mcp() from @pulse-compute/mcp/pulse binding its router'],
  ])('refuses %s', async (_what, line, message) => {
    const mod = edgeModule(`refused-${_what.length}.mjs`, [PING, line]);
    await expect(configFor(mod)).rejects.toThrow(message);
  }, 60_000);
});

describe('the profile is chosen by what the edge module exports, never by a fallback', () => {
  it.each([
    ['neither server nor options', [PING], 'exports tools; an edge module must export `const server = mcp({ router, serverInfo })`'],
    ['a router with host options', [PING, "export const options = { serverInfo: { name: 'p', version: '1' } };"], 'exports options without catalog-backed tools'],
    ['both', [PING, "export const server = mcp({ router: tools, serverInfo: { name: 'p', version: '1' } });", 'export const options = {};'], 'exports both server and options'],
  ])('refuses a module exporting %s', async (what, lines, message) => {
    const mod = edgeModule(`profile-${what.length}.mjs`, lines);
    await expect(configFor(mod)).rejects.toMatchObject({ code: 'EDGE_MODULE', message: expect.stringContaining(message) });
  }, 60_000);

  it('serves catalog-backed tools: the endpoint a Fastly backend, the token from a secret store', async () => {
    const { compileRouter } = await import('../../src/compiler');
    const { EntityRouter, codec } = await import('../../src/pulse');
    const { routerDefinition } = await import('../../src/router/router');
    const r = new EntityRouter('remote').operation('lookup', { input: codec.object({ id: codec.string({ maxLength: 8 }) }), output: codec.boolean(), handler: () => true });
    const { catalog, schemaRegistry } = compileRouter(routerDefinition(r));
    writeFileSync(join(dir, 'catalog.json'), JSON.stringify(catalog));
    writeFileSync(join(dir, 'schemas.json'), JSON.stringify(schemaRegistry));
    const module = (token: string) => {
      const mod = join(dir, `catalog-edge-${token.length}.ts`);
      writeFileSync(
        mod,
        [
          "import { readFileSync } from 'node:fs';",
          `const read = (f: string) => JSON.parse(readFileSync(${JSON.stringify(dir)} + '/' + f, 'utf8'));`,
          `export const options = { tools: { catalog: read('catalog.json'), schemas: read('schemas.json'), routerId: 'remote', target: 'node-javascript', endpoint: 'https://rpc.example/', backend: 'rpc', backendBearerToken: ${token} } };`,
        ].join('\n'),
      );
      return mod;
    };
    const service = await edgeService(module("{ secretStore: 'edge', key: 'backend-token' }"));
    expect(service.profile).toBe('facade');
    const cfg = JSON.parse(service.config());
    expect(cfg.tools.tools[0].handler).toEqual({ kind: 'rpc', backend: 'rpc', url: 'https://rpc.example/', maxBytes: 1048576, bearer: { secretStore: 'edge', key: 'backend-token' } });
    const engine = Engine.create(JSON.stringify(cfg));
    expect(engine).toBeDefined();
    await expect(configFor(module("'in-the-binary'"))).rejects.toMatchObject({ code: 'PULSE_ERR_CONFIG', message: expect.stringMatching(/^tools\.backendBearerToken: a token given as text would be compiled into main\.wasm/) });
  }, 60_000);

  it('compiles the deployed service into the static binding\'s configuration, and its legacy variant', async () => {
    const service = await edgeService(join(ROOT, 'edge', 'context.mjs'));
    expect(service.profile).toBe('static');
    const json = service.config();
    const cfg = JSON.parse(json);
    // Exact POST /mcp, no allowed Origin (every Origin refused), the static ceilings.
    expect(Object.keys(cfg)).toEqual(['path', 'limits', 'serverInfo', 'tools']);
    expect(cfg.path).toBe('/mcp');
    expect(cfg.limits).toEqual(STATIC_LIMITS);
    expect(cfg.serverInfo).toEqual({ name: 'pulse-context', version: '0.1.0' });
    expect(cfg.tools.routerId).toBe('context');
    expect(() => Engine.create(json)).not.toThrow();
    const legacy = JSON.parse(service.config({ legacyProtocol: '2025-06-18' }));
    expect(legacy).toEqual({ ...cfg, legacyProtocol: '2025-06-18' });
  }, 60_000);
});
