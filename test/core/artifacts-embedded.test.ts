// The committed core artifacts under wasm/ are the only form of the core in the repository: the
// manifest describes them, and the glue the sources import (src/core/generated, gitignored) is
// derived from them, nothing else.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GLUE, SOURCES, coreGlue } from '../../scripts/core-glue.mjs';
import type { CoreExports } from '../../src/core/exports';
import { DEFAULT_LIMITS, RESPONSE_HEADROOM_BYTES } from '../../src/limits';
import { run } from '../support/run';

const root = path.resolve(__dirname, '..', '..');
const read = (f: string) => readFileSync(path.join(root, f));
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** The core's pulse_defaults_* answer, read here without the glue generator. */
function coreDefaults(): { limits: Record<string, number>; responseHeadroomBytes: number } {
  const core = new WebAssembly.Instance(new WebAssembly.Module(read('wasm/pulse_core.wasm')), {}).exports as unknown as CoreExports;
  const len = core.pulse_defaults_len();
  const ptr = core.pulse_defaults_ptr();
  return JSON.parse(Buffer.from(core.memory.buffer, ptr, len).toString('utf8'));
}

describe('committed core artifacts and the glue derived from them', () => {
  const manifest = JSON.parse(read('wasm/manifest.json').toString('utf8'));

  it('manifest sizes and sha256 match wasm/ files', () => {
    for (const key of ['wasm', 'wasm2js', 'nativeService']) {
      const bytes = read(path.join('wasm', manifest[key].file));
      expect({ bytes: bytes.length, sha256: sha(bytes) }, key).toEqual({ bytes: manifest[key].bytes, sha256: manifest[key].sha256 });
    }
  });

  it('the glue on disk is what the generator derives from the committed files', () => {
    const fresh = coreGlue(root);
    expect(Object.keys(fresh).sort()).toEqual(Object.values(GLUE).sort());
    for (const [file, text] of Object.entries(fresh)) expect(read(file).toString('utf8'), file).toBe(text);
  });

  it('the CommonJS wasm2js glue is the committed wasm2js module, re-exported and nothing else', () => {
    const committed = read(SOURCES.wasm2js);
    const glue = read(GLUE.wasm2js).toString('utf8');
    expect(glue).toContain(`(sha256 ${sha(committed)})`);
    const body = committed.toString('utf8').replace('export function createPulseCore() {', 'function createPulseCore() {');
    const start = glue.indexOf(body);
    expect(start, 'the committed text appears whole').toBeGreaterThan(0);
    expect(glue.slice(start + body.length)).toBe('exports.createCoreWasm2js = createPulseCore;\n');
    expect(glue.slice(0, start).split('\n').filter((l) => l !== '' && !l.startsWith('//'))).toEqual(["'use strict';"]);
  });

  it('DEFAULT_LIMITS and RESPONSE_HEADROOM_BYTES are the core\'s pulse_defaults export', () => {
    const d = coreDefaults();
    expect(Object.isFrozen(DEFAULT_LIMITS)).toBe(true);
    expect(DEFAULT_LIMITS).toStrictEqual({
      requestBytes: d.limits.requestBytes,
      responseBytes: d.limits.responseBytes,
      depth: d.limits.depth,
      deadlineMs: d.limits.deadlineMs,
    });
    expect(RESPONSE_HEADROOM_BYTES).toBe(d.responseHeadroomBytes);
    expect(read(GLUE.defaults).toString('utf8')).toContain(`(sha256 ${sha(read(SOURCES.wasm))})`);
  });

  it('the wasm2js variant carries no SIMD and imports nothing from the host', () => {
    const text = read('wasm/pulse_core.wasm2js.js').toString('utf8');
    expect(text).not.toMatch(/^\s*import\b/m);
    expect(manifest.wasm2js.features ?? []).not.toContain('simd128');
  });

  it('the repository tracks the core only under wasm/: the glue is ignored, no tracked source embeds it', async () => {
    for (const file of Object.values(GLUE)) {
      const r = await run('git', ['check-ignore', '-q', file], { cwd: root, timeoutMs: 10_000 });
      expect(r.status, `${file} is gitignored`).toBe(0);
    }
    const listed = await run('git', ['ls-files', '-z', '--', 'src', 'test', 'edge', 'tools'], { cwd: root, timeoutMs: 10_000 });
    expect(listed.status).toBe(0);
    // Samples of each form: the wasm's first bytes as base64, and the wasm2js build's longest line.
    const wasmHead = read(SOURCES.wasm).subarray(0, 48).toString('base64');
    const jsLine = read(SOURCES.wasm2js).toString('utf8').split('\n').reduce((a, b) => (b.length > a.length ? b : a));
    expect(jsLine.length).toBeGreaterThan(1000);
    const embedding = listed.stdout.split('\0').filter((f) => f !== '').filter((f) => {
      const text = read(f).toString('latin1');
      return text.includes(jsLine) || text.includes(wasmHead);
    });
    expect(embedding).toEqual([]);
  });
});

describe('the version the core states', () => {
  it("is the package's own: a handler without serverInfo discovers as pulse-mcp at package.json's version", async () => {
    const { createMcpHttpHandler } = await import('../../src/index');
    const { envelope, modernHeaders } = await import('../support/fixtures');
    const version = JSON.parse(read('package.json').toString('utf8')).version;
    const res = await createMcpHttpHandler().fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: modernHeaders('server/discover'), body: envelope('server/discover', 1) }));
    expect((await res.json()).result._meta['io.modelcontextprotocol/serverInfo']).toEqual({ name: 'pulse-mcp', version });
  });
});
