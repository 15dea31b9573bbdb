// Every outcome row through handler.fetch(new Request(...)) of createMcpHttpHandler.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { OUTCOMES, OUTCOME_PROFILES, type OutcomeRow } from '../support/outcomes';
import { compareOutcome, type Observed } from '../support/compare';
import { getEventListeners } from 'node:events';
import { DISCOVER_RESULT, discoverWith, envelope, META, modernHeaders, SERVER_INFO } from '../support/fixtures';
import { fetchHandler, staticFetch, type FetchHandler } from '../support/hosts';
import { EntityRouter } from '../../src/pulse';
import { CoreRequest } from '../../src/core/engine';
import { expectRowEvent, tapEvents } from '../support/events';

const handlers = new Map<string, FetchHandler>();
const handlerFor = (p: string) => {
  if (!handlers.has(p)) handlers.set(p, fetchHandler(OUTCOME_PROFILES[p] as never));
  return handlers.get(p)!;
};
const toBytes = (b: string | Uint8Array) => (typeof b === 'string' ? new TextEncoder().encode(b) : b);

export interface StreamProbe {
  stream: ReadableStream<Uint8Array>;
  cancelled: () => boolean;
}

/** A body stream over `chunks` that then ends, stalls, or errors; records whether it was cancelled. */
export function probeStream(chunks: Uint8Array[], after: 'end' | 'stall' | 'fail', cancelResult?: Promise<void>): StreamProbe {
  let cancelled = false;
  let i = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (i < chunks.length) {
        c.enqueue(chunks[i++]);
        return;
      }
      if (after === 'end') c.close();
      else if (after === 'fail') c.error(new Error('upload interrupted'));
      else return new Promise<void>(() => {}); // stall: never produces more
      return undefined;
    },
    cancel() {
      cancelled = true;
      return cancelResult;
    },
  }, { highWaterMark: 0 });
  return { stream, cancelled: () => cancelled };
}

export function buildRequest(r: OutcomeRow['request']): { request: Request; probe?: StreamProbe } {
  const headers = new Headers();
  for (const [n, v] of r.headers) headers.append(n, v);
  const init: RequestInit & { duplex?: 'half' } = { method: r.method, headers };
  let probe: StreamProbe | undefined;
  if (r.chunks || r.stall || r.fail) {
    const chunks = (r.chunks ?? (r.body !== undefined ? [r.body] : [])).map(toBytes);
    probe = probeStream(chunks, r.stall ? 'stall' : r.fail ? 'fail' : 'end');
    init.body = probe.stream;
    init.duplex = 'half';
  } else if (r.body !== undefined) {
    init.body = toBytes(r.body) as BodyInit;
  }
  return { request: new Request(`http://127.0.0.1${r.path}`, init), probe };
}

export async function observe(res: Response): Promise<Observed> {
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => (headers[k] = v));
  return { status: res.status, headers, body: new Uint8Array(await res.arrayBuffer()) };
}

/** `request` as a runtime whose Request carries this `signal` (or none) would hand it over. */
function withSignal(request: Request, signal: unknown): Request {
  return new Proxy(request, { get: (target, key) => (key === 'signal' ? signal : Reflect.get(target, key)) });
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let t: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(t)),
    new Promise<T>((_, reject) => (t = setTimeout(() => reject(new Error(`${what}: no reply within ${ms} ms`)), ms))),
  ]);
}

async function runFetchRow(row: OutcomeRow) {
  const { request, probe } = buildRequest(row.request);
  const res = await withTimeout(handlerFor(row.profile).fetch(request), row.timeoutMs ?? 5000, row.name);
  return { observed: await observe(res), probe, res };
}

describe('outcome table through fetch() (Fetch handler)', () => {
  const events = tapEvents();
  afterAll(() => events.close());
  for (const row of OUTCOMES.filter((r) => r.only !== 'node')) {
    it(row.name, async () => {
      events.take();
      const { observed, probe } = await runFetchRow(row);
      expect(compareOutcome(row.expected, observed)).toEqual([]);
      expectRowEvent(row, observed, events.take());
      if (row.request.stall) expect(probe?.cancelled(), 'the stalled body was cancelled').toBe(true);
    });
  }
});

