// The opt-in rate limits (`rateLimit`) through the TypeScript driver and the Node/Fetch hosts' store:
// rows of requests at given host-clock times, from given client addresses and tokens, each
// asserting the exact status, Retry-After, Cache-Control and body, and whether the issuer was asked.
// Then the hosts themselves: the Node listener keys on the TCP peer (or what the caller vouches
// for), the Fetch handler on what it is told.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHostCore, drive, type HttpResult } from '../../src/core/driver';
import { bodyOf } from '../support/body';
import type { RateEffect } from '../../src/core/engine';
import { RateStore } from '../../src/core/rate-store';
import { resolveOptions } from '../../src/options';
import { statusBehindIssuer } from '../support/authorization';
import { META, modernHeaders } from '../support/fixtures';
import { createMcpHttpHandler, listen } from '../support/hosts';
import { createMcpNodeHandler } from '../../src/node';

const RESOURCE = 'https://mcp.pulse.test/mcp';
const ISSUER = 'https://id.pulse.test';
const ENDPOINT = 'https://api.pulse.test/rpc';
const NOW_S = 1_780_000_000;
const A = '203.0.113.7';
const B = '198.51.100.4';

/** Tokens the scripted issuer knows: their `sub` and `scope`; any other token is inactive. */
const TOKENS: Record<string, { sub: string; scope: string }> = {
  'tok-a': { sub: 'u1', scope: 'mcp:access status:call' },
  'tok-b': { sub: 'u2', scope: 'mcp:access status:call' },
  'tok-base': { sub: 'u3', scope: 'mcp:access' },
};

type Request = 'call' | 'list' | 'notify' | 'unknown';
/** [at ms, client address (null: the host knows none), token (null: none), request, status, Retry-After, body] */
type Step = [number, string | null, string | null, Request, number, string | null, string];
interface Row {
  name: string;
  authorized?: true;
  rateLimit: Record<string, unknown>;
  steps: Step[];
  /** Per step, whether the issuer was asked (authorized rows). */
  introspected?: boolean[];
}

const RESULT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  result: { resultType: 'complete', content: [{ type: 'text', text: 'null' }], isError: false, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'pulse-mcp', version: '1.0.0-beta.10' } } },
});
const LIST = '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","tools":[{"name":"status","description":"Baseline access","inputSchema":{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","additionalProperties":false}}],"ttlMs":300000,"cacheScope":"private","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"pulse-mcp","version":"1.0.0-beta.10"}}}}';
const limited = (ms: number, id: number | null = 1) => JSON.stringify({ jsonrpc: '2.0', ...(id === null ? {} : { id }), error: { code: -32023, message: 'Rate limited', data: { retryAfterMs: ms } } });
const UNKNOWN = '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Unknown tool"}}';
const INVALID_TOKEN = '{"error":"invalid_token","error_description":"The access token is invalid or expired"}';
const SCOPE = '{"error":"insufficient_scope","error_description":"The access token lacks a required scope"}';
const NO_ADDRESS = '{"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error: the host reported no client address"}}';

