/**
 * The tools outcome table, driven through the static `/pulse` binding (`mcp(...).handle`) with
 * routers mixing native and JavaScript handlers: what a client sees for each row.
 */
import { describe, expect, it } from 'vitest';
import { codec, EntityRouter, handlers, mcp } from '../../src/pulse';

const PROTOCOL = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': PROTOCOL,
  'io.modelcontextprotocol/clientInfo': { name: 'table', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

const router = new EntityRouter('table')
  .operation('add', {
    input: codec.object({ a: codec.i32(), b: codec.i32() }),
    output: codec.object({ sum: codec.i32() }),
    handler: (_ctx, { a, b }) => ({ sum: a + b }),
  })
  .operation('throws', {
    handler: () => {
      throw new Error('internal detail 42');
    },
  })
  .operation('bad_output', {
    output: codec.object({ n: codec.i32() }),
    handler: () => ({ n: 'not a number' }) as never,
  })
  .operation('nothing', { handler: () => undefined })
  .operation('static', { output: codec.object({ ok: codec.boolean() }), handler: handlers.static({ ok: true }) })
  .operation('big', {
    input: codec.object({ bytes: codec.u32({ max: 200000 }) }),
    output: codec.object({ text: codec.string() }),
    handler: (_ctx, { bytes }) => ({ text: 'x'.repeat(bytes) }),
  })
  .operation('slow', { handler: () => new Promise<never>(() => undefined) });

const server = mcp({ router, serverInfo: { name: 'table', version: '1' } });

interface Reply {
  status: number;
  body: any;
}

async function post(method: string, params: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Reply> {
  const request = new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL,
      'mcp-method': method,
      ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: { ...META, ...(params._meta as object) } } }),
  });
  const res = await server.handle({ request });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

const call = (name: string, args?: unknown, headers?: Record<string, string>) =>
  post('tools/call', args === undefined ? { name } : { name, arguments: args }, headers);

describe('tools outcome table (static binding)', () => {
  it('unknown tool → 400 -32602, no handler run', async () => {
    const r = await call('missing', {});
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe(-32602);
    expect(r.body.id).toBe(7);
  });

  it('input the codec rejects → 200 isError with a path, never the value', async () => {
    const r = await call('add', { a: 'secret-input-value', b: 1 });
    expect(r.status).toBe(200);
    expect(r.body.result.isError).toBe(true);
    expect(r.body.result.content[0].text).toMatch(/^Input validation failed at \$\.a/);
    expect(JSON.stringify(r.body)).not.toContain('secret-input-value');
  });

  it('a JavaScript handler that throws → 200 isError, fixed message', async () => {
    const r = await call('throws');
    expect(r.status).toBe(200);
    expect(r.body.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Tool execution failed' }] });
    expect(JSON.stringify(r.body)).not.toContain('internal detail');
  });

  it('output the codec rejects → 200 isError', async () => {
    const r = await call('bad_output');
    expect(r.status).toBe(200);
    expect(r.body.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Output validation failed' }] });
  });

  it('success → structuredContent plus its serialized text', async () => {
    const r = await call('add', { a: 2, b: 3, extra: 'dropped' });
    expect(r.status).toBe(200);
    expect(r.body.result.structuredContent).toEqual({ sum: 5 });
    expect(r.body.result.content).toEqual([{ type: 'text', text: '{"sum":5}' }]);
    expect(r.body.result.isError ?? false).toBe(false);
    expect(r.body.result.resultType).toBe('complete');
  });

  it('a native static tool succeeds the same way', async () => {
    const r = await call('static', {});
    expect(r.body.result.structuredContent).toEqual({ ok: true });
  });

  it('no output codec → text "null", no structuredContent', async () => {
    const r = await call('nothing', {});
    expect(r.status).toBe(200);
    expect(r.body.result.content).toEqual([{ type: 'text', text: 'null' }]);
    expect(r.body.result.structuredContent).toBeUndefined();
  });

  it('a result over the reply budget → 500 -32603', async () => {
    const r = await call('big', { bytes: 150000 });
    expect(r.status).toBe(500);
    expect(r.body.error.code).toBe(-32603);
  });

  it('a result over the 24 KiB tool-result budget → 500 -32603', async () => {
    const small = await call('big', { bytes: 8000 });
    expect(small.status).toBe(200);
    const r = await call('big', { bytes: 30000 });
    expect(r.status).toBe(500);
    expect(r.body.error.code).toBe(-32603);
  });

  it('Mcp-Name disagreeing with params.name → 400 -32020', async () => {
    const r = await call('add', { a: 1, b: 2 }, { 'mcp-name': 'other' });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe(-32020);
  });

  it('extra _meta keys (progressToken, vendor keys) are accepted and ignored', async () => {
    const r = await post('tools/call', { name: 'add', arguments: { a: 1, b: 1 }, _meta: { progressToken: 'p1', 'com.example/trace': { id: 3 } } });
    expect(r.status).toBe(200);
    expect(r.body.result.structuredContent).toEqual({ sum: 2 });
  });

  it('a handler still running at the request deadline → 408 -32603, id echoed', async () => {
    const fast = mcp({ router: new EntityRouter('slow').operation('slow', { handler: () => new Promise<never>(() => undefined) }), serverInfo: { name: 's', version: '1' }, limits: { deadlineMs: 300 } });
    const t0 = Date.now();
    const res = await fast.handle({
      request: new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': PROTOCOL, 'mcp-method': 'tools/call', 'mcp-name': 'slow' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', _meta: META } }),
      }),
    });
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(res.status).toBe(408);
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Request interrupted' } });
  });

  it('tools/list projects the declared tools in order with closed outputs', async () => {
    const r = await post('tools/list', {});
    expect(r.status).toBe(200);
    const tools = r.body.result.tools;
    expect(tools.map((t: { name: string }) => t.name)).toEqual(['add', 'throws', 'bad_output', 'nothing', 'static', 'big', 'slow']);
    expect(tools[0].outputSchema.additionalProperties).toBe(false);
    expect(tools[0].inputSchema.additionalProperties).not.toBe(false);
    expect(tools[1].inputSchema).toEqual({ type: 'object', additionalProperties: false, ...(tools[1].inputSchema.$schema ? { $schema: tools[1].inputSchema.$schema } : {}) });
    expect(r.body.result.ttlMs).toBe(300_000);
    expect(r.body.result.cacheScope).toBe('private');
  });

  it('every Origin is rejected by the static binding', async () => {
    const r = await call('add', { a: 1, b: 2 }, { origin: 'https://app.example' });
    expect(r.status).toBe(403);
  });

  it('requests over 32 KiB are refused with 413', async () => {
    const r = await call('add', { a: 1, b: 2, pad: 'x'.repeat(33000) });
    expect(r.status).toBe(413);
  });
});
