// What Node's own HTTP parser refuses gets the core's fixed replies (with Cache-Control: no-store),
// an absolute-form target is served like origin-form, and an early reply ends with a bounded
// lingering close, never a reset: all over raw `net` sockets against a real server.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpNodeHandler } from '../support/hosts';
import { envelope } from '../support/fixtures';

interface Seen {
  text: string;
  /** The socket ended with a FIN after the reply (no error, no reset). */
  graceful: boolean;
  error?: string;
}

/** Writes `bytes` (then half-closes when asked) and collects everything until the server closes. */
function exchange(port: number, bytes: string | Buffer, halfClose = false, timeoutMs = 4000): Promise<Seen> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    let ended = false;
    let error: string | undefined;
    const timer = setTimeout(() => s.destroy(), timeoutMs);
    s.on('data', (d) => (buf = Buffer.concat([buf, d])));
    s.on('end', () => (ended = true));
    s.on('error', (e: NodeJS.ErrnoException) => (error = e.code));
    s.on('close', () => {
      clearTimeout(timer);
      resolve({ text: buf.toString('latin1'), graceful: ended && error === undefined, error });
    });
    s.on('connect', () => {
      s.write(bytes);
      if (halfClose) s.end();
    });
  });
}

function parse(text: string): { status: number; headers: Record<string, string>; body: string; replies: number } {
  const [head, ...rest] = text.split('\r\n\r\n');
  const lines = head!.split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines.slice(1)) {
    const i = l.indexOf(':');
    headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
  }
  return { status: Number(lines[0]!.split(' ')[1]), headers, body: rest.join('\r\n\r\n'), replies: text.split('HTTP/1.1 ').length - 1 };
}

const MCP = 'accept: application/json, text/event-stream\r\ncontent-type: application/json\r\nmcp-protocol-version: 2026-07-28\r\nmcp-method: server/discover\r\n';
const DISCOVER = envelope('server/discover', 1);

const FAULTS: { name: string; bytes: string; halfClose?: boolean; status: number; code?: number; message?: string }[] = [
  { name: 'an oversized head', bytes: `POST /mcp HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`, status: 431 },
  {
    name: 'malformed chunked framing',
    bytes: `POST /mcp HTTP/1.1\r\nhost: x\r\n${MCP}transfer-encoding: chunked\r\n\r\nzz\r\nabc\r\n`,
    status: 400,
    code: -32600,
    message: 'Invalid Request: malformed HTTP framing',
  },
  {
    name: 'conflicting framing headers',
    bytes: `POST /mcp HTTP/1.1\r\nhost: x\r\n${MCP}content-length: 5\r\ncontent-length: 6\r\n\r\n{}`,
    status: 400,
    code: -32600,
    message: 'Invalid Request: malformed HTTP framing',
  },
  { name: 'a malformed request line', bytes: 'POST /mcp HTTP/9.x\r\n\r\n', status: 400, code: -32600, message: 'Invalid Request: malformed HTTP framing' },
  {
    name: 'a body interrupted by a FIN',
    bytes: `POST /mcp HTTP/1.1\r\nhost: x\r\n${MCP}content-length: 500\r\n\r\n{"jsonrpc"`,
    halfClose: true,
    status: 408,
    code: -32600,
    message: 'Request body interrupted',
  },
];