const rows: Row[] = [
  {
    name: "under, at and one past the caller's limit; the penalty box holds, then lets go",
    rateLimit: { toolCalls: { limit: 2, window: 10, penaltyMinutes: 2 } },
    steps: [
      [0, A, null, 'call', 200, null, RESULT],
      [1, A, null, 'call', 200, null, RESULT],
      [2, A, null, 'call', 429, '120', limited(120_000)],
      [3, A, null, 'call', 429, '120', limited(120_000)],
      [4, A, null, 'list', 200, null, LIST],
      [120_001, A, null, 'call', 429, '120', limited(120_000)],
      [120_002, A, null, 'call', 200, null, RESULT],
    ],
  },
  {
    name: 'the window rolls over by whole seconds',
    rateLimit: { toolCalls: { limit: 2, window: 10 } },
    steps: [
      [0, A, null, 'call', 200, null, RESULT],
      [5_000, A, null, 'call', 200, null, RESULT],
      [10_000, A, null, 'call', 200, null, RESULT],
      [10_500, A, null, 'call', 429, '60', limited(60_000)],
    ],
  },
  {
    name: 'two client addresses are counted apart; an IPv6 client by its /64',
    rateLimit: { toolCalls: { limit: 1 } },
    steps: [
      [0, A, null, 'call', 200, null, RESULT],
      [1, A, null, 'call', 429, '60', limited(60_000)],
      [2, B, null, 'call', 200, null, RESULT],
      [3, '2001:db8:1:2::1', null, 'call', 200, null, RESULT],
      [4, '[2001:db8:1:2:ffff::9]', null, 'call', 429, '60', limited(60_000)],
      [5, '2001:db8:1:3::1', null, 'call', 200, null, RESULT],
      [6, `::ffff:${B}`, null, 'call', 429, '60', limited(60_000)],
    ],
  },
  {
    name: 'a notification is never charged, and refused without a body while its caller is boxed',
    rateLimit: { toolCalls: { limit: 1 } },
    steps: [
      [0, A, null, 'notify', 202, null, ''],
      [1, A, null, 'notify', 202, null, ''],
      [2, A, null, 'call', 200, null, RESULT],
      [3, A, null, 'call', 429, '60', limited(60_000)],
      [4, A, null, 'notify', 429, '60', ''],
    ],
  },
  {
    name: 'a call of an unknown tool is not charged',
    rateLimit: { toolCalls: { limit: 1 } },
    steps: [
      [0, A, null, 'unknown', 400, null, UNKNOWN],
      [1, A, null, 'unknown', 400, null, UNKNOWN],
      [2, A, null, 'call', 200, null, RESULT],
      [3, A, null, 'unknown', 400, null, UNKNOWN],
    ],
  },
  {
    name: 'a tool with a budget of its own',
    rateLimit: { toolCalls: { limit: 5, tools: { status: { limit: 1, penaltyMinutes: 3 } } } },
    steps: [
      [0, A, null, 'call', 200, null, RESULT],
      [1, A, null, 'call', 429, '180', limited(180_000)],
    ],
  },
  {
    name: "the address budget refuses unknown tokens before introspection",
    authorized: true,
    rateLimit: { requests: { limit: 2, window: 10 } },
    steps: [
      [0, A, 'bogus-1', 'list', 401, null, INVALID_TOKEN],
      [1, A, 'bogus-2', 'list', 401, null, INVALID_TOKEN],
      [2, A, 'bogus-3', 'list', 429, '60', limited(60_000, null)],
      [3, A, 'tok-a', 'list', 429, '60', limited(60_000, null)],
      [4, B, 'tok-a', 'list', 200, null, LIST],
    ],
    introspected: [true, true, false, false, true],
  },
  {
    name: 'an authorized caller is its sub: a 401 or 403 is never charged, two subs are apart, one sub from two addresses is one caller',
    authorized: true,
    rateLimit: { toolCalls: { limit: 1 } },
    steps: [
      [0, A, 'tok-base', 'call', 403, null, SCOPE],
      [1, A, 'tok-base', 'call', 403, null, SCOPE],
      [2, A, 'bogus', 'call', 401, null, INVALID_TOKEN],
      [3, A, 'tok-a', 'call', 200, null, RESULT],
      [4, B, 'tok-a', 'call', 429, '60', limited(60_000)],
      [5, A, 'tok-b', 'call', 200, null, RESULT],
    ],
  },
  {
    name: 'a host that knows no client address cannot serve a budget per address',
    rateLimit: { requests: { limit: 5 } },
    steps: [[0, null, null, 'list', 500, null, NO_ADDRESS]],
  },
  {
    name: 'with authorization and only a caller budget, no address is needed',
    authorized: true,
    rateLimit: { toolCalls: { limit: 1 } },
    steps: [
      [0, null, 'tok-a', 'call', 200, null, RESULT],
      [1, null, 'tok-a', 'call', 429, '60', limited(60_000)],
    ],
  },
];

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function options(row: { authorized?: true; rateLimit: Record<string, unknown> }) {
  const o = statusBehindIssuer({ resource: RESOURCE, issuer: ISSUER, endpoint: ENDPOINT, extra: { operations: { status: ['status:call'] } } });
  const { authorization: _, ...open } = o;
  return { ...(row.authorized ? o : open), rateLimit: row.rateLimit };
}

