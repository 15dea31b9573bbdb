// The Node Native host as the package ships it (dist/cjs/cli/compute-host, npm run build), copied
// where no node_modules can be resolved: its files import only node: built-ins and one another,
// smol-toml travels inside it exactly once, the host serves a Compute module configured by a
// fastly.toml, its Viceroy-compatible launcher runs, and CommonJS code imports its TOML reader and
// module check.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../support/run';

const ROOT = resolve(__dirname, '..', '..');
const SHIPPED = join(ROOT, 'dist', 'cjs', 'cli', 'compute-host');
let dir = '';
let host = '';

// A guest that answers 200 with the value of `greeting` from the config store `settings`.
const GUEST = `(module
  (import "fastly_config_store" "open" (func $open (param i32 i32 i32) (result i32)))
  (import "fastly_config_store" "get" (func $get (param i32 i32 i32 i32 i32 i32) (result i32)))
  (import "fastly_http_req" "body_downstream_get" (func $dget (param i32 i32) (result i32)))
  (import "fastly_http_resp" "new" (func $rnew (param i32) (result i32)))
  (import "fastly_http_resp" "send_downstream" (func $send (param i32 i32 i32) (result i32)))
  (import "fastly_http_body" "new" (func $bnew (param i32) (result i32)))
  (import "fastly_http_body" "write" (func $bwrite (param i32 i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 200) "settings")
  (data (i32.const 220) "greeting")
  (func (export "_start")
    (drop (call $dget (i32.const 100) (i32.const 104)))
    (drop (call $open (i32.const 200) (i32.const 8) (i32.const 300)))
    (drop (call $get (i32.load (i32.const 300)) (i32.const 220) (i32.const 8) (i32.const 400) (i32.const 64) (i32.const 304)))
    (drop (call $rnew (i32.const 108)))
    (drop (call $bnew (i32.const 112)))
    (drop (call $bwrite (i32.load (i32.const 112)) (i32.const 400) (i32.load (i32.const 304)) (i32.const 0) (i32.const 308)))
    (drop (call $send (i32.load (i32.const 108)) (i32.load (i32.const 112)) (i32.const 0)))))`;

// TOML a line-by-line reader would not get right: a literal string with quotes and a backslash.
const TOML = `manifest_version = 3
name = "shipped-host"
language = "other"

[local_server.config_stores.settings]
format = "inline-toml"
[local_server.config_stores.settings.contents]
greeting = 'read by the "shipped" host \\ from TOML'
`;
const GREETING = 'read by the "shipped" host \\ from TOML';

beforeAll(() => {
  expect(existsSync(join(SHIPPED, 'host.mjs')), 'dist/ built (npm run build)').toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'pulse-shipped-host-'));
  host = join(dir, 'compute-host');
  cpSync(SHIPPED, host, { recursive: true });
  writeFileSync(join(dir, 'fastly.toml'), TOML);
  writeFileSync(join(dir, 'guest.wat'), GUEST);
  const wasmAs = existsSync('/usr/bin/wasm-as') ? '/usr/bin/wasm-as' : join(ROOT, 'node_modules', '.bin', 'wasm-as');
  const r = spawnSync(wasmAs, [join(dir, 'guest.wat'), '-o', join(dir, 'guest.wasm')], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every module specifier of a shipped file: static imports and re-exports, dynamic imports. */
function specifiers(text: string): string[] {
  return [...text.matchAll(/\b(?:from|import)\s*\(?\s*(['"])([^'"]+)\1/g)].map((m) => m[2]);
}

describe('the shipped Node Native host', () => {
  it('lives outside the checkout, where smol-toml cannot be resolved', () => {
    expect(relative(ROOT, dir).startsWith('..')).toBe(true);
    expect(() => createRequire(join(host, 'host.mjs')).resolve('smol-toml')).toThrow(expect.objectContaining({ code: 'MODULE_NOT_FOUND' }));
  });

  it('imports only node: built-ins and its own files, and carries smol-toml once', () => {
    const files = readdirSync(host).sort();
    expect(files).toEqual(expect.arrayContaining(['compute-module.mjs', 'host.mjs', 'toml.mjs', 'viceroy', 'worker.mjs']));
    const modules = files.filter((f) => f.endsWith('.mjs'));
    const foreign = modules.flatMap((f) => specifiers(readFileSync(join(host, f), 'utf8')).filter((s) => !s.startsWith('node:') && !modules.includes(s.replace(/^\.\//, ''))).map((s) => `${f}: ${s}`));
    expect(foreign).toEqual([]);
    // Its copyright notice, which the bundler keeps with its code.
    expect(modules.filter((f) => readFileSync(join(host, f), 'utf8').includes('Copyright (c) Squirrel Chat'))).toHaveLength(1);
  });

  it('serves a Compute module configured by fastly.toml, run as `node host.mjs -C fastly.toml --addr … main.wasm`', async () => {
    const child = spawn(process.execPath, [join(host, 'host.mjs'), '-C', 'fastly.toml', '--addr', '127.0.0.1:0', 'guest.wasm'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((ok) => child.once('exit', ok));
    try {
      const url = await new Promise<string>((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`no listening line within 10 s: ${stderr}`)), 10_000);
        child.stdout.on('data', () => {
          const m = /^Listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout);
          if (m) {
            clearTimeout(timer);
            ok(m[1]);
          }
        });
        void exited.then((code) => {
          clearTimeout(timer);
          fail(new Error(`the host exited ${code}: ${stderr}`));
        });
      });
      const res = await fetch(`${url}/`, { signal: AbortSignal.timeout(5000) });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(GREETING);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('runs its Viceroy-compatible launcher', async () => {
    const r = await run(join(host, 'viceroy'), ['--version'], { cwd: dir, timeoutMs: 10_000 });
    expect(r).toMatchObject({ status: 0, stdout: expect.stringMatching(/^pulse-native-host \S+ /) });
  });

  it('lends its TOML reader and module check to CommonJS through import()', async () => {
    writeFileSync(join(dir, 'bad.toml'), 'name = \n');
    writeFileSync(
      join(dir, 'probe.cjs'),
      `(async () => {
  const { readToml } = await import('./compute-host/toml.mjs');
  const { checkImports } = await import('./compute-host/compute-module.mjs');
  const fs = require('node:fs');
  const greeting = readToml('fastly.toml').local_server.config_stores.settings.contents.greeting;
  let bad;
  try { readToml('bad.toml'); } catch (e) { bad = { code: e.code, message: e.message }; }
  checkImports(new WebAssembly.Module(fs.readFileSync('guest.wasm')));
  let foreign;
  try { checkImports(new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))); } catch (e) { foreign = e.code; }
  process.stdout.write(JSON.stringify({ greeting, bad, foreign }));
})();
`,
    );
    const r = await run(process.execPath, ['probe.cjs'], { cwd: dir, timeoutMs: 10_000 });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ greeting: GREETING, bad: { code: 'TOML_SYNTAX', message: expect.stringMatching(/^bad\.toml line 1: /) }, foreign: 'NOT_A_COMMAND' });
  });
});