describe('Node parser faults get the core replies', () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    const handler = createMcpNodeHandler();
    server = http.createServer(handler);
    server.on('clientError', handler.clientError);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  for (const f of FAULTS) {
    it(`${f.name} → ${f.status}${f.code ? ` ${f.code}` : ''}`, async () => {
      const seen = await exchange(port, f.bytes, f.halfClose);
      const r = parse(seen.text);
      expect(r.status).toBe(f.status);
      expect(r.replies).toBe(1);
      expect(r.headers['cache-control']).toBe('no-store');
      expect(r.headers['connection']).toBe('close');
      expect(Number(r.headers['content-length'])).toBe(Buffer.byteLength(r.body, 'latin1'));
      if (f.code === undefined) expect(r.body).toBe('');
      else expect(JSON.parse(r.body)).toEqual({ jsonrpc: '2.0', error: { code: f.code, message: f.message } });
      expect(seen.graceful).toBe(true);
    });
  }

  it('an absolute-form target is served as its path and query', async () => {
    const seen = await exchange(port, `POST http://example.test/mcp HTTP/1.1\r\nhost: example.test\r\n${MCP}content-length: ${DISCOVER.length}\r\nconnection: close\r\n\r\n${DISCOVER}`);
    const r = parse(seen.text);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).result.resultType).toBe('complete');
    const wrong = parse((await exchange(port, `POST http://example.test/other HTTP/1.1\r\nhost: example.test\r\n${MCP}content-length: 2\r\nconnection: close\r\n\r\n{}`)).text);
    expect(wrong.status).toBe(404);
  });
});

describe('the listener attaches its clientError to its server', () => {
  it('after a first request, a framing fault gets the core reply rather than Node’s bare 400', async () => {
    const server = http.createServer(createMcpNodeHandler());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as AddressInfo).port;
    try {
      await exchange(port, `POST /mcp HTTP/1.1\r\nhost: x\r\n${MCP}content-length: ${DISCOVER.length}\r\nconnection: close\r\n\r\n${DISCOVER}`);
      const r = parse((await exchange(port, `POST /mcp HTTP/1.1\r\nhost: x\r\n${MCP}transfer-encoding: chunked\r\n\r\nzz\r\n`)).text);
      expect([r.status, r.headers['cache-control'], JSON.parse(r.body).error.code]).toEqual([400, 'no-store', -32600]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('lingering close after an early reply', () => {
  // requestBytes 64 KiB: the drain bound is min(4 × 64 KiB, 1 MiB) = 256 KiB.
  const LIMIT = 64 * 1024;
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer(createMcpNodeHandler({ limits: { requestBytes: LIMIT } }));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((r) => server.close(() => r()));
  });

  /** Sends an over-limit upload, reads the 413, then keeps sending `after` bytes in 16 KiB writes. */
  function upload(after: number): Promise<{ status: number; graceful: boolean; error?: string; wrote: number }> {
    return new Promise((resolve) => {
      const s = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
      let buf = Buffer.alloc(0);
      let status = 0;
      let ended = false;
      let error: string | undefined;
      let wrote = 0;
      const timer = setTimeout(() => s.destroy(), 6000);
      const chunk = Buffer.alloc(16 * 1024, 0x20);
      // Keeps sending after the server's FIN (its side is closed, ours is not), then ends.
      const pump = (): void => {
        while (wrote < after && !s.destroyed) {
          wrote += chunk.length;
          if (!s.write(chunk)) return void s.once('drain', pump);
        }
        if (!s.destroyed) s.end();
      };
      s.on('data', (d) => {
        buf = Buffer.concat([buf, d]);
        if (status === 0 && buf.includes('\r\n\r\n')) {
          status = Number(buf.toString('latin1').split(' ')[1]);
          pump();
        }
      });
      s.on('end', () => (ended = true));
      s.on('error', (e: NodeJS.ErrnoException) => (error = e.code));
      s.on('close', () => {
        clearTimeout(timer);
        resolve({ status, graceful: ended && error === undefined, error, wrote });
      });
      s.on('connect', () => {
        s.write(`POST /mcp HTTP/1.1\r\nhost: x\r\n${MCP}content-length: ${8 * 1024 * 1024}\r\n\r\n`);
        s.write(Buffer.alloc(LIMIT + 1024, 0x20));
      });
    });
  }

  it('a client still sending after the 413 reads it and gets a FIN, not a reset', async () => {
    const r = await upload(128 * 1024);
    expect(r.status).toBe(413);
    expect(r.graceful).toBe(true);
  });

  it('the drain stops at its byte bound: a client that keeps sending is cut off', async () => {
    const r = await upload(4 * 1024 * 1024);
    expect(r.status).toBe(413);
    expect(r.graceful).toBe(false);
    expect(r.error).toMatch(/^(ECONNRESET|EPIPE)$/);
  });
});
