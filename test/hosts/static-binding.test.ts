// The static `/pulse` binding as documented: `mcp({ router, serverInfo })` serves exact `POST /mcp`,
// refuses every supplied Origin, admits 32 KiB / 32 levels, caps replies at 128 KiB and whole tool
// results at 24 KiB, and limits may only be lowered. Each row runs through both forms, `handle(ctx)`
// and the Node listener over a real socket, and asserts status, code and body; then the refusals at
// construction, each with its exact message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codec, EntityRouter, handlers, mcp, STATIC_LIMITS, type McpBindingOptions } from '../../src/pulse';
import { listen, type RunningServer } from '../support/hosts';
import { envelope, META, modernHeaders, nest, SERVER_INFO } from '../support/fixtures';

const router = new EntityRouter('static-test')
  .operation('echo', {
    input: codec.object({ text: codec.string() }),
    output: codec.object({ text: codec.string() }),
    handler: (_ctx: unknown, input: { text: string }) => ({ text: input.text }),
  })
  // One text block of `size` characters: the result grows by exactly one byte per character.
  .operation('sized', {
    input: codec.object({ size: codec.u32({ max: 200_000 }) }),
    content: true,
    handler: (_ctx: unknown, input: { size: number }) => [{ type: 'text', text: 'x'.repeat(input.size) }],
  })
  .operation('fixed', { output: codec.boolean(), handler: handlers.static(true) });

const options: McpBindingOptions = { router, serverInfo: SERVER_INFO, contentBlocks: true };

interface Reply {
  status: number;
  headers: Headers;
  text: string;
}
type Send = (init: { method?: string; path?: string; headers?: [string, string][]; body?: string }) => Promise<Reply>;

const post = (method: string, params: unknown, id: number | undefined = 1, name?: string) => ({
  headers: modernHeaders(method, name),
  body: envelope(method, id, params),
});
const call = (name: string, args: unknown, id = 1) => post('tools/call', { name, arguments: args, _meta: META }, id, name);

/** The bytes of the `result` member of a reply, as the core counts a tool result. */
function resultBytes(text: string): number {
  const prefix = '{"jsonrpc":"2.0","id":1,"result":';
  expect(text.startsWith(prefix)).toBe(true);
  return Buffer.byteLength(text) - Buffer.byteLength(prefix) - 1;
}

/** A discover request of exactly `size` bytes (padding inside `_meta`). */
function discoverOfSize(size: number): string {
  const base = envelope('server/discover', 1, { _meta: { ...META, 'org.example/pad': '' } });
  return base.replace('"org.example/pad":""', `"org.example/pad":"${'p'.repeat(size - Buffer.byteLength(base))}"`);
}

type Row = [name: string, request: Parameters<Send>[0], status: number, expected: (r: Reply) => void];

const error = (code: number, message: string, id?: number) => (r: Reply) =>
  expect(JSON.parse(r.text)).toEqual({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), error: { code, message } });
const empty = (r: Reply) => expect(r.text).toBe('');

const rows: Row[] = [
  ['discovery', post('server/discover', { _meta: META }), 200, (r) => {
    expect(JSON.parse(r.text).result).toEqual({
      resultType: 'complete',
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: { listChanged: false } },
      ttlMs: 0,
      cacheScope: 'private',
      _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
    });
  }],
  ['another path → 404, empty', { ...post('server/discover', { _meta: META }), path: '/mcp/' }, 404, empty],
  ['GET → 405 with Allow: POST', { method: 'GET', headers: [] }, 405, (r) => expect(r.headers.get('allow')).toBe('POST')],
  ['an Origin → 403, empty', { ...post('server/discover', { _meta: META }), headers: [...modernHeaders('server/discover'), ['origin', 'https://app.example']] }, 403, empty],
  ['its own origin → 403 as well', { ...post('server/discover', { _meta: META }), headers: [...modernHeaders('server/discover'), ['origin', 'http://127.0.0.1']] }, 403, empty],
  ['a body of exactly 32 KiB is admitted', { headers: modernHeaders('server/discover'), body: discoverOfSize(32768) }, 200, (r) => expect(JSON.parse(r.text).result.resultType).toBe('complete')],
  ['32 KiB + 1 → 413 -32600, no id', { headers: modernHeaders('server/discover'), body: discoverOfSize(32769) }, 413, error(-32600, 'Request body too large')],
  ['32 levels of JSON are admitted', post('server/discover', { _meta: { ...META, 'org.example/deep': JSON.parse(nest(29)) } }), 200, (r) => expect(JSON.parse(r.text).id).toBe(1)],
  ['33 levels → 400 -32700, no id', post('server/discover', { _meta: { ...META, 'org.example/deep': JSON.parse(nest(30)) } }), 400, (r) => expect(JSON.parse(r.text).error.code).toBe(-32700)],
  ['a typed tool result', call('echo', { text: 'hi' }), 200, (r) => expect(JSON.parse(r.text).result).toMatchObject({ structuredContent: { text: 'hi' }, isError: false })],
];

/** Characters of `sized` whose whole result is exactly `bytes`: the empty result's size is measured first. */
let emptyResult = 0;
const sizedCall = (bytes: number) => call('sized', { size: bytes - emptyResult });

