// The Node listener's own bookkeeping, seen through a request, response and socket that record every
// call: the body queue's backpressure (paused past the request limit, resumed once read), a body that
// ends at its Content-Length without waiting for Node's 'end', a stream error, a client gone before
// the reply, the send guards, a failure inside the driver, the lingering close's timer and byte bound,
// the raw reply to a parser fault, and effects made through the Node modules handed in.
import { EventEmitter } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeListener } from '../../src/adapter/node/listener';
import { resolveOptions } from '../../src/options';
import { DISCOVER_RESULT, envelope, modernHeaders, SERVER_INFO } from '../support/fixtures';
import { tapEvents } from '../support/events';

const LIMIT = 1024;
const DISCOVER = Buffer.from(envelope('server/discover', 1));
const DISCOVERED = JSON.stringify({ jsonrpc: '2.0', id: 1, result: DISCOVER_RESULT });
const INTERRUPTED = '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Request body interrupted"}}';

/** The connection: records end/destroy/resume and counts bytes read as Node's socket does. */
class FakeSocket extends EventEmitter {
  log: string[] = [];
  writableEnded = false;
  bytesRead: number;
  constructor(bytesRead = 0) {
    super();
    this.bytesRead = bytesRead;
  }
  end(): void {
    this.writableEnded = true;
    this.log.push('end');
  }
  readonly writable = true;
  written: Buffer[] = [];
  write(bytes: Buffer): boolean {
    this.written.push(bytes);
    return true;
  }
  destroy(): void {
    this.log.push('destroy');
  }
  resume(): void {
    this.log.push('resume');
  }
  /** The client sends `n` more bytes. */
  receive(n: number): void {
    this.bytesRead += n;
    this.emit('data', Buffer.alloc(n));
  }
}

/** An IncomingMessage: headers, and a log of pause/resume calls. */
class FakeReq extends EventEmitter {
  log: string[] = [];
  paused = false;
  complete = false;
  readonly method: string | undefined = 'POST';
  readonly url: string | undefined = '/mcp';
  readonly rawHeaders: string[];
  readonly headers: Record<string, string>;
  constructor(readonly socket: FakeSocket, head: [string, string][]) {
    super();
    this.rawHeaders = head.flat();
    this.headers = Object.fromEntries(head);
  }
  pause(): this {
    this.paused = true;
    this.log.push('pause');
    return this;
  }
  resume(): this {
    this.paused = false;
    this.log.push('resume');
    return this;
  }
  isPaused(): boolean {
    return this.paused;
  }
}

/** A ServerResponse: the head and body written, once; 'finish' then 'close' on end. */
class FakeRes extends EventEmitter {
  headersSent = false;
  destroyed = false;
  writableFinished = false;
  head: [number, string[]] | undefined;
  body: string | undefined;
  writeHead(status: number, flat: string[]): this {
    this.head = [status, flat];
    this.headersSent = true;
    return this;
  }
  write(): boolean {
    return true;
  }
  end(body?: Uint8Array): this {
    this.body = body === undefined ? '' : Buffer.from(body).toString('latin1');
    this.writableFinished = true;
    this.emit('finish');
    this.emit('close');
    return this;
  }
  destroy(): this {
    this.destroyed = true;
    return this;
  }
}

/** A request in flowing mode: hands over its backlog while not paused, as Node's stream does. */
class FlowingReq extends FakeReq {
  constructor(socket: FakeSocket, head: [string, string][], readonly backlog: Buffer[]) {
    super(socket, head);
  }
  override resume(): this {
    super.resume();
    this.flow();
    return this;
  }
  flow(): void {
    while (!this.paused && this.backlog.length > 0) {
      const chunk = this.backlog.shift()!;
      this.log.push(`data ${chunk.length}`);
      this.emit('data', chunk);
    }
  }
}

const listenerOf = (requestBytes = LIMIT, node: { http: unknown; https: unknown } = { http, https }) =>
  createNodeListener(resolveOptions({ serverInfo: SERVER_INFO, limits: { requestBytes } }), node as never);
const HEAD = (length?: number): [string, string][] => [['host', 'x'], ...modernHeaders('server/discover'), ...(length === undefined ? [] : [['content-length', String(length)] as [string, string]])];
const tick = () => new Promise((r) => setTimeout(r, 5));

/** Waits until the response ended (or `ms` passed). */
async function ended(res: FakeRes, ms = 1000): Promise<void> {
  const t0 = Date.now();
  while (res.body === undefined && Date.now() - t0 < ms) await tick();
}

