// Errors users can catch: one PulseErrorCode union, the error classes exported as values from every
// entry with one identity (so `instanceof` holds whichever entry a user imported from, in the sources
// and in the built CommonJS and ESM files), and the user documentation's table of codes checked against
// the code both ways, each example message being the one the code really throws.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as root from '../../src/index';
import * as node from '../../src/node';
import * as pulse from '../../src/pulse';
import type { HandlerContext, PulseErrorCode } from '../../src/pulse';
import { toolSource } from '../../src/router';
import { run } from '../support/run';

const repo = path.resolve(__dirname, '..', '..');
const CLASSES = ['PulseError', 'PulseConfigError', 'PulseCoreError', 'PulseRouterError', 'ManifestError'] as const;
type ClassName = (typeof CLASSES)[number];

/** Every code and the class that carries it; `satisfies` makes it exactly the union's members. */
const CLASS_OF = {
  PULSE_ERR_CONFIG: 'PulseConfigError',
  PULSE_ERR_CORE: 'PulseCoreError',
  PULSE_ERR_MANIFEST: 'ManifestError',
  PULSE_ERR_DECLARATION: 'PulseRouterError',
  PULSE_ERR_CODEC: 'PulseRouterError',
  PULSE_ERR_FROZEN: 'PulseRouterError',
  PULSE_ERR_NATIVE_INELIGIBLE: 'PulseRouterError',
  PULSE_ERR_OPTIONS: 'PulseRouterError',
  PULSE_ERR_FETCH_DENIED: 'PulseRouterError',
  PULSE_ERR_FETCH_FAILED: 'PulseRouterError',
  PULSE_ERR_BUDGET: 'PulseRouterError',
  PULSE_ERR_DEADLINE: 'PulseRouterError',
  PULSE_ERR_CONTEXT_CLOSED: 'PulseRouterError',
  PULSE_ERR_CALL: 'PulseRouterError',
  PULSE_ERR_SECRET: 'PulseRouterError',
  PULSE_ERR_KV: 'PulseRouterError',
} as const satisfies Record<PulseErrorCode, Exclude<ClassName, 'PulseError'>>;

// Each concrete class carries exactly its codes, and together they carry the whole union.
type CodeOf<C extends ClassName> = { [K in keyof typeof CLASS_OF]: (typeof CLASS_OF)[K] extends C ? K : never }[keyof typeof CLASS_OF];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const typed: [
  Same<root.PulseConfigError['code'], CodeOf<'PulseConfigError'>>,
  Same<root.PulseCoreError['code'], CodeOf<'PulseCoreError'>>,
  Same<root.ManifestError['code'], CodeOf<'ManifestError'>>,
  Same<root.PulseRouterError['code'], CodeOf<'PulseRouterError'>>,
  Same<root.PulseError['code'], PulseErrorCode>,
] = [true, true, true, true, true];

describe('the error classes, from the sources', () => {
  it('are values of every entry, one identity each, all PulseError subclasses', () => {
    expect(typed).toEqual([true, true, true, true, true]);
    for (const name of [...CLASSES, 'isPulseRouterError'] as const) {
      expect(typeof root[name], name).toBe('function');
      expect(node[name], `/node ${name}`).toBe(root[name]);
      expect(pulse[name], `/pulse ${name}`).toBe(root[name]);
    }
    for (const name of CLASSES.slice(1)) expect(root[name].prototype instanceof root.PulseError, name).toBe(true);
  });

  it('an error thrown through one entry is instanceof the class imported from another', () => {
    const e = caught(() => node.createMcpNodeHandler({ path: 'mcp' }));
    expect(e).toBeInstanceOf(root.PulseConfigError);
    expect(e).toBeInstanceOf(pulse.PulseError);
    const r = caught(() => new pulse.EntityRouter('bad id'));
    expect(r).toBeInstanceOf(root.PulseRouterError);
    expect(r).toBeInstanceOf(node.PulseError);
    expect(root.isPulseRouterError(r)).toBe(true);
    expect(root.isPulseRouterError(e)).toBe(false);
  });
});

