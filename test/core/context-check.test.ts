// Engine.check (pulse_engine_check) directly, on the wasm core and on the wasm2js fallback, and
// ctx.call's validation where WebAssembly is absent: every target runs the same codec program.
import { describe, expect, it } from 'vitest';
import { compileRouter } from '../../src/compiler';
import { Engine } from '../../src/core/engine';
import { codec, EntityRouter, type HandlerContext } from '../../src/pulse';
import { toolSource } from '../../src/router';
import { routerDefinition } from '../../src/router/router';

function router(): EntityRouter {
  return new EntityRouter('check')
    .operation('typed', {
      input: codec.object({ n: codec.i32() }),
      output: codec.object({ n: codec.i32() }),
      handler: ((_ctx: HandlerContext, i: Record<string, unknown>) => i) as never,
    })
    .operation('bare', { handler: () => null })
    .operation('caller', {
      output: codec.json(),
      handler: (async (ctx: HandlerContext) => [
        await ctx.call('typed', { n: 3, extra: 1 }),
        await ctx.call('typed', { n: 2 ** 31 }).catch((e: Error) => e.message),
      ]) as never,
    });
}

/** Runs `f` with `globalThis.WebAssembly` removed, so the loader picks the wasm2js core. */
async function withoutWasm<T>(f: () => Promise<T> | T): Promise<T> {
  const g = globalThis as { WebAssembly?: unknown };
  const saved = g.WebAssembly;
  delete g.WebAssembly;
  try {
    return await f();
  } finally {
    g.WebAssembly = saved;
  }
}

function checks(engine: Engine): unknown[] {
  return [
    engine.check('typed', 'input', { n: 1, extra: 'x' }),
    engine.check('typed', 'input', { n: 'x' }),
    engine.check('typed', 'output', { n: -(2 ** 31) - 1 }),
    engine.check('bare', 'input', {}),
    engine.check('bare', 'output', 5),
  ];
}

const EXPECTED = [
  { ok: true, value: { n: 1 } },
  { ok: false, path: '$.n', message: 'Expected an integer' },
  { ok: false, path: '$.n', message: 'Integer out of range' },
  { ok: true, value: undefined },
  { ok: true, value: null },
];

describe('Engine.check', () => {
  const config = () => JSON.stringify({ tools: compileRouter(routerDefinition(router())).manifest });

  it('answers the same on the wasm core and the wasm2js core', async () => {
    expect(checks(Engine.create(config()))).toEqual(EXPECTED);
    expect(await withoutWasm(() => checks(Engine.create(config())))).toEqual(EXPECTED);
  });

  it('throws a fixed core error for an unknown operation or an engine without tools', () => {
    expect(() => Engine.create(config()).check('missing', 'input', {})).toThrow('core: check failed');
    expect(() => Engine.create('{}').check('typed', 'input', {})).toThrow('core: check failed');
  });

  it('ctx.call validates through the wasm2js core where WebAssembly is absent', async () => {
    const out = await withoutWasm(() => toolSource(router()).handlers!.run('caller', undefined, { timeoutMs: 2000 }));
    expect(out).toEqual({ ok: true, output: [{ n: 3 }, 'Called operation input failed validation at $.n: Integer out of range'] });
  });
});
