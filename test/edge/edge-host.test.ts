// The Node Native host on its own: fastly.toml reading (loopback-only backends), the Viceroy command
// line, the ABI's `unsupported` status for every call it does not implement, import checks, the
// wall-clock limit on a guest that never finishes, and the Native binary's streaming body reads.
// Guests are assembled from WebAssembly text with binaryen's wasm-as (installed with the toolchain).
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, parseArgs } from '../../src/cli/compute-host/host.mjs';
import { loadHostConfig } from '../../src/cli/compute-host/config.mjs';
import { checkImports } from '../../src/cli/compute-host/compute-module.mjs';
import { envelope, modernHeaders } from '../support/fixtures';
import { serviceConfig } from '../../src/cli/service-module';
import { buildNative } from '../support/viceroy';
import { assemble } from '../support/wat';

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
    await expect(startHost({ wasm: assemble(dir, '(module (memory (export "memory") 1) (func (export "_start")))'), toml: tomlFile(TOML), addr: '0.0.0.0:0' })).rejects.toMatchObject({ code: 'ADDR_NOT_LOOPBACK' });
  });
});

describe('hostcalls', () => {
  it('answers unsupported (5) for a call it does not implement', async () => {
    const wasm = assemble(dir, reporter('(import "fastly_geo" "lookup" (func $x (param i32 i32 i32 i32 i32) (result i32)))', '(call $x (i32.const 0) (i32.const 4) (i32.const 16) (i32.const 64) (i32.const 80))'));
    expect(await statusOf(wasm)).toBe(605);
  });

  it('reads a declared config store and reports a missing key as none (10)', async () => {
    const open = '(import "fastly_config_store" "open" (func $open (param i32 i32 i32) (result i32))) (import "fastly_config_store" "get" (func $get (param i32 i32 i32 i32 i32 i32) (result i32)))';
    const hit = '(block (result i32) (drop (call $open (i32.const 200) (i32.const 8) (i32.const 300))) (call $get (i32.load (i32.const 300)) (i32.const 220) (i32.const 8) (i32.const 400) (i32.const 64) (i32.const 304)))';
    expect(await statusOf(assemble(dir, reporter(open, hit)))).toBe(600);
    const miss = '(block (result i32) (drop (call $open (i32.const 200) (i32.const 8) (i32.const 300))) (call $get (i32.load (i32.const 300)) (i32.const 220) (i32.const 4) (i32.const 400) (i32.const 64) (i32.const 304)))';
    expect(await statusOf(assemble(dir, reporter(open, miss)))).toBe(610);
    const noStore = '(call $open (i32.const 220) (i32.const 8) (i32.const 300))';
    expect(await statusOf(assemble(dir, reporter(open, noStore)))).toBe(603);
  });

  it('refuses a send to an undeclared backend with inval (2)', async () => {
    const decl = '(import "fastly_http_req" "new" (func $qnew (param i32) (result i32))) (import "fastly_http_req" "send_async" (func $sa (param i32 i32 i32 i32 i32) (result i32))) (import "fastly_http_body" "new" (func $b2 (param i32) (result i32)))';
    const call = '(block (result i32) (drop (call $qnew (i32.const 300))) (drop (call $b2 (i32.const 304))) (call $sa (i32.load (i32.const 300)) (i32.load (i32.const 304)) (i32.const 220) (i32.const 8) (i32.const 308)))';
    expect(await statusOf(assemble(dir, reporter(decl, call)))).toBe(602);
  });

  it('checks that a module imports only fastly_* and WASI', () => {
    const foreign = new WebAssembly.Module(assemble(dir, '(module (import "env" "f" (func)) (memory (export "memory") 1) (func (export "_start")))'));
    expect(() => checkImports(foreign)).toThrow(expect.objectContaining({ code: 'FOREIGN_IMPORT' }));
    const reactor = new WebAssembly.Module(assemble(dir, '(module (memory (export "memory") 1))'));
    expect(() => checkImports(reactor)).toThrow(expect.objectContaining({ code: 'NOT_A_COMMAND' }));
  });

  it('stops a guest that never finishes at the wall-clock limit and keeps serving', async () => {
    const spin = assemble(dir, '(module (memory (export "memory") 1) (func (export "_start") (loop $l (br $l))))');
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
  // The deployed service, configured here as `pulse-mcp build --wasm` configures it.
  const wasm = join(dir, 'main.wasm');
  let json = '';
  beforeAll(async () => {
    json = (await serviceConfig(join(ROOT, 'edge', 'context.mjs'))).configJson;
    await buildNative(json, wasm);
  }, 60_000);
  it('carries the parsed engine, not the configuration text beside it', async () => {
    // The configuration is read from standard input and freed memory is zeroed: a long run of the text is gone.
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
