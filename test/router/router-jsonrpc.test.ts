/** jsonRpc(router): the router as a JSON-RPC 2.0 endpoint through the core's jsonrpc profile. */
import { describe, expect, it } from 'vitest';
import { codec, EntityRouter, handlers, jsonRpc, PulseRouterError } from '../../src/pulse';

let notified = 0;
const router = new EntityRouter('rpc')
  .operation('add', {
    input: codec.object({ a: codec.i32(), b: codec.i32() }),
    output: codec.object({ sum: codec.i32() }),
    handler: (_ctx, { a, b }) => ({ sum: a + b }),
  })
  .operation('throws', {
    handler: () => {
      throw new Error('internal detail');
    },
  })
  .operation('bad_output', { output: codec.object({ n: codec.i32() }), handler: () => ({ n: 'x' }) as never })
  .operation('notify', { handler: () => void (notified += 1) })
  .operation('version', { output: codec.object({ v: codec.string() }), handler: handlers.static({ v: '1' }) });

const rpc = jsonRpc(router);

async function send(body: unknown, raw = false): Promise<{ status: number; body: any }> {
  const res = await rpc.fetch(
    new Request('http://127.0.0.1/', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: raw ? (body as string) : JSON.stringify(body),
    }),
  );
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

describe('jsonRpc(router)', () => {
  it('calls an operation with named params', async () => {
    const r = await send({ jsonrpc: '2.0', id: 1, method: 'add', params: { a: 2, b: 3 } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ jsonrpc: '2.0', id: 1, result: { sum: 5 } });
  });

  it('serves native handlers and operations without output', async () => {
    expect((await send({ jsonrpc: '2.0', id: 'v', method: 'version' })).body.result).toEqual({ v: '1' });
    expect((await send({ jsonrpc: '2.0', id: 2, method: 'notify', params: {} })).body.result).toBeNull();
  });

  it('unknown method → -32601', async () => {
    const r = await send({ jsonrpc: '2.0', id: 1, method: 'missing', params: {} });
    expect(r.body.error.code).toBe(-32601);
  });

  it('invalid params → -32602 with a path, never the value; positional params refused', async () => {
    const r = await send({ jsonrpc: '2.0', id: 1, method: 'add', params: { a: 'secret-value', b: 1 } });
    expect(r.body.error.code).toBe(-32602);
    expect(JSON.stringify(r.body)).not.toContain('secret-value');
    expect((await send({ jsonrpc: '2.0', id: 1, method: 'add', params: [1, 2] })).body.error.code).toBe(-32602);
  });

  it('execution and output-validation failures share one code', async () => {
    const thrown = await send({ jsonrpc: '2.0', id: 1, method: 'throws' });
    const output = await send({ jsonrpc: '2.0', id: 2, method: 'bad_output' });
    expect(thrown.body.error.code).toBe(-32000);
    expect(output.body.error.code).toBe(-32000);
    expect(JSON.stringify(thrown.body)).not.toContain('internal detail');
  });

  it('a notification is executed and gets no reply', async () => {
    const before = notified;
    const r = await send({ jsonrpc: '2.0', method: 'notify', params: {} });
    expect(r.body).toBeUndefined();
    expect(r.status).toBeLessThan(300);
    expect(notified).toBe(before + 1);
  });

  it('parse errors and batches are refused by the core', async () => {
    expect((await send('{"jsonrpc":', true)).body.error.code).toBe(-32700);
    expect((await send([{ jsonrpc: '2.0', id: 1, method: 'add' }])).body.error.code).toBe(-32600);
  });

  it('serves its path only', async () => {
    const res = await rpc.fetch(new Request('http://127.0.0.1/other', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }));
    expect(res.status).toBe(404);
  });

  it('binding freezes the router; bad options are typed errors', () => {
    expect(router.frozen).toBe(true);
    expect(() => router.operation('late', { handler: handlers.static(null) })).toThrow(PulseRouterError);
    expect(() => jsonRpc(new EntityRouter('x').operation('a', { handler: handlers.static(null) }), { extra: 1 } as never)).toThrow(PulseRouterError);
  });
});
