/**
 * The Node host: an `http.createServer` request listener. The host's own HTTP parser handles the
 * head; the core counts and judges the body as it streams.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { internalError, type HeaderPair, type RespondAction } from '../../core/engine';
import { createHostCore, drive, type BodySource, type Departure, type ReadResult, type StreamSink } from '../../core/driver';
import type { McpHttpOptions } from '../../options';

export type McpNodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Lingering close after an early answer: the reply and a FIN go out, then unread input is read and
 * discarded for at most this long / this many bytes, so the client's TCP stack does not receive a
 * reset (which can discard the reply) while it is still sending. Never an unbounded drain.
 */
const LINGER_MS = 2000;
const LINGER_BYTES = 64 * 1024 * 1024;

const DONE: ReadResult = { done: true };
const FAILED: ReadResult = { error: true };

/** Pull adapter over 'data' events: the stream is paused while a chunk waits for its reader. */
function bodySource(req: IncomingMessage): BodySource {
  const queue: Uint8Array[] = [];
  let final: ReadResult | undefined;
  let waiter: ((r: ReadResult) => void) | undefined;
  let cancelled = false;
  const deliver = (r: ReadResult): void => {
    const w = waiter;
    waiter = undefined;
    w?.(r);
  };
  req.on('data', (chunk: Buffer) => {
    if (cancelled) return;
    if (waiter !== undefined) deliver({ done: false, chunk });
    else {
      queue.push(chunk);
      req.pause();
    }
  });
  req.on('end', () => {
    final ??= DONE;
    deliver(final);
  });
  req.on('error', () => {
    final = FAILED;
    deliver(final);
  });
  return {
    read(): Promise<ReadResult> {
      const next = queue.shift();
      if (next !== undefined) return Promise.resolve({ done: false, chunk: next });
      if (final !== undefined) return Promise.resolve(final);
      return new Promise((resolve) => {
        waiter = resolve;
        if (req.isPaused()) req.resume();
      });
    },
    cancel(): void {
      // Stop reading; never drain what the client still sends.
      cancelled = true;
      req.pause();
      queue.length = 0;
    },
  };
}

function departureOf(res: ServerResponse): Departure {
  let resolve!: () => void;
  const state = { gone: false, promise: new Promise<void>((r) => (resolve = r)) };
  res.on('close', () => {
    if (res.writableFinished) return;
    state.gone = true;
    resolve();
  });
  return state;
}

function lingerClose(req: IncomingMessage): void {
  const socket = req.socket;
  // Node ends a `connection: close` socket after the reply and destroys it once the FIN is out;
  // keep only the read side open a little longer (listener added by socket.destroySoon()).
  socket.removeListener('finish', socket.destroy);
  if (!socket.writableEnded) socket.end();
  let seen = 0;
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  req.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > LINGER_BYTES) socket.destroy();
  });
  req.resume();
}

function send(req: IncomingMessage, res: ServerResponse, action: RespondAction, close: boolean): void {
  if (res.headersSent || res.destroyed) return;
  const flat: string[] = [];
  let hasLength = false;
  for (const [name, value] of action.headers) {
    if (name.toLowerCase() === 'content-length') hasLength = true;
    flat.push(name, value);
  }
  if (!hasLength) flat.push('content-length', String(action.body.length));
  if (close) {
    req.pause();
    flat.push('connection', 'close');
    res.on('finish', () => lingerClose(req));
  }
  res.writeHead(action.status, flat);
  res.end(action.body.length > 0 ? action.body : undefined);
}

export function createMcpNodeHandler(options?: McpHttpOptions): McpNodeHandler {
  const host = createHostCore(options);
  return (req, res) => {
    const departure = departureOf(res);
    const raw = req.rawHeaders;
    const headers: HeaderPair[] = [];
    for (let i = 0; i + 1 < raw.length; i += 2) headers.push([raw[i]!, raw[i + 1]!]);
    const sink: StreamSink = {
      start(head) {
        const flat: string[] = [];
        for (const [name, value] of head.headers) flat.push(name, value);
        res.writeHead(head.status, flat);
        res.write(head.body);
      },
      write(bytes) {
        res.write(bytes);
      },
    };
    drive(host, { method: req.method ?? '', target: req.url ?? '', headers }, bodySource(req), departure, sink).then(
      (outcome) => {
        if (outcome.streamed) {
          res.end(outcome.response.body);
          return;
        }
        // Unread input left on the connection must never be drained: close instead. A request
        // Node already received completely (no body, or all of it buffered) needs no close.
        const close = !req.complete && (outcome.response.close || !outcome.bodyComplete);
        if (!outcome.gone) send(req, res, outcome.response, close);
      },
      () => (res.headersSent ? res.destroy() : send(req, res, internalError(), true)),
    );
  };
}
