// What Node's own HTTP parser refuses gets the core's fixed replies (with Cache-Control: no-store),
// a reply already decided when the parser fails still reaches the client whole, an absolute-form
// target is served like origin-form, and an early reply ends with a bounded lingering close, never a
// reset: all over raw `net` sockets against a real server.
import { EventEmitter } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EntityRouter, mcp } from '../../src/pulse';
import { createMcpNodeHandler, type RunningServer } from '../support/hosts';
import { envelope, META, SERVER_INFO } from '../support/fixtures';
import { tapEvents } from '../support/events';

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

function parse(text: string): { status: number; headers: Record<string, string>; body: string } {
  const [head, ...rest] = text.split('\r\n\r\n');
  const lines = head!.split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines.slice(1)) {
    const i = l.indexOf(':');
    headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
  }
  return { status: Number(lines[0]!.split(' ')[1]), headers, body: rest.join('\r\n\r\n') };
}

const MCP = 'accept: application/json, text/event-stream\r\ncontent-type: application/json\r\nmcp-protocol-version: 2026-07-28\r\nmcp-method: server/discover\r\n';
const DISCOVER = envelope('server/discover', 1);
const CALL = 'accept: application/json, text/event-stream\r\ncontent-type: application/json\r\nmcp-protocol-version: 2026-07-28\r\nmcp-method: tools/call\r\nmcp-name: slow\r\n';
const call = (token?: string) =>
  JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'slow', _meta: token === undefined ? META : { ...META, progressToken: token } } });