/** The documented table: one row per code, `code`, `class`, when, `example message`. */
function documented(): { code: string; cls: string; example: string }[] {
  const rows = readFileSync(path.join(repo, 'docs', 'errors.md'), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('| `PULSE_ERR_'));
  return rows.map((l) => {
    const m = /^\| `(PULSE_ERR_[A-Z_]+)` \| `(\w+)` \| [^|]+ \| `([^`]+)` \|$/.exec(l);
    expect(m, `malformed row: ${l}`).not.toBeNull();
    return { code: m![1], cls: m![2], example: m![3] };
  });
}

function caught(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}

async function rejected(f: () => unknown): Promise<unknown> {
  try {
    await f();
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

const serverInfo = { name: 'errors', version: '1' };
const { EntityRouter, codec, handlers, mcp } = pulse;

/** The handler context's refusals, each caught inside (or, for the ended context, after) a run. */
async function contextErrors(): Promise<Partial<Record<PulseErrorCode, unknown>>> {
  const got: Partial<Record<PulseErrorCode, unknown>> = {};
  let kept: HandlerContext | undefined;
  const open = codec.object({}, { open: true });
  const r = new EntityRouter('ctx', { backends: { api: 'https://api.example' }, budgets: { calls: 1 } })
    .operation('probe', {
      input: open,
      output: codec.json({ maxBytes: 4096 }),
      handler: async (ctx) => {
        kept = ctx;
        got.PULSE_ERR_FETCH_DENIED = await rejected(() => ctx.fetch('https://elsewhere.example/'));
        got.PULSE_ERR_FETCH_FAILED = await rejected(() => ctx.fetch('/relative'));
        got.PULSE_ERR_SECRET = caught(() => ctx.secret('no spaces allowed'));
        got.PULSE_ERR_KV = await rejected(() => ctx.kv.get(''));
        got.PULSE_ERR_CALL = await rejected(() => ctx.call('undeclared'));
        await ctx.call('leaf');
        got.PULSE_ERR_BUDGET = await rejected(() => ctx.call('leaf'));
        return null;
      },
    })
    .operation('leaf', { input: open, output: codec.json({ maxBytes: 64 }), handler: () => null })
    .operation('slow', {
      input: open,
      output: codec.json({ maxBytes: 64 }),
      handler: (ctx) => {
        // Past the deadline without yielding, so the context has not been closed yet.
        while (Date.now() <= ctx.deadline) continue;
        got.PULSE_ERR_DEADLINE = caught(() => ctx.secret('late'));
        return null;
      },
    });
  const source = toolSource(r);
  expect(await source.handlers!.run('probe', {}, { timeoutMs: 2000 })).toEqual({ ok: true, output: null });
  got.PULSE_ERR_CONTEXT_CLOSED = caught(() => kept!.secret('after'));
  await source.handlers!.run('slow', {}, { timeoutMs: 20 });
  return got;
}

/** One real error per code, provoked through the public entries (the core's own failures aside). */
async function provoked(): Promise<Partial<Record<PulseErrorCode, unknown>>> {
  const js = () => new EntityRouter('js').operation('hello', { output: codec.string({ maxLength: 8 }), handler: () => 'hi' });
  const bound = js();
  mcp({ router: bound, serverInfo });
  const getWithInput = new EntityRouter('rpc', { backends: { api: 'https://api.example' } }).operation('find', {
    input: codec.object({ id: codec.string({ maxLength: 8 }) }),
    output: codec.json({ maxBytes: 1024 }),
    handler: handlers.backend({ backend: 'api', method: 'GET', path: '/items', maxBytes: 1024, timeoutMs: 1000 }),
  });
  return {
    PULSE_ERR_CONFIG: caught(() => node.createMcpNodeHandler({ path: 'mcp' })),
    PULSE_ERR_MANIFEST: caught(() => mcp({ router: getWithInput, serverInfo })),
    PULSE_ERR_DECLARATION: caught(() => new EntityRouter('bad id')),
    PULSE_ERR_CODEC: caught(() => codec.enum([] as never)),
    PULSE_ERR_FROZEN: caught(() => bound.operation('late', { handler: () => null })),
    PULSE_ERR_NATIVE_INELIGIBLE: caught(() => pulse.assertNativeEligible(js())),
    PULSE_ERR_OPTIONS: caught(() => pulse.jsonRpc({} as never)),
    ...(await contextErrors()),
  };
}

describe('the documented codes', () => {
  it('the table lists every code of the union once, with its class, and nothing else', () => {
    const rows = documented();
    expect(rows.map((r) => r.code).sort()).toEqual(Object.keys(CLASS_OF).sort());
    expect(Object.fromEntries(rows.map((r) => [r.code, r.cls]))).toEqual(CLASS_OF);
  });

  it("each row's example is the message its code really throws, from its class", async () => {
    const got = await provoked();
    for (const { code, cls, example } of documented()) {
      if (code === 'PULSE_ERR_CORE') {
        // The core's own failures are bugs no input provokes: the example is one of its fixed texts.
        const core = readdirSync(path.join(repo, 'src', 'core')).filter((f) => f.endsWith('.ts'));
        expect(core.some((f) => readFileSync(path.join(repo, 'src', 'core', f), 'utf8').includes(`PulseCoreError('${example}')`)), example).toBe(true);
        continue;
      }
      const e = got[code as PulseErrorCode];
      expect(e, code).toBeInstanceOf(root[cls as ClassName]);
      expect(e, code).toBeInstanceOf(root.PulseError);
      expect({ code: (e as root.PulseError).code, message: (e as Error).message }, code).toEqual({ code, message: example });
    }
  });
});

describe('the error classes, from the built package', () => {
  let dir: string;
  beforeAll(() => {
    expect(existsSync(path.join(repo, 'dist', 'cjs', 'index.js')), 'dist/ built (npm run build)').toBe(true);
    dir = mkdtempSync(path.join(repo, 'native', 'target', 'errors-test-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('CommonJS and ESM entries share one class per name, and an error from /node is instanceof the root class', async () => {
    const script = path.join(dir, 'identity.mjs');
    writeFileSync(
      script,
      `import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const dist = ${JSON.stringify(path.join(repo, 'dist'))};
const names = ${JSON.stringify([...CLASSES, 'isPulseRouterError'])};
const faces = {};
for (const entry of ['index', 'node', 'pulse']) {
  faces['cjs/' + entry] = require(dist + '/cjs/' + entry + '.js');
  faces['esm/' + entry] = await import(dist + '/esm/' + entry + '.mjs');
}
const root = faces['cjs/index'];
const differing = [];
for (const [face, mod] of Object.entries(faces)) for (const n of names) if (typeof mod[n] !== 'function' || mod[n] !== root[n]) differing.push(face + ' ' + n);
const thrown = [];
for (const face of ['cjs/node', 'esm/node']) {
  try { faces[face].createMcpNodeHandler({ path: 'mcp' }); } catch (e) {
    thrown.push([face, e instanceof faces['esm/index'].PulseConfigError, e instanceof faces['cjs/index'].PulseError, e.code]);
  }
}
try { new faces['esm/pulse'].EntityRouter('bad id'); } catch (e) {
  thrown.push(['esm/pulse', e instanceof faces['cjs/index'].PulseRouterError, e instanceof faces['esm/node'].PulseError, e.code]);
}
process.stdout.write(JSON.stringify({ differing, thrown }));
`,
    );
    const r = await run(process.execPath, [script], { cwd: dir, timeoutMs: 30_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      differing: [],
      thrown: [
        ['cjs/node', true, true, 'PULSE_ERR_CONFIG'],
        ['esm/node', true, true, 'PULSE_ERR_CONFIG'],
        ['esm/pulse', true, true, 'PULSE_ERR_DECLARATION'],
      ],
    });
  }, 40_000);
});
