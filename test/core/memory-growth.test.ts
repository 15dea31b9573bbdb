// The core's linear memory grows while requests are in flight (their bodies held in the core). The
// host keeps one view of that memory between calls, so after the growth every byte it writes and
// reads must still be the core's: for the wasm form, whose growth detaches the old buffer, and for
// the wasm2js form, whose growth replaces its buffer without detaching it.
import { describe, expect, it } from 'vitest';
import { Engine, type Action } from '../../src/core/engine';
import type { CoreExports } from '../../src/core/exports';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const HEADERS = ['accept', 'application/json, text/event-stream', 'content-type', 'application/json', 'mcp-protocol-version', '2026-07-28', 'mcp-method', 'server/discover'];
/** Requests held open at once, each with a body near the 64 KiB limit: several MiB in the core. */
const HELD = 96;

function discover(id: number, padBytes: number): Uint8Array {
  const params = { _meta: { ...META, 'io.example/pad': 'p'.repeat(padBytes) } };
  return new TextEncoder().encode(JSON.stringify({ jsonrpc: '2.0', id, method: 'server/discover', params }));
}

const text = (a: Action) => (a.kind === 'respond' ? { status: a.status, body: new TextDecoder().decode(a.body) } : a.kind);

/** The byte length of the engine's linear memory (the instance is private to the engine). */
const memoryBytes = (engine: Engine) => (engine as unknown as { core: CoreExports }).core.memory.buffer.byteLength;

function growsAndAgrees(): void {
  const engine = Engine.create('{}');
  const one = (id: number, pad: number) => {
    const r = engine.request(0);
    expect(r.head('POST', '/mcp', HEADERS, 0).kind).toBe('continue');
    expect(r.body(discover(id, pad), 0).kind).toBe('continue');
    return r;
  };
  const first = one(1, 16);
  const expected = text(first.end(0));
  first.free();
  expect(expected).toMatchObject({ status: 200 });
  const before = memoryBytes(engine);
  // Every body is held in the core until its end: the memory has to grow on the way.
  const held = Array.from({ length: HELD }, (_, i) => one(i + 2, 60 * 1024));
  expect(memoryBytes(engine)).toBeGreaterThan(before);
  held.forEach((r, i) => {
    expect(text(r.end(0))).toEqual({ status: 200, body: (expected as { body: string }).body.replace('"id":1', `"id":${i + 2}`) });
    r.free();
  });
  const last = one(1, 16);
  expect(text(last.end(0))).toEqual(expected);
  last.free();
}

describe('core memory growing while requests are in flight', () => {
  it('wasm: the host reads and writes the grown memory', growsAndAgrees);

  it('wasm2js: the host reads and writes the grown memory', () => {
    const g = globalThis as { WebAssembly?: unknown };
    const saved = g.WebAssembly;
    delete g.WebAssembly;
    try {
      growsAndAgrees();
    } finally {
      g.WebAssembly = saved;
    }
  });
});
