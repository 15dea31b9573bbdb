// The loader's default core, from the TypeScript sources: where WebAssembly exists it is the package's
// wasm file, read and compiled once per process, and the wasm2js build is never loaded; without a
// file system it is a PulseConfigError naming `core`; without WebAssembly it is the wasm2js build.
// Test files run in their own process (vitest forks), so the module-level cache starts empty here.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GLUE } from '../../scripts/core-glue.mjs';
import { createMcpHttpHandler } from '../../src/index';
import { createMcpNodeHandler } from '../../src/node';
import { envelope, modernHeaders } from '../support/fixtures';
import { thrown } from '../support/thrown';

const root = path.resolve(__dirname, '..', '..');
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const wasm2jsGlue = path.join(root, GLUE.wasm2js);
const wasm2jsLoaded = () => Object.keys(require.cache).includes(wasm2jsGlue);

async function discover(h: { fetch(r: Request): Promise<Response> }): Promise<number> {
  const headers = new Headers(modernHeaders('server/discover'));
  const res = await h.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: envelope('server/discover', 1) }));
  await res.arrayBuffer();
  return res.status;
}

/** Runs `f` with `owner[key]` replaced (or removed when `value` is undefined), then restores it. */
function replaced<T>(owner: object, key: string, value: unknown, f: () => T): T {
  const o = owner as Record<string, unknown>;
  const had = key in o;
  const saved = o[key];
  if (value === undefined) delete o[key];
  else o[key] = value;
  try {
    return f();
  } finally {
    if (had) o[key] = saved;
  }
}

describe('the loader picks the core by what the runtime has', () => {
  it('without a way to read files, construction throws a PulseConfigError asking for core', () => {
    for (const create of [() => createMcpHttpHandler({}), () => createMcpNodeHandler({})]) {
      const error = replaced(process, 'getBuiltinModule', undefined, () => thrown(create));
      expect(error).toMatchObject({ name: 'PulseConfigError', code: 'PULSE_ERR_CONFIG' });
      expect((error as Error).message).toMatch(/pass the pulse_core\.wasm module or its bytes as core$/);
    }
    // An explicit core needs no file system.
    const core = new WebAssembly.Module(readFileSync(path.join(root, 'wasm', 'pulse_core.wasm')));
    expect(replaced(process, 'getBuiltinModule', undefined, () => thrown(() => createMcpHttpHandler({ core })))).toBeUndefined();
  });

  it('with WebAssembly: the package wasm, compiled once for every handler, and wasm2js never loaded', async () => {
    const compiled: string[] = [];
    const counting = new Proxy(WebAssembly.Module, {
      construct(target, args: [Uint8Array]) {
        compiled.push(sha(args[0]));
        return Reflect.construct(target, args);
      },
    });
    const handlers = replaced(WebAssembly, 'Module', counting, () => [
      createMcpHttpHandler({}),
      createMcpHttpHandler({ limits: { depth: 8 } }),
      createMcpNodeHandler({}),
    ]);
    expect(compiled).toEqual([sha(readFileSync(path.join(root, 'wasm', 'pulse_core.wasm')))]);
    expect(await discover(handlers[0] as { fetch(r: Request): Promise<Response> })).toBe(200);
    expect(wasm2jsLoaded()).toBe(false);
  });

  it('without WebAssembly: the wasm2js build, loaded then and only then', async () => {
    expect(wasm2jsLoaded()).toBe(false);
    const h = replaced(globalThis, 'WebAssembly', undefined, () => createMcpHttpHandler({}));
    expect(wasm2jsLoaded()).toBe(true);
    expect(await discover(h)).toBe(200);
  });
});
