import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codec, EntityRouter, handlers, type HandlerContext, type LogRecord } from '../../src/pulse';
import { toolSource } from '../../src/router';
import type { ContextOptions } from '../../src/handlers';
import type { Budgets } from '../../src/router/definition';

/** A loopback server that counts every request it receives. */
interface Counter {
  url: string;
  hits: number;
  close(): Promise<void>;
}

async function counter(reply: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Counter> {
  const c: Counter = { url: '', hits: 0, close: async () => undefined };
  const server = http.createServer((req, res) => {
    c.hits += 1;
    reply(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  c.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  c.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return c;
}

let api: Counter;
let other: Counter;
let redirector: Counter;

beforeAll(async () => {
  api = await counter((req, res) => {
    const size = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('size') ?? '2');
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('x'.repeat(size));
  });
  other = await counter((_req, res) => res.end('other'));
  redirector = await counter((_req, res) => {
    res.writeHead(302, { location: `${other.url}/target` });
    res.end();
  });
});

afterAll(async () => {
  await Promise.all([api.close(), other.close(), redirector.close()]);
});

type Fn = (ctx: HandlerContext, input: Record<string, unknown>) => unknown;

/** A router whose operations are the given JavaScript handlers (json output), bound to a tool source. */
function source(ops: Record<string, Fn>, opts: { budgets?: Partial<Budgets>; backends?: Record<string, string> } & ContextOptions = {}) {
  const { budgets, backends, ...ctxOptions } = opts;
  const r = new EntityRouter('ctx-test', { budgets, backends: backends ?? { api: api.url, redirector: redirector.url }, config: { region: 'eu', retries: 2 } });
  for (const [name, fn] of Object.entries(ops)) {
    r.operation(name, { input: codec.object({}, { open: true }), output: codec.json({ maxBytes: 65536 }), handler: fn as never });
  }
  const s = toolSource(r, ctxOptions);
  return (op: string, input: unknown = {}, timeoutMs = 2000) => s.handlers!.run(op, input, { timeoutMs });
}

/** Reports the code of a typed error instead of throwing, so tests can see what the context refused. */
async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    return (e as { code?: string }).code ?? 'untyped';
  }
}

describe('ctx.fetch', () => {
  it('reaches a declared backend origin', async () => {
    const before = api.hits;
    const run = source({
      get: async (ctx) => {
        const res = await ctx.fetch(`${api.url}/data?size=5`);
        return { status: res.status, body: await res.text() };
      },
    });
    expect(await run('get')).toEqual({ ok: true, output: { status: 200, body: 'xxxxx' } });
    expect(api.hits - before).toBe(1);
  });

  it('fails closed for any undeclared origin, making no request', async () => {
    const before = { api: api.hits, other: other.hits };
    const run = source({
      probe: async (ctx) => ({
        otherPort: await code(ctx.fetch(`${other.url}/`)),
        // Same host and port spelled differently is a different origin.
        localhost: await code(ctx.fetch(api.url.replace('127.0.0.1', 'localhost'))),
        https: await code(ctx.fetch(api.url.replace('http:', 'https:'))),
        credentials: await code(ctx.fetch(api.url.replace('http://', 'http://user:pw@'))),
        notUrl: await code(ctx.fetch('/relative')),
      }),
    });
    expect(await run('probe')).toEqual({
      ok: true,
      output: {
        otherPort: 'PULSE_ERR_FETCH_DENIED',
        localhost: 'PULSE_ERR_FETCH_DENIED',
        https: 'PULSE_ERR_FETCH_DENIED',
        credentials: 'PULSE_ERR_FETCH_DENIED',
        notUrl: 'PULSE_ERR_FETCH_FAILED',
      },
    });
    expect(api.hits).toBe(before.api);
    expect(other.hits).toBe(before.other);
  });

  it('an uncaught allowlist violation fails the call with nothing attached', async () => {
    const before = other.hits;
    const run = source({ leak: async (ctx) => ctx.fetch(`${other.url}/?token=abc`) });
    expect(await run('leak')).toStrictEqual({ ok: false });
    expect(other.hits).toBe(before);
  });

  it('the denial message never echoes the URL', async () => {
    let message = '';
    const run = source({
      probe: async (ctx) => {
        try {
          await ctx.fetch(`${other.url}/private-path?token=abc`);
        } catch (e) {
          message = (e as Error).message;
        }
        return null;
      },
    });
    await run('probe');
    expect(message).toBe('Fetch destination is not a declared backend origin');
  });

  it('does not follow redirects', async () => {
    const before = { r: redirector.hits, o: other.hits };
    const run = source({ go: async (ctx) => code(ctx.fetch(`${redirector.url}/`)) });
    expect(await run('go')).toEqual({ ok: true, output: 'PULSE_ERR_FETCH_FAILED' });
    expect(redirector.hits - before.r).toBe(1);
    expect(other.hits).toBe(before.o);
  });

  it('stops at the fetch count budget, before the extra attempt', async () => {
    const before = api.hits;
    const run = source(
      {
        many: async (ctx) => {
          const out: string[] = [];
          for (let i = 0; i < 4; i++) out.push(await code(ctx.fetch(`${api.url}/`)));
          return out;
        },
      },
      { budgets: { fetches: 2 } },
    );
    expect(await run('many')).toEqual({ ok: true, output: ['resolved', 'resolved', 'PULSE_ERR_BUDGET', 'PULSE_ERR_BUDGET'] });
    expect(api.hits - before).toBe(2);
  });

  it('counts body bytes read against fetchBytes and fails closed over it', async () => {
    const run = source(
      {
        big: async (ctx) => [await code(ctx.fetch(`${api.url}/?size=60`)), await code(ctx.fetch(`${api.url}/?size=60`)), await code(ctx.fetch(`${api.url}/?size=1`))],
      },
      { budgets: { fetchBytes: 100 } },
    );
    // 60 fit; the next 60 cross 100 and fail; the failed read exhausted what was left.
    expect(await run('big')).toEqual({ ok: true, output: ['resolved', 'PULSE_ERR_BUDGET', 'PULSE_ERR_BUDGET'] });
  });

  it('budgets are per request', async () => {
    const run = source({ one: async (ctx) => (await ctx.fetch(`${api.url}/`)).status }, { budgets: { fetches: 1 } });
    expect(await run('one')).toEqual({ ok: true, output: 200 });
    expect(await run('one')).toEqual({ ok: true, output: 200 });
  });
});

describe('secrets and logs', () => {
  const SECRET = 'sk-live-0123456789';

  it('masks secret values read in the request and keeps them out of errors', async () => {
    const records: LogRecord[] = [];
    const run = source(
      {
        leaky: async (ctx) => {
          const token = ctx.secret('API_TOKEN');
          ctx.log.info(`using ${token}`, { token, nested: { list: [`Bearer ${token}`] }, [`k-${token}`]: 1 });
          ctx.log.warn('plain', { count: 3 });
          throw new Error(`failed with ${token}`);
        },
      },
      { secrets: (name) => (name === 'API_TOKEN' ? SECRET : undefined), log: (r) => records.push(r) },
    );
    const outcome = await run('leaky');
    expect(outcome).toStrictEqual({ ok: false });
    expect(records).toHaveLength(2);
    expect(JSON.stringify(records)).not.toContain(SECRET);
    expect(records[0]).toMatchObject({
      level: 'info',
      operation: 'leaky',
      message: 'using [REDACTED]',
      fields: { token: '[REDACTED]', nested: { list: ['Bearer [REDACTED]'] }, 'k-[REDACTED]': 1 },
    });
    expect(records[1]).toMatchObject({ level: 'warn', message: 'plain', fields: { count: 3 } });
  });

  it('an unknown secret is undefined; a failing provider is a fixed error', async () => {
    const run = source(
      {
        get: async (ctx) => ({ missing: ctx.secret('NOPE') ?? null, bad: await code(Promise.resolve().then(() => ctx.secret('BOOM'))) }),
      },
      {
        secrets: (name) => {
          if (name === 'BOOM') throw new Error(SECRET);
          return undefined;
        },
      },
    );
    expect(await run('get')).toEqual({ ok: true, output: { missing: null, bad: 'PULSE_ERR_SECRET' } });
  });

  it('log sinks that throw do not fail the handler, and no sink means no output', async () => {
    const run = source({ log: (ctx) => (ctx.log.error('x'), 1) }, { log: () => { throw new Error('sink'); } });
    expect(await run('log')).toEqual({ ok: true, output: 1 });
    expect(await source({ log: (ctx) => (ctx.log.info('x'), 2) })('log')).toEqual({ ok: true, output: 2 });
  });
});

describe('ctx.call', () => {
  it('shares the fetch budget with the caller', async () => {
    const before = api.hits;
    const run = source(
      {
        outer: async (ctx) => {
          await ctx.fetch(`${api.url}/`);
          return ctx.call('inner', {});
        },
        inner: async (ctx) => [await code(ctx.fetch(`${api.url}/`)), await code(ctx.fetch(`${api.url}/`))],
      },
      { budgets: { fetches: 2 } },
    );
    expect(await run('outer')).toEqual({ ok: true, output: ['resolved', 'PULSE_ERR_BUDGET'] });
    expect(api.hits - before).toBe(2);
  });

  it('counts calls across the whole request', async () => {
    const run = source(
      {
        fan: async (ctx) => {
          const out: unknown[] = [];
          for (let i = 0; i < 5; i++) out.push(await ctx.call('leaf', { i }).catch((e) => e.code));
          return out;
        },
        leaf: (_ctx, input) => input.i,
      },
      { budgets: { calls: 3 } },
    );
    expect(await run('fan')).toEqual({ ok: true, output: [0, 1, 2, 'PULSE_ERR_BUDGET', 'PULSE_ERR_BUDGET'] });
  });

  it('bounds call depth', async () => {
    const run = source({
      rec: async (ctx, input) => {
        const n = Number(input.n ?? 0);
        try {
          return await ctx.call('rec', { n: n + 1 });
        } catch (e) {
          return { stoppedAt: n, code: (e as { code?: string }).code };
        }
      },
    });
    expect(await run('rec')).toEqual({ ok: true, output: { stoppedAt: 4, code: 'PULSE_ERR_BUDGET' } });
  });

  it('reports unknown operations and callee failures with fixed errors', async () => {
    const run = source({
      caller: async (ctx) => ({
        unknown: await code(ctx.call('missing')),
        thrown: await code(ctx.call('thrower')),
        message: await ctx.call('thrower').catch((e: Error) => e.message),
      }),
      thrower: () => {
        throw new Error('internal detail');
      },
    });
    expect(await run('caller')).toEqual({
      ok: true,
      output: { unknown: 'PULSE_ERR_CALL', thrown: 'PULSE_ERR_CALL', message: 'Called operation failed' },
    });
  });

  it('returns static results and refuses corpus operations', async () => {
    const r = new EntityRouter('mix', { corpora: { docs: { version: '1', entries: [] } } })
      .operation('fixed', { output: codec.object({ a: codec.i32() }), handler: handlers.static({ a: 7 }) })
      .operation('find', { input: codec.object({ query: codec.string() }), handler: handlers.corpus({ corpus: 'docs', action: 'search' }) })
      .operation('caller', {
        output: codec.json(),
        handler: async (ctx) => ({ fixed: (await ctx.call('fixed')) as never, find: await code(ctx.call('find', { query: 'x' })) }),
      });
    expect(await toolSource(r).handlers!.run('caller', undefined, { timeoutMs: 1000 })).toEqual({
      ok: true,
      output: { fixed: { a: 7 }, find: 'PULSE_ERR_CALL' },
    });
  });

  it('shares the deadline: a slow callee ends the whole request', async () => {
    const run = source({
      outer: (ctx) => ctx.call('slow'),
      slow: () => new Promise(() => undefined),
    });
    const t0 = Date.now();
    expect(await run('outer', {}, 80)).toStrictEqual({ ok: false });
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});

describe('ctx.call codec checks in the core', () => {
  /** `typed` takes `{ n: i32, s?: string }` (closed) and returns `{ n: i32 }`; its body is `impl`. */
  function typed(impl: (input: Record<string, unknown>) => unknown, caller: Fn) {
    const seen: unknown[] = [];
    const r = new EntityRouter('ctx-codec')
      .operation('typed', {
        input: codec.object({ n: codec.i32(), s: codec.optional(codec.string()) }),
        output: codec.object({ n: codec.i32() }),
        handler: ((_ctx: HandlerContext, input: Record<string, unknown>) => {
          seen.push(input);
          return impl(input);
        }) as never,
      })
      .operation('caller', { input: codec.object({}, { open: true }), output: codec.json({ maxBytes: 65536 }), handler: caller as never });
    const s = toolSource(r);
    return { seen, run: () => s.handlers!.run('caller', {}, { timeoutMs: 2000 }) };
  }

  /** The typed error's visible fields, or the resolved value. */
  async function outcome(p: Promise<unknown>): Promise<unknown> {
    try {
      return { value: await p };
    } catch (e) {
      const x = e as { code?: string; message?: string; direction?: string; path?: string };
      return { code: x.code, message: x.message, direction: x.direction, path: x.path };
    }
  }

  it('rejects an input of the wrong type without running the callee', async () => {
    const t = typed((i) => ({ n: i.n }), (ctx) => outcome(ctx.call('typed', { n: 'secret-value' })));
    const res = await t.run();
    expect(res).toEqual({
      ok: true,
      output: { code: 'PULSE_ERR_CALL', direction: 'input', path: '$.n', message: 'Called operation input failed validation at $.n: Expected an integer' },
    });
    expect(JSON.stringify(res)).not.toContain('secret-value');
    expect(t.seen).toHaveLength(0);
  });

  it('rejects an out-of-range i32 and a missing field without running the callee', async () => {
    const t = typed(
      (i) => ({ n: i.n }),
      async (ctx) => [await outcome(ctx.call('typed', { n: 2 ** 31 })), await outcome(ctx.call('typed', { n: 1.5 })), await outcome(ctx.call('typed', {}))],
    );
    const res = (await t.run()) as { ok: true; output: { path: string; message: string }[] };
    expect(res.output.map((o) => [o.path, o.message.split(': ')[1]])).toEqual([
      ['$.n', 'Integer out of range'],
      ['$.n', 'Expected an integer'],
      ['$.n', 'Required field missing'],
    ]);
    expect(t.seen).toHaveLength(0);
  });

  it('hands the callee the canonical input: extras of a closed object are dropped', async () => {
    const t = typed((i) => ({ n: (i.n as number) + 1 }), (ctx) => ctx.call('typed', { n: 41, s: 'x', extra: true }));
    expect(await t.run()).toEqual({ ok: true, output: { n: 42 } });
    expect(t.seen).toEqual([{ n: 41, s: 'x' }]);
  });

  it('rejects an output the callee codec does not admit', async () => {
    const t = typed(() => ({ n: 'not a number' }), (ctx) => outcome(ctx.call('typed', { n: 1 })));
    expect(await t.run()).toEqual({
      ok: true,
      output: { code: 'PULSE_ERR_CALL', direction: 'output', path: '$.n', message: 'Called operation output failed validation at $.n: Expected an integer' },
    });
    expect(t.seen).toEqual([{ n: 1 }]);
  });

  it('an uncaught rejection fails the caller closed, and a rejected call still spends the call budget', async () => {
    const t = typed((i) => ({ n: i.n }), async (ctx) => {
      await ctx.call('typed', { n: 'x' }).catch(() => undefined);
      return ctx.call('typed', { n: 1 });
    });
    expect(await t.run()).toEqual({ ok: true, output: { n: 1 } });
    const r = new EntityRouter('ctx-codec-budget', { budgets: { calls: 1 } })
      .operation('typed', { input: codec.object({ n: codec.i32() }), output: codec.json(), handler: ((_c: HandlerContext, i: Record<string, unknown>) => i) as never })
      .operation('caller', {
        output: codec.json(),
        handler: (async (ctx: HandlerContext) => [await code(ctx.call('typed', { n: 'x' })), await code(ctx.call('typed', { n: 1 }))]) as never,
      });
    expect(await toolSource(r).handlers!.run('caller', undefined, { timeoutMs: 1000 })).toEqual({ ok: true, output: ['PULSE_ERR_CALL', 'PULSE_ERR_BUDGET'] });
    const failing = typed((i) => ({ n: i.n }), (ctx) => ctx.call('typed', { n: 'x' }));
    expect(await failing.run()).toStrictEqual({ ok: false });
  });

  it('validates static targets too', async () => {
    const r = new EntityRouter('ctx-codec-static')
      .operation('fixed', { input: codec.object({ n: codec.i32() }), output: codec.object({ a: codec.i32() }), handler: handlers.static({ a: 7 }) })
      .operation('caller', {
        output: codec.json(),
        handler: (async (ctx: HandlerContext) => [await ctx.call('fixed', { n: 1 }), await code(ctx.call('fixed', { n: 'x' }))]) as never,
      });
    expect(await toolSource(r).handlers!.run('caller', undefined, { timeoutMs: 1000 })).toEqual({ ok: true, output: [{ a: 7 }, 'PULSE_ERR_CALL'] });
  });
});

describe('deadlines and failures', () => {
  it('a handler that never settles times out as { ok: false }', async () => {
    let seen: { deadline: number; aborted: () => boolean } | undefined;
    const run = source({
      hang: (ctx) => {
        seen = { deadline: ctx.deadline, aborted: () => ctx.signal.aborted };
        return new Promise(() => undefined);
      },
    });
    const t0 = Date.now();
    expect(await run('hang', {}, 60)).toStrictEqual({ ok: false });
    const took = Date.now() - t0;
    expect(took).toBeGreaterThanOrEqual(50);
    expect(took).toBeLessThan(1000);
    expect(seen!.deadline).toBeGreaterThanOrEqual(t0 + 50);
    expect(seen!.deadline).toBeLessThanOrEqual(t0 + 200);
    expect(seen!.aborted()).toBe(true);
  });

  it('ctx.signal first read after the request ended is already aborted, with the reason', async () => {
    let kept: HandlerContext | undefined;
    let early: AbortSignal | undefined;
    const run = source({
      late: (ctx) => {
        kept = ctx;
        return { ok: true };
      },
      watched: async (ctx) => {
        early = ctx.signal as AbortSignal;
        expect(early.aborted).toBe(false);
        return { ok: true };
      },
      hang: (ctx) => {
        kept = ctx;
        return new Promise(() => undefined);
      },
    });
    await run('late', {}, 1000);
    // Never read while the handler ran: made now, aborted as closed.
    expect(kept!.signal.aborted).toBe(true);
    expect((kept!.signal.reason as { code?: string }).code).toBe('PULSE_ERR_CONTEXT_CLOSED');
    await run('watched', {}, 1000);
    // Read while running: aborted when the request ended.
    expect(early!.aborted).toBe(true);
    expect((early!.reason as { code?: string }).code).toBe('PULSE_ERR_CONTEXT_CLOSED');
    await run('hang', {}, 30);
    expect(kept!.signal.aborted).toBe(true);
    expect((kept!.signal.reason as { code?: string }).code).toBe('PULSE_ERR_DEADLINE');
  });

  it('the router deadline caps the host timeout', async () => {
    const run = source({ hang: () => new Promise(() => undefined) }, { budgets: { deadlineMs: 40 } });
    const t0 = Date.now();
    expect(await run('hang', {}, 4000)).toStrictEqual({ ok: false });
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it('a handler that outlives its request can no longer act', async () => {
    let late: Promise<string> | undefined;
    const before = api.hits;
    const run = source({
      hang: (ctx) =>
        new Promise(() => {
          setTimeout(() => {
            late = Promise.all([code(ctx.fetch(`${api.url}/`)), code(ctx.call('hang')), code(ctx.kv.get('k'))]).then((c) => c.join(','));
          }, 80);
        }),
    });
    expect(await run('hang', {}, 30)).toStrictEqual({ ok: false });
    await new Promise((r) => setTimeout(r, 150));
    expect(await late).toBe('PULSE_ERR_CONTEXT_CLOSED,PULSE_ERR_CONTEXT_CLOSED,PULSE_ERR_CONTEXT_CLOSED');
    expect(api.hits).toBe(before);
  });

  it('a fetch in flight at the deadline is aborted', async () => {
    const slow = await counter(() => undefined); // never answers
    try {
      const run = source({ wait: (ctx) => ctx.fetch(`${slow.url}/`) }, { backends: { slow: slow.url } });
      const t0 = Date.now();
      expect(await run('wait', {}, 80)).toStrictEqual({ ok: false });
      expect(Date.now() - t0).toBeLessThan(1000);
      expect(slow.hits).toBe(1);
    } finally {
      await slow.close();
    }
  });

  it('throws, rejections, non-JSON output and unknown operations are { ok: false }', async () => {
    const run = source({
      throws: () => {
        throw new Error('boom');
      },
      rejects: () => Promise.reject(new Error('boom')),
      nan: () => ({ n: NaN }),
      date: () => ({ at: new Date(0) }),
      bigint: () => ({ n: 1n }) as never,
      cycle: () => {
        const a: Record<string, unknown> = {};
        a.self = a;
        return a;
      },
      undef: () => undefined,
    });
    for (const op of ['throws', 'rejects', 'nan', 'date', 'bigint', 'cycle', 'missing']) {
      expect(await run(op)).toStrictEqual({ ok: false });
    }
    // No output at all is `null`, which the core's output codec then judges.
    expect(await run('undef')).toEqual({ ok: true, output: null });
    expect(await run('throws', {}, 0)).toStrictEqual({ ok: false });
  });
});

describe('config and kv', () => {
  it('config is the router config, frozen', async () => {
    const run = source({ cfg: (ctx) => ({ config: { ...ctx.config }, frozen: Object.isFrozen(ctx.config) }) });
    expect(await run('cfg')).toEqual({ ok: true, output: { config: { region: 'eu', retries: 2 }, frozen: true } });
  });

  it('the default kv store persists across requests of one tool source and is bounded', async () => {
    const run = source({
      put: async (ctx, input) => (await ctx.kv.put('k', String(input.v)), null),
      get: async (ctx) => (await ctx.kv.get('k')) ?? null,
      del: async (ctx) => (await ctx.kv.delete('k'), null),
      huge: (ctx) => code(ctx.kv.put('k', 'x'.repeat(70000))),
      badKey: (ctx) => code(ctx.kv.get('')),
      many: async (ctx) => {
        for (let i = 0; i < 100; i++) {
          const c = await code(ctx.kv.get('k'));
          if (c !== 'resolved') return { at: i, c };
        }
        return null;
      },
    });
    await run('put', { v: 'one' });
    expect(await run('get')).toEqual({ ok: true, output: 'one' });
    await run('del');
    expect(await run('get')).toEqual({ ok: true, output: null });
    expect(await run('huge')).toEqual({ ok: true, output: 'PULSE_ERR_KV' });
    expect(await run('badKey')).toEqual({ ok: true, output: 'PULSE_ERR_KV' });
    expect(await run('many')).toEqual({ ok: true, output: { at: 64, c: 'PULSE_ERR_BUDGET' } });
  });

  it('uses a host-provided store and hides its errors', async () => {
    const store = new Map<string, string>();
    const run = source(
      {
        rw: async (ctx) => {
          await ctx.kv.put('a', '1');
          return { a: (await ctx.kv.get('a')) ?? null, fail: await code(ctx.kv.get('explode')) };
        },
      },
      {
        kv: {
          get: (k) => {
            if (k === 'explode') throw new Error('db password=hunter2');
            return store.get(k);
          },
          put: (k, v) => void store.set(k, v),
          delete: (k) => void store.delete(k),
        },
      },
    );
    expect(await run('rw')).toEqual({ ok: true, output: { a: '1', fail: 'PULSE_ERR_KV' } });
    expect(store.get('a')).toBe('1');
  });
});

describe('signal shim', () => {
  it('gives a working signal where AbortController is absent', async () => {
    const saved = globalThis.AbortController;
    let signal: HandlerContext['signal'] | undefined;
    // Fastly JavaScript has no AbortController: the context falls back to its own signal.
    (globalThis as { AbortController?: unknown }).AbortController = undefined;
    try {
      const run = source({
        hang: (ctx) => {
          signal = ctx.signal;
          return new Promise(() => undefined);
        },
      });
      expect(await run('hang', {}, 30)).toStrictEqual({ ok: false });
    } finally {
      globalThis.AbortController = saved;
    }
    expect(signal).toBeDefined();
    expect(signal instanceof AbortSignal).toBe(false);
    expect(signal!.aborted).toBe(true);
  });
});
