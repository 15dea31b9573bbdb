import { describe, expect, it } from 'vitest';
import { compileRouter } from '../../src/compiler';
import { routerDefinition } from '../../src/router/router';
import {
  assertNativeEligible,
  codec,
  DEFAULT_BUDGETS,
  EntityRouter,
  handlers,
  jsonRpc,
  mcp,
  PulseRouterError,
  STATIC_LIMITS,
} from '../../src/pulse';
import { toolSource } from '../../src/router';

/** Runs `fn` and returns the typed error it throws (fails the test when it does not throw one). */
function caught(fn: () => unknown): PulseRouterError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(PulseRouterError);
    return e as PulseRouterError;
  }
  throw new Error('expected a PulseRouterError');
}

const corpus = { version: '1', entries: [{ id: 'a', title: 'A', collection: 'docs', text: 'alpha' }] };

describe('operation names', () => {
  it.each(['', 'x'.repeat(129), 'has space', 'slash/name', 'ünicode', 'semi;colon'])('rejects %j', (name) => {
    const e = caught(() => new EntityRouter('r').operation(name, { handler: handlers.static(null) }));
    expect(e.code).toBe('PULSE_ERR_DECLARATION');
    expect(e.message).toBe('Operation name must be 1-128 characters of A-Za-z0-9_.-');
  });

  it('accepts the full alphabet at 1 and 128 characters', () => {
    const r = new EntityRouter('r')
      .operation('a', { handler: handlers.static(null) })
      .operation('A-z_0.9'.padEnd(128, 'x'), { handler: handlers.static(null) });
    expect(r.operationNames).toEqual(['a', 'A-z_0.9'.padEnd(128, 'x')]);
  });

  it('rejects a duplicate without echoing the name', () => {
    const r = new EntityRouter('r').operation('secret-looking-name', { handler: handlers.static(1) });
    const e = caught(() => r.operation('secret-looking-name', { handler: handlers.static(2) }));
    expect(e.code).toBe('PULSE_ERR_DECLARATION');
    expect(e.message).not.toContain('secret-looking-name');
    expect(r.operationNames).toEqual(['secret-looking-name']);
  });

  it('rejects a bad router id', () => {
    expect(caught(() => new EntityRouter('no spaces')).code).toBe('PULSE_ERR_DECLARATION');
  });

  it('caps the number of operations at 128', () => {
    const r = new EntityRouter('r');
    for (let i = 0; i < 128; i++) r.operation(`op${i}`, { handler: handlers.static(null) });
    expect(caught(() => r.operation('one-more', { handler: handlers.static(null) })).code).toBe('PULSE_ERR_DECLARATION');
  });
});

