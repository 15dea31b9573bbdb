/**
 * A JavaScript handler and the two clocks it runs against, through the static binding (`mcp()`),
 * as the core decides them: the request's deadline (`limits.deadlineMs`) running out while the
 * handler runs is 408 `-32603` with the id, like every other deadline; the router's own
 * `budgets.deadlineMs`, when it is the shorter bound, is the handler's budget, and running past it is
 * a tool error (200 `isError`).
 */
import { describe, expect, it } from 'vitest';
import { EntityRouter, mcp } from '../../src/pulse';

const PROTOCOL = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': PROTOCOL,
  'io.modelcontextprotocol/clientInfo': { name: 'deadline', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const SERVER_INFO = { name: 'deadline', version: '1' };

/** A handler that never settles, unless the run is cancelled. */
const hang = () => new Promise<never>(() => undefined);

function call(id: number | string): Request {
  return new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL,
      'mcp-method': 'tools/call',
      'mcp-name': 'slow',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'slow', _meta: META } }),
  });
}

async function reply(server: ReturnType<typeof mcp>, id: number | string): Promise<{ status: number; text: string; ms: number }> {
  const t0 = performance.now();
  const res = await server.handle({ request: call(id) });
  return { status: res.status, text: await res.text(), ms: performance.now() - t0 };
}

describe('a JavaScript handler past a deadline (static binding)', () => {
  it('the request deadline ends the handler: 408 -32603 with the id, every time', async () => {
    const server = mcp({ router: new EntityRouter('slow').operation('slow', { handler: hang }), serverInfo: SERVER_INFO, limits: { deadlineMs: 300 } });
    // Repeated: whichever of the host's timers fires first (the handler's whole-millisecond budget
    // or the request's deadline), the core gives the same answer.
    for (let i = 0; i < 10; i++) {
      const r = await reply(server, i);
      expect(r.status).toBe(408);
      expect(r.text).toBe(`{"jsonrpc":"2.0","id":${i},"error":{"code":-32603,"message":"Request interrupted"}}`);
      expect(r.ms).toBeLessThan(2000);
    }
    const r = await reply(server, 'abc');
    expect([r.status, r.text]).toEqual([408, '{"jsonrpc":"2.0","id":"abc","error":{"code":-32603,"message":"Request interrupted"}}']);
  });

  it("the router's own shorter budget ends the handler: a tool error", async () => {
    const router = new EntityRouter('slow', { budgets: { deadlineMs: 30 } }).operation('slow', { handler: hang });
    const server = mcp({ router, serverInfo: SERVER_INFO });
    const r = await reply(server, 7);
    expect(r.status).toBe(200);
    const body = JSON.parse(r.text);
    expect(body.id).toBe(7);
    expect(body.result.content).toEqual([{ type: 'text', text: 'Tool execution failed' }]);
    expect(body.result.isError).toBe(true);
    expect(r.ms).toBeLessThan(2000);
  });
});