/** The reply's head and body as written, with the JSON reply's content-length. */
const reply = (status: number, body: string, close: boolean, extra: string[] = []) => ({
  head: [status, ['content-type', 'application/json', 'cache-control', 'no-store', ...extra, 'content-length', String(body.length), ...(close ? ['connection', 'close'] : [])]],
  body,
});

describe('Node listener body bookkeeping', () => {
  it('a body complete at its Content-Length is served without waiting for the stream to end', async () => {
    const req = new FakeReq(new FakeSocket(), HEAD(DISCOVER.length));
    const res = new FakeRes();
    listenerOf()(req as never, res as never);
    req.emit('data', DISCOVER);
    await ended(res);
    expect({ head: res.head, body: res.body }).toEqual(reply(200, DISCOVERED, false));
    expect(req.log).toEqual([]);
  });

  it('a chunked body is read to its end even when its first chunk matches a Content-Length', async () => {
    const req = new FakeReq(new FakeSocket(), [...HEAD(10), ['transfer-encoding', 'chunked']]);
    const res = new FakeRes();
    listenerOf()(req as never, res as never);
    req.emit('data', DISCOVER.subarray(0, 10));
    await tick();
    req.emit('data', DISCOVER.subarray(10));
    req.complete = true;
    req.emit('end');
    await ended(res);
    expect({ head: res.head, body: res.body }).toEqual(reply(200, DISCOVERED, false));
  });

  it('a stream error mid-body → 408 -32600, the connection closed', async () => {
    const req = new FakeReq(new FakeSocket(), HEAD(500));
    const res = new FakeRes();
    listenerOf()(req as never, res as never);
    req.emit('data', DISCOVER.subarray(0, 10));
    await tick();
    req.emit('error', new Error('aborted'));
    await ended(res);
    expect({ head: res.head, body: res.body }).toEqual(reply(408, INTERRUPTED, true));
  });
});

describe('Node listener body queue: paused past the request limit, resumed once read', () => {
  const pad = (n: number) => Buffer.concat([DISCOVER, Buffer.alloc(n - DISCOVER.length, 0x20)]);
  const TOO_LARGE = '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Request body too large"}}';
  // name, chunks handed over before the listener reads, whether 'end' comes with them, chunks sent
  // after the listener had its turn; then the pause/resume log after each chunk of the first batch,
  // after the listener's turn, and at the end, and the reply (status, body, connection: close)
  const ROWS: [string, Buffer[], boolean, Buffer[], string[], string, string, [number, string, boolean]][] = [
    ['a body of exactly the limit, queued whole: never paused', [pad(LIMIT)], false, [], [''], '', '', [200, DISCOVERED, false]],
    ['one byte past the limit queued: paused, resumed once read, paused again when refused',
      [DISCOVER.subarray(0, 10), Buffer.alloc(LIMIT - 9, 0x20)], false, [], ['', 'pause'], 'pause,resume,pause,pause', 'pause,resume,pause,pause', [413, TOO_LARGE, true]],
    ['the stream ended while paused: never resumed',
      [DISCOVER.subarray(0, 10), Buffer.alloc(LIMIT - 9, 0x20)], true, [], ['', 'pause'], 'pause,pause,pause', 'pause,pause,pause', [413, TOO_LARGE, true]],
    ['input after a refusal is dropped, never queued',
      [DISCOVER.subarray(0, 10), Buffer.alloc(LIMIT - 9, 0x20)], false, [Buffer.alloc(2 * LIMIT)], ['', 'pause'], 'pause,resume,pause,pause', 'pause,resume,pause,pause', [413, TOO_LARGE, true]],
  ];
  for (const [name, first, endWith, after, each, turned, last, [status, body, close]] of ROWS) {
    it(name, async () => {
      const req = new FakeReq(new FakeSocket(), [...HEAD(), ['transfer-encoding', 'chunked']]);
      const res = new FakeRes();
      listenerOf()(req as never, res as never);
      const seen: string[] = [];
      for (const chunk of first) {
        req.emit('data', chunk);
        seen.push(req.log.join(','));
      }
      if (endWith) req.emit('end');
      await tick();
      const mid = req.log.join(',');
      for (const chunk of after) req.emit('data', chunk);
      if (!endWith) req.emit('end');
      await ended(res);
      expect({ seen, mid, last: req.log.join(','), head: res.head, body: res.body }).toEqual({ seen: each, mid: turned, last, ...reply(status, body, close) });
    });
  }
});