describe('Fetch host body lifetime', () => {
  const head = modernHeaders('server/discover');
  const stalled = (h: [string, string][], cancelResult?: Promise<void>) => {
    const probe = probeStream([new TextEncoder().encode('{"jsonrpc":"2.0",')], 'stall', cancelResult);
    const headers = new Headers();
    for (const [n, v] of h) headers.append(n, v);
    return { probe, request: new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: probe.stream, duplex: 'half' } as RequestInit) };
  };

  it('an early header rejection (415) cancels the unread body', async () => {
    const { probe, request } = stalled(head.map(([n, v]) => (n === 'content-type' ? [n, 'text/plain'] : [n, v])) as [string, string][]);
    const res = await withTimeout(handlerFor('default').fetch(request), 2000, '415');
    expect(res.status).toBe(415);
    await res.arrayBuffer();
    expect(probe.cancelled()).toBe(true);
  });

  it('an early Origin rejection (403) cancels the unread body', async () => {
    const { probe, request } = stalled([...head, ['origin', 'https://evil.example']]);
    const res = await withTimeout(handlerFor('default').fetch(request), 2000, '403');
    expect(res.status).toBe(403);
    expect(probe.cancelled()).toBe(true);
  });

  it('cleanup does not wait for an uncooperative cancel promise', async () => {
    const never = new Promise<void>(() => {});
    const { probe, request } = stalled(head.map(([n, v]) => (n === 'accept' ? [n, '*/*'] : [n, v])) as [string, string][], never);
    const res = await withTimeout(handlerFor('default').fetch(request), 2000, '406');
    expect(res.status).toBe(406);
    expect(probe.cancelled()).toBe(true);
  });

  it('a deadline during a stalled body answers 408 even when cancel never settles', async () => {
    const never = new Promise<void>(() => {});
    const { probe, request } = stalled(head, never);
    const t0 = performance.now();
    const res = await withTimeout(handlerFor('slow').fetch(request), 3000, '408');
    const elapsed = performance.now() - t0;
    expect(res.status).toBe(408);
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(probe.cancelled()).toBe(true);
  });

  it('a client that goes away (request.signal aborts) mid-body ends the request promptly', async () => {
    const probe = probeStream([new TextEncoder().encode('{"jsonrpc":"2.0",')], 'stall');
    const ac = new AbortController();
    const headers = new Headers(head);
    const request = new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: probe.stream, duplex: 'half', signal: ac.signal } as RequestInit);
    setTimeout(() => ac.abort(), 50);
    const t0 = performance.now();
    // Default profile: a 10 s deadline, so only the departure can end this quickly.
    const res = await withTimeout(handlerFor('default').fetch(request), 2000, 'departure');
    expect(performance.now() - t0).toBeLessThan(1500);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(probe.cancelled()).toBe(true);
  });

  // name, how the request's signal looks to the host, then status and exact body (discover: its result)
  const SIGNALS: [string, (request: Request) => Request, number, string | 'discover'][] = [
    ['a live signal: served, its abort listener removed after', (r) => r, 200, 'discover'],
    ['a signal already aborted: the departed client is answered at once', (r) => {
      const ac = new AbortController();
      ac.abort();
      return new Request(r, { signal: ac.signal });
    }, 408, '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Request body interrupted"}}'],
    // Runtimes whose Request has no signal, or one without addEventListener: never a departure.
    ['no signal: served', (r) => withSignal(r, undefined), 200, 'discover'],
    ['a signal without addEventListener: served, its aborted flag never read', (r) => withSignal(r, { aborted: true }), 200, 'discover'],
  ];
  for (const [name, shape, status, body] of SIGNALS) {
    it(`the request's signal: ${name}`, async () => {
      const request = shape(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: new Headers(head), body: envelope('server/discover', 1) }));
      const res = await withTimeout(handlerFor('default').fetch(request), 2000, name);
      expect(res.status).toBe(status);
      const text = await res.text();
      if (body === 'discover') expect(JSON.parse(text)).toEqual({ jsonrpc: '2.0', id: 1, result: DISCOVER_RESULT });
      else expect(text).toBe(body);
      if (request.signal instanceof AbortSignal) expect(getEventListeners(request.signal, 'abort')).toEqual([]);
    });
  }

  it('handles many concurrent requests independently', async () => {
    const h = handlerFor('default');
    const n = 64;
    const replies = await Promise.all(
      Array.from({ length: n }, (_, i) => {
        const body = i % 2 === 0 ? envelope('server/discover', i) : discoverWith('1e400', i);
        const headers = new Headers(head);
        return h.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body })).then(observe);
      }),
    );
    replies.forEach((r, i) => {
      const j = JSON.parse(Buffer.from(r.body).toString());
      if (i % 2 === 0) expect([r.status, j.id]).toEqual([200, i]);
      else expect([r.status, j.error?.code, 'id' in j]).toEqual([400, -32700, false]);
    });
  });
});

