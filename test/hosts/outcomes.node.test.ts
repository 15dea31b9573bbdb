// Every outcome row over a real TCP socket against http.createServer(createMcpNodeHandler(...)).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTCOMES, OUTCOME_PROFILES, type OutcomeRow } from '../support/outcomes';
import { compareOutcome } from '../support/compare';
import http from 'node:http';
import { DISCOVER_RESULT, envelope, modernHeaders } from '../support/fixtures';
import { startNode, type RunningServer } from '../support/hosts';
import { encodeRequest, send, type RawRequest } from '../support/raw-http';
import { expectRowEvent, tapEvents } from '../support/events';

const servers = new Map<string, RunningServer>();
const events = tapEvents();
const toBytes = (b: string | Uint8Array) => (typeof b === 'string' ? Buffer.from(b, 'utf8') : b);

beforeAll(async () => {
  for (const [name, options] of Object.entries(OUTCOME_PROFILES)) servers.set(name, await startNode(options as never));
});
afterAll(async () => {
  for (const s of servers.values()) await s.close();
  events.close();
});

export async function runNodeRow(port: number, row: OutcomeRow) {
  const r = row.request;
  const req: RawRequest = { method: r.method, path: r.path, headers: r.headers };
  if (r.chunks) req.chunks = r.chunks.map(toBytes);
  else if (r.body !== undefined) req.body = toBytes(r.body);
  if (r.stall && !req.chunks) req.chunks = [req.body ?? new Uint8Array(0)];
  // A stalled upload is the chunked request without its terminating "0\r\n\r\n".
  const stallAfterBytes = r.stall ? encodeRequest(req).length - 5 : undefined;
  return send(port, req, { timeoutMs: row.timeoutMs ?? 5000, stallAfterBytes });
}

describe('outcome table over TCP (Node host)', () => {
  for (const row of OUTCOMES.filter((r) => r.only !== 'fetch')) {
    it(row.name, async () => {
      const port = servers.get(row.profile)!.port;
      events.take();
      const ex = await runNodeRow(port, row);
      expect(ex.response, `no response (${ex.error ?? 'timeout'}, socket closed: ${ex.socketClosed})`).not.toBeNull();
      const res = ex.response!;
      expect(compareOutcome(row.expected, { status: res.status, headers: res.headers, body: res.body })).toEqual([]);
      expectRowEvent(row, { status: res.status, headers: res.headers, body: res.body }, events.take());
      if (row.request.stall) {
        // Answered without the rest of the body, then the connection is closed (never left hanging).
        expect(ex.socketClosed, 'connection closed after the early reply').toBe(true);
      }
    });
  }
});

describe('Node host connection handling', () => {
  it('an early rejection closes the connection after the reply instead of draining a long upload', async () => {
    const port = servers.get('small')!.port;
    const head = [['accept', 'application/json, text/event-stream'], ['content-type', 'application/json'],
      ['mcp-protocol-version', '2026-07-28'], ['mcp-method', 'server/discover'], ['content-length', '10000000']] as [string, string][];
    // Declares 10 MB, sends 4 KiB and then nothing: the reply must come at once, not after 10 MB.
    const req: RawRequest = { method: 'POST', path: '/mcp', headers: head, body: Buffer.alloc(4096, 0x20) };
    const bytes = encodeRequest(req);
    const ex = await send(port, req, { timeoutMs: 3000, stallAfterBytes: bytes.length });
    expect(ex.response?.status).toBe(413);
    expect(ex.socketClosed).toBe(true);
  });

  it('a fast 2 MB upload over the default limit still gets its 413 before the connection ends', async () => {
    const port = servers.get('default')!.port;
    const body = Buffer.alloc(2 * 1024 * 1024, 0x20);
    body.write('{"jsonrpc":"2.0","id":1,');
    for (let i = 0; i < 5; i++) {
      const ex = await send(port, { method: 'POST', path: '/mcp', headers: modernHeaders('server/discover'), body }, { timeoutMs: 5000 });
      expect(ex.response?.status, `attempt ${i}: ${ex.error ?? ''}`).toBe(413);
      expect(JSON.parse(ex.response!.body.toString()).error.code).toBe(-32600);
      expect(ex.socketClosed).toBe(true);
    }
  });

  it('answers 60 concurrent mixed requests each with its own outcome', async () => {
    const port = servers.get('default')!.port;
    const kinds = [
      { body: (i: number) => envelope('server/discover', i), status: 200 },
      { body: () => '{"jsonrpc":"2.0","id":1,"id":2}', status: 400 },
      { body: (i: number) => envelope('ping', i), status: 404, headers: modernHeaders('ping') },
    ];
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => {
        const k = kinds[i % 3];
        const chunks = Buffer.from(k.body(i)).toString('latin1').match(/[\s\S]{1,9}/g)!.map((c) => Buffer.from(c, 'latin1'));
        return send(port, { method: 'POST', path: '/mcp', headers: k.headers ?? modernHeaders('server/discover'), chunks }).then((ex) => ({ i, ex }));
      }),
    );
    for (const { i, ex } of results) {
      const k = kinds[i % 3];
      expect(ex.response?.status, `request ${i}`).toBe(k.status);
      const j = JSON.parse(ex.response!.body.toString());
      if (k.status !== 400) expect(j.id, `request ${i}`).toBe(i);
      else expect('id' in j).toBe(false);
    }
  });

  // request target, status: an absolute-form target is read as its path and query.
  const TARGETS: [string, number][] = [
    ['/mcp', 200],
    ['http://127.0.0.1/mcp', 200],
    ['HTTP://h.example/mcp', 200],
    ['http://h.example/mcp?a=1', 200],
    ['http://h.example/other', 404],
    ['http://h.example', 404],
    ['http://[bad/mcp', 404],
    ['/http://h.example/mcp', 404],
  ];
  for (const [target, status] of TARGETS) {
    it(`the request target ${target} → ${status}`, async () => {
      const ex = await send(servers.get('default')!.port, { method: 'POST', path: target, headers: modernHeaders('server/discover'), body: Buffer.from(envelope('server/discover', 1)) }, { timeoutMs: 3000 });
      expect(ex.response?.status).toBe(status);
      const text = ex.response!.body.toString();
      if (status === 200) expect(JSON.parse(text)).toEqual({ jsonrpc: '2.0', id: 1, result: DISCOVER_RESULT });
      else expect(text).toBe('');
    });
  }

  it('serves sequential requests on one kept-alive connection', async () => {
    const port = servers.get('default')!.port;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    try {
      for (let i = 0; i < 3; i++) {
        const status = await new Promise<number>((resolve, reject) => {
          const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent,
            headers: Object.fromEntries(modernHeaders('server/discover')) }, (res) => {
            sockets.add(req.socket);
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          });
          req.on('error', reject);
          req.end(envelope('server/discover', i));
        });
        expect(status).toBe(200);
      }
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
    }
  });
});