describe('Node listener body queue over a flowing stream: resumed exactly when what waits is back within the limit', () => {
  // name, the backlog the stream hands over while flowing; then the log of data, pause and resume
  const ROWS: [string, number[], string][] = [
    ['the limit exactly left after a read: resumed, the next chunk flows', [10, LIMIT, 5], 'data 10,data 1024,pause,resume,data 5,pause,resume,pause,pause'],
    ['past the limit still left after a read: not yet resumed', [10, 10, LIMIT, 5], 'data 10,data 10,data 1024,pause,resume,data 5,pause,resume,pause,pause'],
    ['more behind the limit: resumed only once back within it', [10, 10, LIMIT, 5, 5], 'data 10,data 10,data 1024,pause,resume,data 5,pause,resume,data 5,pause,pause'],
  ];
  for (const [name, sizes, log] of ROWS) {
    it(name, async () => {
      const backlog = sizes.map((n, i) => (i === 0 ? DISCOVER.subarray(0, n) : Buffer.alloc(n, 0x20)));
      const req = new FlowingReq(new FakeSocket(), [...HEAD(), ['transfer-encoding', 'chunked']], backlog);
      const res = new FakeRes();
      listenerOf()(req as never, res as never);
      req.flow();
      await ended(res);
      expect({ log: req.log.join(','), status: res.head?.[0] }).toEqual({ log, status: 413 });
    });
  }
});

describe('Node listener: the client gone, the send guards, a driver failure', () => {
  const events = tapEvents();
  afterAll(() => events.close());

  /** A declared body of 500 bytes of which 10 arrived: the listener is waiting for the rest. */
  async function waiting(res: FakeRes, closeEarly = false): Promise<FakeReq> {
    const req = new FakeReq(new FakeSocket(), HEAD(500));
    events.take();
    listenerOf()(req as never, res as never);
    if (closeEarly) res.emit('close');
    req.emit('data', DISCOVER.subarray(0, 10));
    await tick();
    return req;
  }

  it('the client gone mid-body: nothing written, one event', async () => {
    const res = new FakeRes();
    await waiting(res);
    res.emit('close');
    await tick();
    await tick();
    expect(res.head).toBeUndefined();
    expect(events.take().map((e) => [e.status, e.refusal])).toEqual([[408, 'body_interrupted']]);
  });

  it('the client gone before the listener waited for it: nothing written, one event', async () => {
    const res = new FakeRes();
    await waiting(res, true);
    await tick();
    expect(res.head).toBeUndefined();
    expect(events.take().map((e) => [e.status, e.refusal])).toEqual([[408, 'body_interrupted']]);
  });

  // A response whose head already went out, or one already destroyed, is never written again.
  for (const flag of ['headersSent', 'destroyed'] as const) {
    it(`a response already ${flag}: the reply is not written`, async () => {
      const res = new FakeRes();
      res[flag] = true;
      const req = new FakeReq(new FakeSocket(), HEAD(DISCOVER.length));
      listenerOf()(req as never, res as never);
      req.emit('data', DISCOVER);
      await tick();
      await tick();
      expect([res.head, res.body, req.log]).toEqual([undefined, undefined, []]);
    });
  }

  it('a failure inside the driver before any reply → 500 -32603, connection: close', async () => {
    const req = new FakeReq(new FakeSocket(), [...HEAD(), ['transfer-encoding', 'chunked']]);
    req.isPaused = () => {
      throw new Error('broken stream');
    };
    const res = new FakeRes();
    listenerOf()(req as never, res as never);
    await ended(res);
    expect({ head: res.head, body: res.body }).toEqual(reply(500, '{"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error"}}', true));
  });

  it('a failure inside the driver after the head went out: the response is destroyed', async () => {
    const req = new FakeReq(new FakeSocket(), [...HEAD(), ['transfer-encoding', 'chunked']]);
    req.isPaused = () => {
      throw new Error('broken stream');
    };
    const res = new FakeRes();
    res.headersSent = true;
    listenerOf()(req as never, res as never);
    await tick();
    await tick();
    expect([res.destroyed, res.head]).toEqual([true, undefined]);
  });
});