function table(form: string, send: () => Send): void {
  describe(`the static binding's defaults through ${form}`, () => {
    beforeAll(async () => {
      emptyResult = resultBytes((await send()(call('sized', { size: 0 }))).text);
    });

    for (const [name, request, status, expected] of rows) {
      it(`${name} → ${status}`, async () => {
        const r = await send()(request);
        expect(r.status).toBe(status);
        expected(r);
        if (status !== 405) expect(r.headers.get('cache-control')).toBe('no-store');
      });
    }

    it('a whole tool result of exactly 24 KiB → 200; one byte more → 500 -32603 with the id', async () => {
      const fits = await send()(sizedCall(STATIC_LIMITS.toolResultBytes));
      expect(fits.status).toBe(200);
      expect(resultBytes(fits.text)).toBe(24576);
      const over = await send()(sizedCall(STATIC_LIMITS.toolResultBytes + 1));
      expect(over.status).toBe(500);
      error(-32603, 'Tool result too large', 1)(over);
    });

    it('a lowered tool-result limit is the ceiling instead', async () => {
      const lowered = formOf(form)({ ...options, limits: { toolResultBytes: 1000 } });
      expect((await lowered(sizedCall(1000))).status).toBe(200);
      expect((await lowered(sizedCall(1001))).status).toBe(500);
    });
  });
}

const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

/** `handle(ctx)` of a binding as a Send. */
function viaHandle(o: McpBindingOptions): Send {
  const server = mcp(o);
  return async ({ method = 'POST', path = '/mcp', headers = [], body }) => {
    const res = await server.handle({ request: new Request(`http://127.0.0.1${path}`, { method, headers, body }) });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
}

/** The Node listener of a binding, on a real socket, as a Send. */
function viaListener(o: McpBindingOptions): Send {
  const started = listen(mcp(o).nodeListener()).then((s) => (servers.push(s), s));
  return async ({ method = 'POST', path = '/mcp', headers = [], body }) => {
    const { port } = await started;
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers, body });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
}

const formOf = (form: string) => (form === 'handle(ctx)' ? viaHandle : viaListener);

let handleSend: Send;
let listenerSend: Send;
table('handle(ctx)', () => (handleSend ??= viaHandle(options)));
table('the Node listener', () => (listenerSend ??= viaListener(options)));

describe('the Node listener and handle(ctx) answer byte for byte alike', () => {
  it.each(rows.map((r) => [r[0], r[1]] as const))('%s', async (_name, request) => {
    const [a, b] = await Promise.all([(handleSend ??= viaHandle(options))(request), (listenerSend ??= viaListener(options))(request)]);
    expect([b.status, b.text, b.headers.get('content-type')]).toEqual([a.status, a.text, a.headers.get('content-type')]);
  });

  it('nodeListener() is made once', () => {
    const server = mcp(options);
    expect(server.nodeListener()).toBe(server.nodeListener());
  });
});

/** The PulseConfigError `make()` throws: its message. */
function configError(make: () => unknown): string {
  try {
    make();
  } catch (e) {
    expect(e).toMatchObject({ name: 'PulseConfigError', code: 'PULSE_ERR_CONFIG' });
    return (e as Error).message;
  }
  throw new Error('expected a PulseConfigError');
}

describe('refused at construction, each naming the option', () => {
  const raise = Object.entries(STATIC_LIMITS).map(([k, max]) => [
    `raising limits.${k}`,
    { limits: { [k]: max + 1 } },
    `limits.${k}: the static binding's ceiling is ${max}; limits may only lower it`,
  ]);
  it.each([
    ...raise,
    ['a path', { path: '/rpc' }, 'path: the static binding serves exactly POST /mcp'],
    ['tools', { tools: {} }, "tools: the static binding serves its router's operations; catalog artifacts belong to the host adapters (createMcpNodeHandler, createMcpHttpHandler)"],
    ['authorization', { authorization: {} }, 'authorization: the static binding has no authorization policy; OAuth admission belongs to the host adapters (createMcpNodeHandler, createMcpHttpHandler)'],
    ['an unknown option', { executor: () => null }, 'options: unknown key "executor"'],
    ['no router', { router: {} }, 'router: must be an EntityRouter (new EntityRouter(id))'],
    ['a function as serverInfo', { serverInfo: () => SERVER_INFO }, 'serverInfo: must be plain JSON data, not a function'],
  ] as [string, Record<string, unknown>, string][])('%s', (_name, extra, message) => {
    expect(configError(() => mcp({ router: new EntityRouter('r'), serverInfo: SERVER_INFO, ...extra } as never))).toBe(message);
  });

  it('content blocks without contentBlocks: true', () => {
    const r = new EntityRouter('c').operation('blocks', { content: true, handler: () => [{ type: 'text', text: 'x' }] });
    expect(configError(() => mcp({ router: r, serverInfo: SERVER_INFO }))).toMatch(/^tools: .*"blocks".*contentBlocks: true/);
  });

  it('limits at or under the ceilings construct', () => {
    expect(() => mcp({ router: new EntityRouter('r'), serverInfo: SERVER_INFO, limits: { ...STATIC_LIMITS } })).not.toThrow();
    expect(() => mcp({ router: new EntityRouter('r'), serverInfo: SERVER_INFO, limits: { requestBytes: 8192, responseBytes: 16384 } })).not.toThrow();
  });
});
