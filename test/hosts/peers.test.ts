// Real peers against the Node host over TCP: the official client pinned to 2026-07-28, a slow-body
// client, disconnecting clients, and a long run of rejected oversized uploads (memory stays flat).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCEPT, CT, envelope, modernHeaders, PROTOCOL, SERVER_INFO } from '../support/fixtures';
import { startNode, type RunningServer } from '../support/hosts';
import { encodeRequest, send, type RawRequest } from '../support/raw-http';

const DISCOVER_HEADERS = modernHeaders('server/discover');
const discoverOnce = async (port: number, id = 1) => {
  const ex = await send(port, { method: 'POST', path: '/mcp', headers: DISCOVER_HEADERS, body: Buffer.from(envelope('server/discover', id)) });
  return ex.response;
};

describe('official @modelcontextprotocol/client 2.4.0', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startNode({ serverInfo: SERVER_INFO });
  });
  afterAll(async () => srv.close());

  it('pinned to 2026-07-28, discovers the server (repeatedly)', async () => {
    for (let i = 0; i < 3; i++) {
      const client = new Client({ name: 'pulse-peer', version: '0.0.1' }, { versionNegotiation: { mode: { pin: PROTOCOL } } });
      try {
        await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${srv.port}/mcp`)));
        expect(client.getProtocolEra()).toBe('modern');
        expect(client.getNegotiatedProtocolVersion()).toBe(PROTOCOL);
        const d = client.getDiscoverResult() as Record<string, unknown> | undefined;
        expect(d).toBeDefined();
        expect(d).toMatchObject({
          resultType: 'complete',
          supportedVersions: [PROTOCOL],
          capabilities: {},
          ttlMs: 0,
          cacheScope: 'private',
          _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
        });
      } finally {
        await client.close();
      }
    }
  });

  it('in its default (2025 initialize) mode is refused by the modern-only server', async () => {
    const client = new Client({ name: 'pulse-peer-legacy', version: '0.0.1' });
    try {
      await expect(client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${srv.port}/mcp`)))).rejects.toThrow(
        /32022|nsupported protocol version/,
      );
    } finally {
      await client.close().catch(() => {});
    }
  });
});

describe('slow and disconnecting clients', () => {
  let slow: RunningServer;
  let normal: RunningServer;
  beforeAll(async () => {
    slow = await startNode({ serverInfo: SERVER_INFO, limits: { deadlineMs: 300 } });
    normal = await startNode({ serverInfo: SERVER_INFO });
  });
  afterAll(async () => {
    await slow.close();
    await normal.close();
  });

  const partial = (framing: 'length' | 'chunked'): { req: RawRequest; sendBytes: number } => {
    const body = Buffer.from(envelope('server/discover', 1));
    const half = body.subarray(0, 50);
    if (framing === 'length') {
      const req: RawRequest = { method: 'POST', path: '/mcp', headers: [...DISCOVER_HEADERS, ['content-length', String(body.length)]], body: half };
      return { req, sendBytes: encodeRequest(req).length };
    }
    const req: RawRequest = { method: 'POST', path: '/mcp', headers: DISCOVER_HEADERS, chunks: [half] };
    return { req, sendBytes: encodeRequest(req).length - 5 }; // without the terminating chunk
  };

  for (const framing of ['length', 'chunked'] as const) {
    it(`a stalled body (${framing}) gets 408 -32600 without id at the deadline, then the connection closes`, async () => {
      const { req, sendBytes } = partial(framing);
      const ex = await send(slow.port, req, { timeoutMs: 4000, stallAfterBytes: sendBytes });
      expect(ex.response, ex.error ?? 'no reply').not.toBeNull();
      const res = ex.response!;
      expect(res.status).toBe(408);
      const j = JSON.parse(res.body.toString('utf8'));
      expect(j.error?.code).toBe(-32600);
      expect('id' in j).toBe(false);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(ex.elapsedMs).toBeGreaterThanOrEqual(250);
      expect(ex.elapsedMs).toBeLessThan(2500);
      expect(ex.socketClosed).toBe(true);
    });
  }

  it('a slow but complete upload within the deadline is served', async () => {
    const body = Buffer.from(envelope('server/discover', 2));
    const chunks = [body.subarray(0, 30), body.subarray(30, 90), body.subarray(90)];
    // Chunks trickle in 50 ms apart, well inside the 300 ms deadline.
    const port = slow.port;
    const net = await import('node:net');
    const res = await new Promise<string>((resolve, reject) => {
      const s = net.connect({ host: '127.0.0.1', port });
      let data = '';
      s.on('data', (d) => (data += d.toString('latin1')));
      s.on('close', () => resolve(data));
      s.on('error', reject);
      const head = encodeRequest({ method: 'POST', path: '/mcp', headers: DISCOVER_HEADERS, chunks: [Buffer.from('x')] });
      const headOnly = head.subarray(0, head.indexOf('\r\n\r\n') + 4);
      s.write(headOnly);
      chunks.forEach((c, i) =>
        setTimeout(() => s.write(Buffer.concat([Buffer.from(c.length.toString(16) + '\r\n'), c, Buffer.from('\r\n')])), 50 * (i + 1)),
      );
      setTimeout(() => s.write('0\r\n\r\n'), 200);
      setTimeout(() => s.destroy(), 3000);
    });
    expect(res.startsWith('HTTP/1.1 200')).toBe(true);
  });

  it('clients disconnecting mid-body abort their requests: no crash, no lingering timers, server keeps serving', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const N = 50;
    await Promise.all(
      Array.from({ length: N }, (_, i) => {
        const { req, sendBytes } = partial(i % 2 ? 'length' : 'chunked');
        return send(normal.port, req, { stallAfterBytes: sendBytes, destroyAfterStall: true, timeoutMs: 2000 });
      }),
    );
    // Give the server a moment to observe the closes.
    const until = Date.now() + 2000;
    let conns = -1;
    while (Date.now() < until) {
      conns = await new Promise<number>((r) => normal.server.getConnections((_e, n) => r(n)));
      if (conns === 0) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(conns).toBe(0);
    // Each aborted request must release its deadline timer (10 s by default), not keep it armed.
    expect(timers() - before).toBeLessThan(5);
    const res = await discoverOnce(normal.port, 99);
    expect(res?.status).toBe(200);
    expect(JSON.parse(res!.body.toString()).id).toBe(99);
  });
});