describe('envelope-less requests on the modern-only profile', () => {
  // The brief's ladder makes a missing MCP-Protocol-Version -32020; the SDK's strict mode answers
  // envelope-less requests with -32022. Either is accepted here, but a -32022 must carry the data the
  // schema requires: { supported: string[], requested: string }.
  for (const method of ['tools/list', 'ping', 'server/discover']) {
    it(`${method} without headers or _meta → 400 -32020, or -32022 with supported and requested`, async () => {
      const headers = new Headers([['accept', 'application/json, text/event-stream'], ['content-type', 'application/json']]);
      const res = await handlerFor('default').fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: `{"jsonrpc":"2.0","id":5,"method":"${method}"}` }));
      const j = await res.json();
      expect(res.status).toBe(400);
      expect([-32020, -32022]).toContain(j.error?.code);
      expect(j.id).toBe(5);
      if (j.error.code === -32022) {
        expect(j.error.data?.supported).toEqual(['2026-07-28']);
        expect(typeof j.error.data?.requested, `data ${JSON.stringify(j.error.data)}`).toBe('string');
      }
    });
  }
});

describe('Fetch host: requests without a body, a stream that fails', () => {
  // method, then status and exact body: a Request without a body (request.body null) is an empty one.
  const NO_BODY: [string, number, string][] = [
    ['POST', 400, '{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error: incomplete JSON"}}'],
  ];
  for (const [method, status, text] of NO_BODY) {
    it(`${method} without a body → ${status}`, async () => {
      const request = new Request('http://127.0.0.1/mcp', { method, headers: new Headers(modernHeaders('server/discover')) });
      expect(request.body).toBeNull();
      const res = await withTimeout(handlerFor('default').fetch(request), 2000, method);
      expect([res.status, await res.text()]).toEqual([status, text]);
    });
  }

  it('a failure inside the driver before any reply → 500 -32603', async () => {
    const spy = vi.spyOn(CoreRequest.prototype, 'head').mockImplementation(() => {
      throw new Error('core failed');
    });
    try {
      const request = new Request('http://127.0.0.1/mcp', { method: 'POST', headers: new Headers(modernHeaders('server/discover')), body: envelope('server/discover', 1) });
      const res = await withTimeout(handlerFor('default').fetch(request), 2000, '500');
      expect(await observe(res)).toEqual({
        status: 500,
        headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
        body: new TextEncoder().encode('{"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error"}}'),
      });
    } finally {
      spy.mockRestore();
    }
  });

  it('a failure after an event stream began errors the stream', async () => {
    const router = new EntityRouter('s').operation('step', {
      content: true,
      handler: async (ctx) => {
        ctx.progress?.(0, 1, 'step');
        await new Promise((r) => setTimeout(r, 10));
        return [{ type: 'text', text: 'done' }];
      },
    });
    const binding = staticFetch({ router, serverInfo: SERVER_INFO, contentBlocks: true, progress: true });
    const spy = vi.spyOn(CoreRequest.prototype, 'handlerOutput').mockImplementation(() => {
      throw new Error('core failed');
    });
    try {
      const headers = new Headers(modernHeaders('tools/call', 'step'));
      const body = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'step', _meta: { ...META, progressToken: 't' } } });
      const res = await withTimeout(binding.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body })), 2000, 'stream');
      expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
      const reader = res.body!.getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      expect(first).toBe('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":0,"total":1,"message":"step"}}\n\n');
      await expect(withTimeout(reader.read(), 2000, 'the stream\'s end')).rejects.toThrow(/^stream failed$/);
    } finally {
      spy.mockRestore();
    }
  });
});