function requestOf(kind: Request): { headers: [string, string][]; body: string } {
  const call = (name: string, id?: number) => JSON.stringify({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method: 'tools/call', params: { name, _meta: META } });
  switch (kind) {
    case 'call':
      return { headers: modernHeaders('tools/call', 'status'), body: call('status', 1) };
    case 'notify':
      return { headers: modernHeaders('tools/call', 'status'), body: call('status') };
    case 'unknown':
      return { headers: modernHeaders('tools/call', 'nope'), body: call('nope', 1) };
    case 'list':
      return { headers: modernHeaders('tools/list'), body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } }) };
  }
}


/** The scripted issuer and backend: introspection by token, the backend's `status` answering null. */
function exchangeOf(counter: { asked: number }) {
  return async (effect: { url: string; body?: string }): Promise<HttpResult> => {
    if (effect.url === `${ISSUER}/introspect`) {
      counter.asked++;
      const token = new URLSearchParams(effect.body ?? '').get('token') ?? '';
      const t = TOKENS[token];
      const claims = t === undefined ? { active: false } : { active: true, iss: ISSUER, aud: RESOURCE, exp: NOW_S + 3600, ...t };
      return { status: 200, body: encoder.encode(JSON.stringify(claims)) };
    }
    const id = (JSON.parse(effect.body ?? '{}') as { id?: unknown }).id;
    return { status: 200, body: encoder.encode(JSON.stringify({ jsonrpc: '2.0', id, result: null })) };
  };
}

beforeAll(() => void vi.useFakeTimers({ toFake: ['Date'] }));
afterAll(() => void vi.useRealTimers());

describe('rateLimit through the driver and the in-process store', () => {
  it.each(rows)('$name', async (row) => {
    let clock = 0;
    const counter = { asked: 0 };
    const host = createHostCore(resolveOptions(options(row)), { exchange: exchangeOf(counter), now: () => clock });
    const got: unknown[] = [];
    const asked: boolean[] = [];
    for (const [at, client, token, kind] of row.steps) {
      clock = at;
      vi.setSystemTime(NOW_S * 1000 + at);
      const r = requestOf(kind);
      const headers = [...r.headers, ...(token === null ? [] : [['authorization', `Bearer ${token}`]])].flat();
      const before = counter.asked;
      const { response } = await drive(host, { method: 'POST', target: '/mcp', headers, ...(client === null ? {} : { client }) }, bodyOf(r.body), undefined);
      const header = (name: string) => response.headers.find(([n]) => n === name)?.[1] ?? null;
      got.push([response.status, header('retry-after'), decoder.decode(response.body)]);
      if (response.status === 429) expect(header('cache-control')).toBe('no-store');
      asked.push(counter.asked > before);
    }
    expect(got).toEqual(row.steps.map(([, , , , status, retryAfter, body]) => [status, retryAfter, body]));
    if (row.introspected !== undefined) expect(asked).toEqual(row.introspected);
  });

  it('the store stays within maxEntries and maxBytes, the least recently used forgotten first', () => {
    let now = 0;
    const store = new RateStore(2, 1 << 20);
    const count = (entry: string, charge = true): RateEffect => ({ kind: 'rate', rateCounter: 'rc', penaltyBox: 'pb', entry, op: 'count', windowS: 60, charge });
    expect(store.perform(count('a'), now)).toEqual({ kind: 'counted', count: 1 });
    expect(store.perform(count('b'), now)).toEqual({ kind: 'counted', count: 1 });
    expect(store.perform(count('a'), now)).toEqual({ kind: 'counted', count: 2 });
    expect(store.perform(count('c'), now)).toEqual({ kind: 'counted', count: 1 }); // b, the least recently used, goes
    expect(store.perform(count('b'), now)).toEqual({ kind: 'counted', count: 1 });
    expect(store.size.entries).toBe(2);
    // A look without a charge neither counts nor keeps anything.
    expect(store.perform(count('d', false), now)).toEqual({ kind: 'counted', count: 0 });
    expect(store.size.entries).toBe(2);
    // The penalty box: held until its ttl, then gone.
    expect(store.perform({ kind: 'rate', rateCounter: 'rc', penaltyBox: 'pb', entry: 'a', op: 'penalize', ttlS: 60 }, now)).toEqual({ kind: 'penalized' });
    expect(store.perform(count('a', false), now)).toEqual({ kind: 'boxed' });
    now = 59_999;
    expect(store.perform(count('a'), now)).toEqual({ kind: 'boxed' });
    now = 60_000;
    expect(store.perform(count('a', false), now)).toEqual({ kind: 'counted', count: 0 });
    // Bytes: one counter is accounted about 570 bytes; 1200 bytes keep two.
    const small = new RateStore(100, 1200);
    for (const e of ['x', 'y', 'z']) small.perform(count(e), now);
    expect(small.size.entries).toBe(2);
    expect(small.size.bytes).toBeLessThanOrEqual(1200);
    // Counters and boxes of other names are other entries.
    expect(store.perform({ ...count('c'), rateCounter: 'other' }, now)).toEqual({ kind: 'counted', count: 1 });
  });

  it('the option is checked where it is written, with the core rule', () => {
    for (const [rateLimit, message] of [
      [{}, 'rateLimit: names no budget; give requests, toolCalls or both'],
      [{ requests: { limit: 0 } }, 'rateLimit.requests.limit: must be an integer from 1 to 1000000'],
      [{ requests: { limit: 5, window: 15 } }, 'rateLimit.requests.window: must be one of 10, 20, 30, 40, 50 or 60 seconds'],
      [{ toolCalls: { limit: 5, tools: { nope: { limit: 1 } } } }, 'rateLimit.toolCalls.tools: names a tool the router does not declare'],
      [{ requests: { limit: 5 }, maxBytes: 1 }, 'rateLimit.maxBytes: must be an integer from 65536 to 1073741824'],
    ] as const) {
      expect(() => createMcpHttpHandler(options({ rateLimit }) as never)).toThrow(message);
    }
  });
});