describe('operation options', () => {
  it('refuses unknown keys, bad hints, non-object input and hand-made codecs', () => {
    const r = new EntityRouter('r');
    const bad = [
      { handler: handlers.static(1), extra: true },
      { handler: handlers.static(1), hints: { readOnlyHint: 'yes' } },
      { handler: handlers.static(1), hints: { dangerous: true } },
      { handler: handlers.static(1), input: codec.string() },
      { handler: handlers.static(1), input: { kind: 'object', fields: {} } },
      { handler: handlers.static(1), output: { kind: 'string' } },
      { handler: { kind: 'static', result: 1 } },
      { handler: 'not a handler' },
      { handler: handlers.static(1), title: 'x'.repeat(257) },
    ];
    for (const options of bad) {
      expect(caught(() => r.operation('op', options as never)).code).toBe('PULSE_ERR_DECLARATION');
    }
    expect(r.operationNames).toEqual([]);
  });

  it('checks corpus and backend handlers against the router declarations', () => {
    const r = new EntityRouter('r', { corpora: { docs: corpus }, backends: { api: 'https://api.example' }, budgets: { deadlineMs: 1000 } });
    const input = codec.object({ query: codec.string() });
    expect(caught(() => r.operation('s', { input, handler: handlers.corpus({ corpus: 'other', action: 'search' }) })).message).toBe(
      'Corpus handler names a corpus the router does not declare',
    );
    expect(
      caught(() =>
        r.operation('b', { handler: handlers.backend({ backend: 'nope', method: 'POST', path: '/x', maxBytes: 10, timeoutMs: 10 }) }),
      ).message,
    ).toBe('Backend handler names a backend the router does not declare');
    // A backend timeout above the router's own deadline can never be honoured.
    expect(
      caught(() =>
        r.operation('b', { handler: handlers.backend({ backend: 'api', method: 'POST', path: '/x', maxBytes: 10, timeoutMs: 2000 }) }),
      ).code,
    ).toBe('PULSE_ERR_DECLARATION');
    r.operation('s', { input, handler: handlers.corpus({ corpus: 'docs', action: 'search', topK: 3 }) });
    r.operation('b', { handler: handlers.backend({ backend: 'api', method: 'POST', path: '/v1/x', maxBytes: 10, timeoutMs: 1000 }) });
    expect(r.operationNames).toEqual(['s', 'b']);
  });

  it('validates handler builder arguments', () => {
    const bad: (() => unknown)[] = [
      () => handlers.static(NaN),
      () => handlers.static({ at: new Date(0) }),
      () => handlers.static('x'.repeat(70000)),
      () => handlers.corpus({ corpus: 'docs', action: 'delete' as never }),
      () => handlers.corpus({ corpus: 'docs', action: 'search', topK: 65 }),
      () => handlers.corpus({ corpus: 'docs', action: 'search', maxBytes: 0 }),
      () => handlers.backend({ backend: 'api', method: 'TRACE' as never, path: '/x', maxBytes: 1, timeoutMs: 1 }),
      () => handlers.backend({ backend: 'api', method: 'GET', path: '/../x', maxBytes: 1, timeoutMs: 1 }),
      () => handlers.backend({ backend: 'api', method: 'GET', path: '//evil.example/x', maxBytes: 1, timeoutMs: 1 }),
      () => handlers.backend({ backend: 'api', method: 'GET', path: '/x?q=1', maxBytes: 1, timeoutMs: 1 }),
      () => handlers.backend({ backend: 'api', method: 'GET', path: '/x', maxBytes: 1, timeoutMs: 5001 }),
    ];
    for (const f of bad) expect(caught(f).code).toBe('PULSE_ERR_DECLARATION');
  });
});

describe('router options', () => {
  it('admits https backends and loopback http only', () => {
    for (const url of ['http://api.example', 'https://user:pw@api.example', 'https://api.example/?q', 'ftp://x.example', 'not a url']) {
      expect(caught(() => new EntityRouter('r', { backends: { api: url } })).code).toBe('PULSE_ERR_DECLARATION');
    }
    expect(() => new EntityRouter('r', { backends: { a: 'https://api.example/v1', b: 'http://127.0.0.1:8080', c: { url: 'http://[::1]:1' } } })).not.toThrow();
  });

  it('lets budgets only lower the defaults', () => {
    expect(DEFAULT_BUDGETS).toEqual({ deadlineMs: 5000, fetches: 8, fetchBytes: 1048576, calls: 16 });
    for (const budgets of [{ fetches: 9 }, { deadlineMs: 5001 }, { calls: 0 }, { fetchBytes: 1.5 }, { unknown: 1 }]) {
      expect(caught(() => new EntityRouter('r', { budgets: budgets as never })).code).toBe('PULSE_ERR_DECLARATION');
    }
    const r = new EntityRouter('r', { budgets: { fetches: 2 } });
    expect(routerDefinition(r).budgets).toEqual({ ...DEFAULT_BUDGETS, fetches: 2 });
  });

  it('admits scalar config values only and freezes them', () => {
    expect(caught(() => new EntityRouter('r', { config: { a: {} as never } })).code).toBe('PULSE_ERR_DECLARATION');
    expect(caught(() => new EntityRouter('r', { config: { a: Infinity } })).code).toBe('PULSE_ERR_DECLARATION');
    const def = routerDefinition(new EntityRouter('r', { config: { a: 'x', b: 2, c: true } }));
    expect(Object.isFrozen(def.config)).toBe(true);
    expect({ ...def.config }).toEqual({ a: 'x', b: 2, c: true });
  });

  it('checks corpora: unique ids, versions, entry shape', () => {
    const entry = { id: 'a', title: 'A', collection: 'docs', text: 't' };
    for (const c of [{ version: '', entries: [] }, { version: '1', entries: [entry, entry] }, { version: '1', entries: [{ ...entry, id: 'bad id' }] }]) {
      expect(caught(() => new EntityRouter('r', { corpora: { docs: c } })).code).toBe('PULSE_ERR_DECLARATION');
    }
  });
});