const post = (headers: string, body: string) => `POST /mcp HTTP/1.1\r\nhost: x\r\n${headers}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
/** Bytes that cannot start a request: the parser fails on them after the request before them. */
const GARBAGE = 'GARBAGE\r\n\r\n';

/** The core's fixed replies to parser faults, byte for byte. */
const fixed = (status: string, body: string) =>
  `HTTP/1.1 ${status}\r\ncontent-type: application/json\r\ncache-control: no-store\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`;
const FRAMING = fixed('400 Bad Request', '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: malformed HTTP framing"}}');
const INTERRUPTED = fixed('408 Request Timeout', '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Request body interrupted"}}');
const DISCOVERED =
  '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{},"ttlMs":0,"cacheScope":"private","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"pulse-test","version":"1.2.3"}}}}';
const CALLED =
  '{"jsonrpc":"2.0","id":9,"result":{"resultType":"complete","content":[{"type":"text","text":"slow done"}],"isError":false,"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"pulse-test","version":"1.2.3"}}}}';
const STEP = '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":0,"total":1,"message":"step"}}';
const sse = (json: string) => `event: message\ndata: ${json}\n\n`;
const chunk = (text: string) => `${text.length.toString(16)}\r\n${text}\r\n`;
/** A reply Node writes for a request answered on a kept-alive connection (its Date line removed). */
const kept = (status: string, headers: string, body: string) =>
  `HTTP/1.1 ${status}\r\n${headers}Connection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n${body}`;

/** A tool that answers after the parser has read what follows its request (the reply still in flight). */
const router = new EntityRouter('f').operation('slow', {
  content: true,
  handler: async (ctx) => {
    ctx.progress?.(0, 1, 'step');
    await new Promise((r) => setTimeout(r, 100));
    return [{ type: 'text', text: 'slow done' }];
  },
});

type ServerName = 'adapter' | 'static';

/** One connection's bytes → everything the client reads (each `Date` line removed), then a FIN. */
const FAULTS: { name: string; server?: ServerName; bytes: string; halfClose?: boolean; reply: string }[] = [
  {
    name: 'an oversized head → 431',
    bytes: `POST /mcp HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`,
    reply: 'HTTP/1.1 431 Request Header Fields Too Large\r\ncache-control: no-store\r\ncontent-length: 0\r\nconnection: close\r\n\r\n',
  },
  { name: 'malformed chunked framing → 400 -32600', bytes: `POST /mcp HTTP/1.1\r\nhost: x\r\n${MCP}transfer-encoding: chunked\r\n\r\nzz\r\nabc\r\n`, reply: FRAMING },
  { name: 'conflicting framing headers → 400 -32600', bytes: `POST /mcp HTTP/1.1\r\nhost: x\r\n${MCP}content-length: 5\r\ncontent-length: 6\r\n\r\n{}`, reply: FRAMING },
  { name: 'a malformed request line → 400 -32600', bytes: 'POST /mcp HTTP/9.x\r\n\r\n', reply: FRAMING },
  {
    name: 'a Content-Length body interrupted by a FIN → 408 -32600',
    bytes: `POST /mcp HTTP/1.1\r\nhost: x\r\n${MCP}content-length: 500\r\n\r\n{"jsonrpc"`,
    halfClose: true,
    reply: INTERRUPTED,
  },
  {
    name: 'a chunked body interrupted by a FIN before its last chunk → 408 -32600',
    bytes: `POST /mcp HTTP/1.1\r\nhost: x\r\n${MCP}transfer-encoding: chunked\r\n\r\n${chunk(DISCOVER.slice(0, 10))}${chunk(DISCOVER.slice(10))}`,
    halfClose: true,
    reply: INTERRUPTED,
  },
  {
    name: 'a body running past its Content-Length into no request: the reply, then 400 -32600',
    bytes: post(MCP, DISCOVER) + GARBAGE,
    reply: kept('200 OK', `content-type: application/json\r\ncache-control: no-store\r\ncontent-length: ${DISCOVERED.length}\r\n`, DISCOVERED) + FRAMING,
  },
  {
    name: 'no request after one still being answered: its reply whole, then 400 -32600',
    server: 'static',
    bytes: post(CALL, call()) + GARBAGE,
    reply: kept('200 OK', `content-type: application/json\r\ncache-control: no-store\r\ncontent-length: ${CALLED.length}\r\n`, CALLED) + FRAMING,
  },
  {
    name: 'no request, then more bytes, after one still being answered: its reply whole, then 400 -32600, the rest drained',
    server: 'static',
    bytes: post(CALL, call()) + GARBAGE + 'x'.repeat(128 * 1024),
    reply: kept('200 OK', `content-type: application/json\r\ncache-control: no-store\r\ncontent-length: ${CALLED.length}\r\n`, CALLED) + FRAMING,
  },
  {
    name: 'no request after one whose event stream is under way: the stream whole, then 400 -32600',
    server: 'static',
    bytes: post(CALL, call('t')) + GARBAGE,
    reply:
      'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-store\r\nx-accel-buffering: no\r\n' +
      'Connection: keep-alive\r\nKeep-Alive: timeout=5\r\nTransfer-Encoding: chunked\r\n\r\n' +
      chunk(sse(STEP)) + chunk(sse(CALLED)) + '0\r\n\r\n' + FRAMING,
  },
];

describe('Node parser faults get the core replies', () => {
  const servers = new Map<ServerName, RunningServer>();
  beforeAll(async () => {
    const listeners = { adapter: createMcpNodeHandler({ serverInfo: SERVER_INFO }), static: mcp({ router, serverInfo: SERVER_INFO, contentBlocks: true, progress: true }).nodeListener() };
    for (const [name, handler] of Object.entries(listeners) as [ServerName, typeof listeners.adapter][]) {
      const server = http.createServer(handler);
      server.on('clientError', handler.clientError);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      servers.set(name, { server, port: (server.address() as AddressInfo).port, close: () => new Promise<void>((r) => server.close(() => r())) });
    }
  });
  afterAll(async () => {
    for (const s of servers.values()) await s.close();
  });

  for (const f of FAULTS) {
    it(f.name, async () => {
      const seen = await exchange(servers.get(f.server ?? 'adapter')!.port, f.bytes, f.halfClose);
      expect(seen.text.replace(/\r\nDate: [^\r]*/g, '')).toBe(f.reply);
      expect(seen.graceful).toBe(true);
    });
  }

  it('an absolute-form target is served as its path and query', async () => {
    const port = servers.get('adapter')!.port;
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

describe('the listener attaches its clientError once', () => {
  // whether the server's owner attached it first; either way it listens exactly once after requests
  for (const preattached of [false, true]) {
    it(`${preattached ? 'attached by the owner first' : 'attached by the listener'}: one clientError listener after two requests`, async () => {
      const handler = createMcpNodeHandler();
      const server = http.createServer(handler);
      if (preattached) server.on('clientError', handler.clientError);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      const port = (server.address() as AddressInfo).port;
      try {
        for (let i = 0; i < 2; i++) await exchange(port, `POST /mcp HTTP/1.1\r\nhost: x\r\n${MCP}content-length: ${DISCOVER.length}\r\nconnection: close\r\n\r\n${DISCOVER}`);
        expect(server.listeners('clientError')).toEqual([handler.clientError]);
      } finally {
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
      }
    });
  }
});

describe('clientError on a socket, by the fault Node reports', () => {
  const events = tapEvents();
  afterAll(() => events.close());
  const FAULT_STATUS: Record<string, number> = { head_too_large: 431, body_interrupted: 408, malformed_framing: 400 };
  /** A socket that records what is written to it and whether it was destroyed. */
  class FakeSocket extends EventEmitter {
    written: string[] = [];
    destroyed = false;
    writableEnded = false;
    bytesRead = 0;
    constructor(readonly writable: boolean, ended: boolean) {
      super();
      this.writableEnded = ended;
    }
    write(bytes: Buffer): void {
      this.written.push(bytes.toString('latin1'));
    }
    end(): void {
      this.writableEnded = true;
    }
    destroy(): void {
      this.destroyed = true;
    }
    resume(): void {}
  }
  const HEAD_TOO_LARGE = 'HTTP/1.1 431 Request Header Fields Too Large\r\ncache-control: no-store\r\ncontent-length: 0\r\nconnection: close\r\n\r\n';
  it.each([
    // name, the error's code, whether the socket is writable and already ended, what is written, destroyed at
    // once, the refusal of the one request event a subscriber sees (null: no event)
    ['a reset: nothing said', 'ECONNRESET', true, false, [], true, null],
    ['a socket no longer writable: nothing said', 'HPE_HEADER_OVERFLOW', false, false, [], true, null],
    ['an oversized head', 'HPE_HEADER_OVERFLOW', true, false, [HEAD_TOO_LARGE], false, 'head_too_large'],
    ['a body cut short', 'HPE_INVALID_EOF_STATE', true, false, [INTERRUPTED], false, 'body_interrupted'],
    ['a body that timed out', 'ERR_HTTP_REQUEST_TIMEOUT', true, false, [INTERRUPTED], false, 'body_interrupted'],
    ['any other parser fault', 'HPE_INVALID_METHOD', true, false, [FRAMING], false, 'malformed_framing'],
    ['a fault without a code', undefined, true, false, [FRAMING], false, 'malformed_framing'],
    ['an early reply already ended the connection: its answer stands', 'HPE_INVALID_METHOD', true, true, [], false, 'malformed_framing'],
  ] as const)('%s', (_, code, writable, ended, written, destroyed, refusal) => {
    const socket = new FakeSocket(writable, ended);
    events.take();
    createMcpNodeHandler().clientError(Object.assign(new Error('fault'), code === undefined ? {} : { code }), socket as never);
    expect(socket.written).toEqual(written);
    expect(socket.destroyed).toBe(destroyed);
    expect(events.take().map((e) => [e.status, e.code, e.refusal])).toEqual(refusal === null ? [] : [[FAULT_STATUS[refusal], refusal === 'head_too_large' ? null : -32600, refusal]]);
    // An answer ends the write side and lingers on the read side.
    expect(socket.writableEnded).toBe(ended || written.length > 0);
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