describe('the hosts report the client address', () => {
  const limitOne = options({ rateLimit: { toolCalls: { limit: 1 } } });
  const backend = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ jsonrpc: '2.0', id: (JSON.parse(body) as { id: unknown }).id, result: null }));
    });
  });
  let endpoint = '';
  beforeAll(async () => {
    vi.useRealTimers();
    await new Promise<void>((r) => backend.listen(0, '127.0.0.1', () => r()));
    endpoint = `http://127.0.0.1:${(backend.address() as { port: number }).port}/rpc`;
  });
  afterAll(() => new Promise<void>((r) => backend.close(() => r())));

  const withBackend = () => ({ ...limitOne, tools: { ...limitOne.tools, endpoint } });

  async function post(port: number, localAddress: string): Promise<{ status: number; body: string }> {
    const r = requestOf('call');
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, localAddress, method: 'POST', path: '/mcp', headers: Object.fromEntries(r.headers), agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end(r.body);
    });
  }

  it('the Node listener counts each TCP peer apart (Linux routes 127.0.0.0/8 to loopback)', async () => {
    const server = await listen(createMcpNodeHandler(withBackend() as never));
    try {
      const seen = [await post(server.port, '127.0.0.2'), await post(server.port, '127.0.0.2'), await post(server.port, '127.0.0.3')];
      expect(seen.map((s) => s.status)).toEqual([200, 429, 200]);
      expect(seen[1]!.body).toBe(limited(60_000));
    } finally {
      await server.close();
    }
  });

  it("the Node listener takes the address its caller vouches for (a proxy's), over the TCP peer", async () => {
    const handler = createMcpNodeHandler(withBackend() as never);
    let forwarded = 'x';
    const server = await listen((req, res) => handler(req, res, { clientAddress: forwarded }));
    try {
      const seen: number[] = [];
      for (const address of ['198.51.100.1', '198.51.100.1', '198.51.100.2']) {
        forwarded = address;
        seen.push((await post(server.port, '127.0.0.2')).status);
      }
      expect(seen).toEqual([200, 429, 200]);
    } finally {
      await server.close();
    }
  });

  it('the Fetch handler counts by clientAddress, and without one cannot serve a budget per address', async () => {
    const handler = createMcpHttpHandler(withBackend() as never);
    const r = requestOf('call');
    const send = (clientAddress?: string) =>
      handler.fetch(new Request('http://mcp.test/mcp', { method: 'POST', headers: r.headers, body: r.body }), clientAddress === undefined ? undefined : { clientAddress }).then(async (res) => [res.status, await res.text()]);
    expect(await send(A)).toEqual([200, RESULT]);
    expect(await send(A)).toEqual([429, limited(60_000)]);
    expect(await send(B)).toEqual([200, RESULT]);
    expect(await send()).toEqual([500, NO_ADDRESS]);
  });
});