describe('codec builders', () => {
  it('return frozen plain descriptors', () => {
    const c = codec.object(
      { a: codec.string({ minLength: 1, maxLength: 8 }), b: codec.optional(codec.i32({ min: -1, max: 1 })), c: codec.nullable(codec.enum(['x', 'y'])) },
      { open: true },
    );
    expect(Object.isFrozen(c)).toBe(true);
    expect(JSON.parse(JSON.stringify(c))).toEqual({
      kind: 'object',
      fields: {
        a: { codec: { kind: 'string', minLength: 1, maxLength: 8 } },
        b: { codec: { kind: 'i32', min: -1, max: 1 }, optional: true },
        c: { codec: { kind: 'nullable', inner: { kind: 'enum', values: ['x', 'y'] } } },
      },
      open: true,
    });
    expect(codec.array(codec.boolean(), { maxItems: 3 })).toEqual({ kind: 'array', items: { kind: 'boolean' }, maxItems: 3 });
    expect(codec.json()).toEqual({ kind: 'json', maxBytes: 4096, maxDepth: 8 });
    expect(codec.scalarRecord({ maxKeys: 4 })).toEqual({ kind: 'scalarRecord', maxKeys: 4, maxBytes: 4096 });
    expect(codec.u32()).toEqual({ kind: 'u32' });
    expect(codec.number({ min: -0.5 })).toEqual({ kind: 'number', min: -0.5 });
  });

  it('reject invalid arguments at declaration', () => {
    const bad: (() => unknown)[] = [
      () => codec.string({ minLength: 5, maxLength: 4 }),
      () => codec.string({ maxLength: -1 }),
      () => codec.string({ max: 3 } as never),
      () => codec.i32({ min: 2, max: 1 }),
      () => codec.i32({ min: 2 ** 31 }),
      () => codec.u32({ min: -1 }),
      () => codec.i32({ min: 0.5 }),
      () => codec.number({ min: NaN }),
      () => codec.number({ max: Infinity }),
      () => codec.number({ min: 1, max: 0 }),
      () => codec.enum([] as never),
      () => codec.enum(['a', 'a']),
      () => codec.array(codec.string(), { maxItems: 0 }),
      () => codec.array(codec.string(), { maxItems: 1.5 }),
      () => codec.array(codec.string(), {} as never),
      () => codec.array({ kind: 'string' } as never, { maxItems: 1 }),
      () => codec.object({ a: 'string' } as never),
      () => codec.object({ ['']: codec.string() }),
      () => codec.object({ a: codec.string() }, { open: 'yes' } as never),
      () => codec.nullable({ kind: 'boolean' } as never),
      () => codec.optional(undefined as never),
      () => codec.json({ maxDepth: 33 }),
      () => codec.json({ maxBytes: 0 }),
      () => codec.scalarRecord({ maxKeys: 0 }),
    ];
    for (const f of bad) expect(caught(f).code).toBe('PULSE_ERR_CODEC');
  });

  it('reject presence rules and definitions that name nothing declared, each with its own message', () => {
    const ab = { a: codec.optional(codec.string()), b: codec.optional(codec.string()) };
    const cases: [string, () => unknown][] = [
      ['codecStrict', () => codec.object(ab, { open: true, strict: true })],
      ['codecOptions', () => codec.object(ab, { strict: 1 } as never)],
      ['codecRequireAnyOf', () => codec.object(ab, { requireAnyOf: [] })],
      ['codecRequireAnyOf', () => codec.object(ab, { requireAnyOf: [[]] })],
      ['codecRequireAnyOf', () => codec.object(ab, { requireAnyOf: [['c' as 'a']] })],
      ['codecRequireAnyOf', () => codec.object(ab, { requireAnyOf: [['a', 'a']] })],
      ['codecRequireAnyOf', () => codec.object(ab, { requireAnyOf: Array.from({ length: 17 }, () => ['a' as const]) })],
      ['codecRequireAnyOf', () => codec.object({ toString: codec.string() }, { requireAnyOf: [['valueOf' as 'toString']] })],
      ['codecWhen', () => codec.object(ab, { when: { field: 'c' as 'a', equals: 'x', then: ['b'] } })],
      ['codecWhen', () => codec.object(ab, { when: { field: 'a', equals: null as never, then: ['b'] } })],
      ['codecWhen', () => codec.object(ab, { when: { field: 'a', equals: NaN, then: ['b'] } })],
      ['codecWhen', () => codec.object(ab, { when: { field: 'a', equals: 'x' } })],
      ['codecWhen', () => codec.object(ab, { when: { field: 'a', equals: 'x', then: ['b'], otherwise: ['a'] } as never })],
      ['codecRef', () => codec.ref('', codec.string())],
      ['codecRef', () => codec.ref('a/b', codec.string())],
      ['codecRef', () => codec.ref('a', { kind: 'string' } as never)],
      ['codecRef', () => codec.ref('a', codec.string(), { anchor: '1x' })],
      ['codecOptions', () => codec.ref('a', codec.string(), { id: 'x' } as never)],
    ];
    for (const [key, f] of cases) {
      const e = caught(f);
      expect(e.code, key).toBe('PULSE_ERR_CODEC');
      expect(e.message, key).toBe(new PulseRouterError('PULSE_ERR_CODEC', key as never).message);
    }
    const o = codec.object(ab, { strict: true, requireAnyOf: [['a'], ['b']], when: { field: 'a', equals: 'x', then: ['b'] } });
    expect(o).toEqual({ kind: 'object', fields: { a: { codec: { kind: 'string' }, optional: true }, b: { codec: { kind: 'string' }, optional: true } }, strict: true, requireAnyOf: [['a'], ['b']], when: { field: 'a', equals: 'x', then: ['b'], else: [] } });
    expect(Object.isFrozen((o as unknown as { requireAnyOf: unknown[] }).requireAnyOf[0])).toBe(true);
  });
});