describe('memory under a flood of rejected uploads', () => {
  let srv: RunningServer;
  // The core's linear memory is not part of heapUsed/external; capture it as the host instantiates
  // the core, to see that 10,000 rejected requests do not grow it.
  const memories: { buffer: ArrayBuffer }[] = [];
  beforeAll(async () => {
    const wa = WebAssembly as unknown as { Instance: unknown };
    const Real = WebAssembly.Instance;
    wa.Instance = function (m: WebAssembly.Module, imports?: WebAssembly.Imports) {
      const inst = new Real(m, imports);
      memories.push(inst.exports.memory as WebAssembly.Memory);
      return inst;
    };
    try {
      srv = await startNode({ serverInfo: SERVER_INFO, limits: { requestBytes: 1024, responseBytes: 1536 } });
    } finally {
      wa.Instance = Real;
    }
  });
  afterAll(async () => srv.close());

  const gc = (globalThis as { gc?: () => void }).gc;
  const settle = async () => {
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setImmediate(r));
      gc!();
    }
    const m = process.memoryUsage();
    return { heap: m.heapUsed, external: m.external, wasm: memories.reduce((n, x) => n + x.buffer.byteLength, 0) };
  };

  async function flood(n: number, concurrency: number) {
    const body = Buffer.alloc(4096, 0x20);
    body.write('{"jsonrpc":"2.0","id":1,');
    const req: RawRequest = { method: 'POST', path: '/mcp', headers: [ACCEPT, CT, ['mcp-protocol-version', PROTOCOL], ['mcp-method', 'server/discover']], chunks: [body] };
    const statuses = new Map<string, number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < n) {
          next++;
          const ex = await send(srv.port, req, { timeoutMs: 5000 });
          const k = ex.response ? String(ex.response.status) : `no reply (${ex.error ?? 'timeout'})`;
          statuses.set(k, (statuses.get(k) ?? 0) + 1);
        }
      }),
    );
    return statuses;
  }

  it('10,000 oversized requests are all answered 413 and leave heap and external memory flat', async () => {
    expect(gc, 'run with --expose-gc (vitest.config.ts poolOptions)').toBeTypeOf('function');
    await flood(500, 16); // warm-up: JIT, pools, wasm memory growth
    const m0 = await settle();
    const statuses = await flood(10_000, 16);
    const m1 = await settle();
    expect(Object.fromEntries(statuses)).toEqual({ 413: 10_000 });
    const mb = (x: number) => x / (1024 * 1024);
    mkdirSync(path.resolve(__dirname, '..', '..', '.test-results'), { recursive: true });
    writeFileSync(
      path.resolve(__dirname, '..', '..', '.test-results', `memory-flood-node${process.versions.node.split('.')[0]}.json`),
      JSON.stringify({ requests: 10_000, statuses: Object.fromEntries(statuses), before: m0, after: m1, heapGrowthMB: mb(m1.heap - m0.heap), externalGrowthMB: mb(m1.external - m0.external), wasmGrowthBytes: m1.wasm - m0.wasm }, null, 2) + '\n',
    );
    expect(mb(m1.heap - m0.heap), 'heapUsed growth (MB)').toBeLessThan(4);
    expect(mb(m1.external - m0.external), 'external growth (MB)').toBeLessThan(4);
    expect(memories.length, 'the host instantiated the core through WebAssembly.Instance').toBeGreaterThan(0);
    expect(m1.wasm - m0.wasm, 'core linear memory growth (bytes)').toBeLessThanOrEqual(128 * 1024);
  }, 180_000);
});