describe('Node listener: the lingering close on the socket', () => {
  /** An early 413 (declared past the limit) on a socket that has already read `bytesRead`. */
  async function refused(socket: FakeSocket, requestBytes = LIMIT): Promise<void> {
    const req = new FakeReq(socket, HEAD(requestBytes + 1));
    const res = new FakeRes();
    listenerOf(requestBytes)(req as never, res as never);
    await ended(res);
    expect(res.head?.[0]).toBe(413);
  }

  // request limit, bytes the client sends after the reply; then whether the socket is destroyed.
  // The bound is 4 × the limit (the 1 MiB cap lies past the largest limit); counted from what the socket had read before.
  const ROWS: [number, number, boolean][] = [
    [LIMIT, 4 * LIMIT, false],
    [LIMIT, 4 * LIMIT + 1, true],
    [65536, 4 * 65536, false],
    [65536, 4 * 65536 + 1, true],
  ];
  for (const [limit, after, destroyed] of ROWS) {
    it(`request limit ${limit}: ${after} bytes after the reply → ${destroyed ? 'destroyed' : 'kept'}`, async () => {
      const socket = new FakeSocket(10 * 1024 * 1024);
      await refused(socket, limit);
      // Sent in two parts: the count is of all bytes since the reply, not per chunk.
      socket.receive(after - 1);
      socket.receive(1);
      expect(socket.log).toEqual(['end', 'resume', ...(destroyed ? ['destroy'] : [])]);
    });
  }

  it('a socket whose write side already ended is not ended again', async () => {
    const socket = new FakeSocket();
    socket.writableEnded = true;
    await refused(socket);
    expect(socket.log).toEqual(['resume']);
  });

  it('the linger ends 2 s after the reply, and not once the socket closed', async () => {
    const open = new FakeSocket();
    const closed = new FakeSocket();
    await refused(open);
    await refused(closed);
    closed.emit('close');
    await new Promise((r) => setTimeout(r, 1900));
    expect([open.log, closed.log]).toEqual([['end', 'resume'], ['end', 'resume']]);
    await new Promise((r) => setTimeout(r, 250));
    expect([open.log, closed.log]).toEqual([['end', 'resume', 'destroy'], ['end', 'resume']]);
  });
});

describe('Node listener: the raw reply to a parser fault', () => {
  // the reason phrases the http module knows; then the status line written
  const ROWS: [string, Record<number, string>, string][] = [
    ['no reason phrase known: the status alone', {}, 'HTTP/1.1 431 \r\n'],
    ['a reason phrase outside ASCII: one byte per character (latin1)', { 431: 'Tête' }, 'HTTP/1.1 431 T\xeate\r\n'],
  ];
  for (const [name, reasons, line] of ROWS) {
    it(name, () => {
      const socket = new FakeSocket();
      listenerOf(LIMIT, { http: { ...http, STATUS_CODES: reasons }, https })
        .clientError(Object.assign(new Error('fault'), { code: 'HPE_HEADER_OVERFLOW' }), socket as never);
      expect(Buffer.concat(socket.written).toString('latin1')).toBe(`${line}cache-control: no-store\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
    });
  }
});

describe('Node listener: effects go through the Node modules handed in', () => {
  it('a token introspection is asked of the given http module', async () => {
    const asked: string[] = [];
    const request = (options: { host: string; path: string; method: string }) => {
      const r = new EventEmitter() as EventEmitter & { end(): void; destroy(): void };
      asked.push(`${options.method} ${options.host}${options.path}`);
      r.end = () => setImmediate(() => r.emit('error', new Error('refused')));
      r.destroy = () => undefined;
      return r;
    };
    const fakeHttp = { ...http, Agent: class {}, request };
    const listener = createNodeListener(
      resolveOptions({
        serverInfo: SERVER_INFO,
        authorization: {
          resource: 'https://mcp.pulse.test/mcp', issuer: 'http://127.0.0.1:9', introspectionEndpoint: 'http://127.0.0.1:9/introspect',
          clientId: 'rs', clientSecret: 'secret', scopes: ['mcp:access'], allowInsecureLoopback: true,
        },
      }),
      { http: fakeHttp, https } as never,
    );
    const req = new FakeReq(new FakeSocket(), [...HEAD(DISCOVER.length), ['authorization', 'Bearer tok']]);
    const res = new FakeRes();
    listener(req as never, res as never);
    req.emit('data', DISCOVER);
    await ended(res);
    expect(asked).toEqual(['POST 127.0.0.1/introspect']);
    // The issuer unreachable: the token cannot be verified.
    expect({ head: res.head, body: res.body }).toEqual(reply(503, '{"error":"temporarily_unavailable","error_description":"The access token could not be verified; try again later"}', true));
  });
});