describe('binding freezes the registry', () => {
  const fresh = () => new EntityRouter('r').operation('a', { handler: handlers.static({ ok: true }), output: codec.object({ ok: codec.boolean() }) });

  it.each([
    ['toolSource', (r: EntityRouter) => toolSource(r)],
    ['mcp', (r: EntityRouter) => mcp({ router: r, serverInfo: { name: 't', version: '1' } })],
    ['jsonRpc', (r: EntityRouter) => jsonRpc(r)],
    ['definition', (r: EntityRouter) => r.definition()],
  ])('after %s, declaring throws PULSE_ERR_FROZEN', (_name, bind) => {
    const r = fresh();
    expect(r.frozen).toBe(false);
    bind(r);
    expect(r.frozen).toBe(true);
    const e = caught(() => r.operation('b', { handler: handlers.static(null) }));
    expect(e.code).toBe('PULSE_ERR_FROZEN');
    expect(r.operationNames).toEqual(['a']);
  });
});

describe('handler functions stay private', () => {
  const secretHandler = () => ({ n: 1 });
  const r = new EntityRouter('r').operation('js', { output: codec.object({ n: codec.i32() }), handler: secretHandler });

  it('the router object exposes no functions', () => {
    expect(Object.keys(r)).toEqual([]);
    expect(Object.isFrozen(r)).toBe(true);
    expect(JSON.stringify(r)).toBe('{}');
    expect(() => ((r as unknown as Record<string, unknown>).extra = 1)).toThrow();
  });

  it('the published definition carries an inert placeholder, never the declared function', () => {
    const def = r.definition();
    const h = def.operations[0]!.handler;
    expect(h.kind).toBe('javascript');
    if (h.kind !== 'javascript') return;
    expect(h.fn).not.toBe(secretHandler);
    expect(() => h.fn({}, {})).toThrow(PulseRouterError);
    // The compiler accepts it, and it compiles to the same artifacts as the internal definition.
    expect(compileRouter(def).catalog).toEqual(compileRouter(routerDefinition(r)).catalog);
  });
});

