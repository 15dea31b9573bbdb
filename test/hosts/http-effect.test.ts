// The HTTP effect end to end, on both hosts, against a real loopback backend: the host performs the
// core's exchange exactly once and reports what it saw; the core alone judges status, redirects,
// size (exactly at the cap and one byte over), encoding and which timeout applies.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codec, EntityRouter, handlers } from '../../src/pulse';
import { META, PROTOCOL } from '../support/fixtures';
import { staticFetch, startStatic, type FetchHandler, type RunningServer } from '../support/hosts';

const CAP = 64;
/** A JSON body of exactly `n` bytes that the output codec accepts. */
const sized = (n: number): string => {
  const text = `{"ok":true,"path":"${'x'.repeat(n - 21)}"}`;
  if (Buffer.byteLength(text) !== n) throw new Error('sizing');
  return text;
};

const hits = new Map<string, number>();
const seen: { method: string; path: string; contentType: string | undefined; bodyBytes: number; authorization: string | undefined }[] = [];
const backend = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const path = req.url ?? '';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    seen.push({ method: req.method ?? '', path, contentType: req.headers['content-type'], bodyBytes: Buffer.concat(chunks).length, authorization: req.headers.authorization });
    const send = (status: number, body: string | Buffer, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body);
    };
    switch (path) {
      case '/ok':
      case '/get':
        return send(200, '{"ok":true,"path":"ok"}');
      case '/redirect':
        return send(302, '', { location: '/ok' });
      case '/at-cap':
        return send(200, sized(CAP));
      case '/over-cap':
        return send(200, sized(CAP + 1));
      case '/not-utf8':
        return send(200, Buffer.from([0x7b, 0x22, 0x6f, 0x6b, 0x22, 0x3a, 0xff, 0x7d]));
      case '/bom':
        return send(200, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"ok":true,"path":"bom"}')]));
      case '/error':
        return send(500, '{"ok":true,"path":"error"}');
      case '/slow':
        return setTimeout(() => send(200, '{"ok":true,"path":"slow"}'), 1500);
      default:
        return send(404, '{}');
    }
  });
});

let base = '';
let closed = '';
const reply = codec.object({ ok: codec.boolean(), path: codec.string({ maxLength: 128 }) });
const input = codec.object({ q: codec.string({ maxLength: 16 }) });

function router(): EntityRouter {
  const post = (path: string, timeoutMs = 2000, name = 'api') => handlers.backend({ backend: name, method: 'POST', path, maxBytes: CAP, timeoutMs });
  return new EntityRouter('effects', { backends: { api: base, closed } })
    .operation('ok', { input, output: reply, handler: post('/ok') })
    .operation('redirect', { input, output: reply, handler: post('/redirect') })
    .operation('at_cap', { input, output: reply, handler: post('/at-cap') })
    .operation('over_cap', { input, output: reply, handler: post('/over-cap') })
    .operation('not_utf8', { input, output: reply, handler: post('/not-utf8') })
    .operation('bom', { input, output: reply, handler: post('/bom') })
    .operation('error', { input, output: reply, handler: post('/error') })
    .operation('own_timeout', { input, output: reply, handler: post('/slow', 300) })
    .operation('deadline', { input, output: reply, handler: post('/slow', 5000) })
    .operation('unreachable', { input, output: reply, handler: post('/ok', 2000, 'closed') })
    .operation('get', { output: reply, handler: handlers.backend({ backend: 'api', method: 'GET', path: '/get', maxBytes: CAP, timeoutMs: 2000 }) });
}

// name, path the backend sees (or none), HTTP status, then the JSON-RPC code or the structured result.
const ROWS: [string, string | undefined, number, number | { path: string }][] = [
  ['ok', '/ok', 200, { path: 'ok' }],
  ['redirect', '/redirect', 502, -32603],
  ['at_cap', '/at-cap', 200, { path: 'x'.repeat(CAP - 21) }],
  ['over_cap', '/over-cap', 502, -32603],
  ['not_utf8', '/not-utf8', 502, -32603],
  ['bom', '/bom', 200, { path: 'bom' }],
  ['error', '/error', 502, -32603],
  ['own_timeout', '/slow', 502, -32603],
  ['deadline', '/slow', 408, -32603],
  ['unreachable', undefined, 502, -32603],
  ['get', '/get', 200, { path: 'ok' }],
];

function body(name: string): string {
  const args = name === 'get' ? {} : { arguments: { q: 'x' } };
  return JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name, ...args, _meta: META } });
}

const HEADERS = (name: string): Record<string, string> => ({
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
  'mcp-protocol-version': PROTOCOL,
  'mcp-method': 'tools/call',
  'mcp-name': name,
});

type Exchange = (name: string) => Promise<{ status: number; json: any }>;

const OPTIONS = () => ({ router: router(), serverInfo: { name: 'effects', version: '1' }, limits: { deadlineMs: 1000 } });

beforeAll(async () => {
  await new Promise<void>((r) => backend.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
  // A port that was just free: nothing listens there.
  const probe = http.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  closed = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
  await new Promise<void>((r) => probe.close(() => r()));
});

afterAll(async () => {
  backend.closeAllConnections();
  await new Promise<void>((r) => backend.close(() => r()));
});

function table(host: string, exchange: () => Exchange): void {
  describe(`HTTP effect through the ${host} host`, () => {
    for (const [name, path, status, expected] of ROWS) {
      it(`${name} → ${status}`, async () => {
        const before = path === undefined ? 0 : (hits.get(path) ?? 0);
        const r = await exchange()(name);
        expect(r.status).toBe(status);
        expect(r.json.id).toBe(9);
        if (typeof expected === 'number') {
          expect(r.json.error.code).toBe(expected);
          expect(r.json.error.data).toBeUndefined();
        } else {
          expect(r.json.result.isError).toBe(false);
          expect(r.json.result.structuredContent).toEqual({ ok: true, ...expected });
        }
        // Exactly one exchange per call: no retry, and a redirect is never followed.
        if (path !== undefined) expect((hits.get(path) ?? 0) - before).toBe(1);
        if (name === 'redirect') await new Promise((res) => setTimeout(res, 50));
      });
    }

    it('a GET carries no body and no content type; a POST carries the canonical input', async () => {
      seen.length = 0;
      await exchange()('get');
      await exchange()('ok');
      expect(seen.map((s) => [s.method, s.path, s.contentType, s.bodyBytes])).toEqual([
        ['GET', '/get', undefined, 0],
        ['POST', '/ok', 'application/json', Buffer.byteLength('{"q":"x"}')],
      ]);
      expect(seen.every((s) => s.authorization === undefined)).toBe(true);
    });
  });
}

let node: RunningServer;
let fetchHandler: FetchHandler;

beforeAll(async () => {
  node = await startStatic(OPTIONS());
  fetchHandler = staticFetch(OPTIONS());
});

afterAll(async () => {
  await node.close();
});

table('Node', () => async (name) => {
  const res = await fetch(`http://127.0.0.1:${node.port}/mcp`, { method: 'POST', headers: HEADERS(name), body: body(name) });
  return { status: res.status, json: await res.json() };
});

table('Fetch', () => async (name) => {
  const res = await fetchHandler.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: HEADERS(name), body: body(name) }));
  return { status: res.status, json: await res.json() };
});

describe('redirects are never followed', () => {
  it('the redirect target was only ever requested directly', () => {
    // `/ok` is hit by the `ok` rows and the GET/POST check only: twice per host.
    expect(hits.get('/ok')).toBe(4);
  });
});