describe('Native eligibility', () => {
  it('a JavaScript handler router is ineligible in the catalog and refused for Native', () => {
    const r = new EntityRouter('mixed')
      .operation('native', { handler: handlers.static(1), output: codec.i32() })
      .operation('js', { handler: () => 1, output: codec.i32() });
    const { catalog } = toolSource(r);
    const targets = Object.fromEntries(catalog.operations.map((op) => [op.name, op.targets]));
    expect(targets.native).toEqual(['fastly-javascript', 'fastly-native', 'node-javascript', 'node-native', 'workerd-javascript']);
    expect(targets.js).toEqual(['fastly-javascript', 'node-javascript', 'workerd-javascript']);
    const e = caught(() => assertNativeEligible(r));
    expect(e.code).toBe('PULSE_ERR_NATIVE_INELIGIBLE');
    expect(e.message).toMatch(/JavaScript handlers.*Native target/);
  });

  it('a router of native kinds is eligible', () => {
    const r = new EntityRouter('native', { corpora: { docs: corpus } })
      .operation('s', { handler: handlers.static({ a: 1 }), output: codec.object({ a: codec.i32() }) })
      .operation('find', { input: codec.object({ query: codec.string() }), handler: handlers.corpus({ corpus: 'docs', action: 'search' }) });
    expect(() => assertNativeEligible(r)).not.toThrow();
  });
});

describe('bindings', () => {
  it('mcp limits may only be lowered', () => {
    expect(STATIC_LIMITS).toEqual({ requestBytes: 32768, responseBytes: 131072, toolResultBytes: 24576, deadlineMs: 5000, depth: 32 });
    const router = new EntityRouter('r').operation('a', { handler: handlers.static(null) });
    expect(() => mcp({ router, serverInfo: { name: 't', version: '1' }, limits: { requestBytes: 65536 } })).toThrow(
      expect.objectContaining({ code: 'PULSE_ERR_CONFIG', message: "limits.requestBytes: the static binding's ceiling is 32768; limits may only lower it" }),
    );
    // Plain-data options are the core's to judge, with its message.
    expect(() => mcp({ router, serverInfo: { name: 't', version: '1' }, legacyProtocol: '2025-03-26' as never })).toThrow(
      expect.objectContaining({ code: 'PULSE_ERR_CONFIG', message: 'legacyProtocol: must be null or "2025-06-18"' }),
    );
    expect(() => mcp({ router, serverInfo: { name: 't', version: '1' }, limits: { depth: 0 } })).toThrow(
      expect.objectContaining({ code: 'PULSE_ERR_CONFIG', message: 'limits.depth: must be an integer between 1 and 32' }),
    );
    expect(() => mcp({ router, serverInfo: { name: '', version: '1' } })).toThrow(
      expect.objectContaining({ code: 'PULSE_ERR_CONFIG', message: 'serverInfo.name: must be 1 to 128 characters without control characters' }),
    );
    expect(() => mcp({ router, serverInfo: { name: 't', version: '1' }, limits: { requestBytes: 1000 } })).not.toThrow();
    // An absent or null limit keeps the static ceiling (32768) rather than the core's default
    // (65536, which would need responseBytes >= 66048).
    for (const requestBytes of [undefined, null]) {
      expect(() => mcp({ router, serverInfo: { name: 't', version: '1' }, limits: { requestBytes, responseBytes: 33280 } as never })).not.toThrow();
    }
    expect(() => mcp({ router: {} as never, serverInfo: { name: 't', version: '1' } })).toThrow(
      expect.objectContaining({ code: 'PULSE_ERR_CONFIG', message: 'router: must be an EntityRouter (new EntityRouter(id))' }),
    );
  });

  it('handle(ctx) needs the Pulse request context', async () => {
    const server = mcp({ router: new EntityRouter('r').operation('a', { handler: handlers.static(null) }), serverInfo: { name: 't', version: '1' } });
    await expect(server.handle({} as never)).rejects.toMatchObject({ code: 'PULSE_ERR_OPTIONS' });
    const res = await server.handle({ request: new Request('http://127.0.0.1/other', { method: 'POST' }) });
    expect(res.status).toBe(404);
  });

  it('toolSource omits the handler runner when every tool is native', () => {
    const native = toolSource(new EntityRouter('n').operation('a', { handler: handlers.static(null) }));
    expect(native.handlers).toBeUndefined();
    const js = toolSource(new EntityRouter('j').operation('a', { handler: () => null }));
    expect(typeof js.handlers?.run).toBe('function');
  });

});
