/**
 * The Fetch host: `Request` in, `Response` out (workerd, Deno, Bun, Node's fetch servers, Fastly JS).
 * Only translation lives here; the core decides every status and header.
 */
import { internalError, type HeaderPair, type RespondAction } from '../../core/engine';
import { createHostCore, drive, type BodySource, type Departure, type HostCore, type ReadResult, type StreamSink } from '../../core/driver';
import { resolveOptions, type McpClientInfo, type McpHttpOptions } from '../../options';

export interface McpHttpHandler {
  /**
   * Serves one request. `info.clientAddress` is the client's IP address where the runtime knows it
   * (Deno's `info.remoteAddr.hostname`, Bun's `server.requestIP(request)?.address`, Cloudflare's
   * `CF-Connecting-IP`): the key of `rateLimit`'s budgets per address. Pass only what the platform
   * vouches for, never a header a client can set.
   */
  fetch(request: Request, info?: McpClientInfo): Promise<Response>;
}

const DONE: ReadResult = { done: true };
const FAILED: ReadResult = { error: true };

function bodySource(stream: ReadableStream<Uint8Array>): BodySource {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return {
    async read(): Promise<ReadResult> {
      try {
        reader ??= stream.getReader();
        const { done, value } = await reader.read();
        return done ? DONE : { done: false, chunk: value };
      } catch {
        return FAILED;
      }
    },
    cancel(): void {
      // Not awaited: cleanup never waits on an uncooperative source's cancel promise.
      try {
        (reader ?? stream).cancel().catch(() => undefined);
      } catch {
        // Already released or locked elsewhere; nothing left to free.
      }
    },
  };
}

function departureOf(signal: AbortSignal | undefined): { departure: Departure | undefined; detach(): void } {
  if (signal === undefined || typeof signal.addEventListener !== 'function') return { departure: undefined, detach() {} };
  let resolve!: () => void;
  const state = { gone: signal.aborted, promise: new Promise<void>((r) => (resolve = r)) };
  const onAbort = (): void => {
    state.gone = true;
    resolve();
  };
  if (state.gone) resolve();
  else signal.addEventListener('abort', onAbort, { once: true });
  return { departure: state, detach: () => signal.removeEventListener('abort', onAbort) };
}

function toResponse(action: RespondAction): Response {
  const headers: HeaderPair[] = action.headers.slice();
  // 1xx/204/304 cannot carry a body; the core sends none for them anyway.
  const body = action.body.length > 0 ? (action.body as Uint8Array<ArrayBuffer>) : null;
  return new Response(body, { status: action.status, headers: headers as [string, string][] });
}

/** The root adapter: a Fetch handler in front of catalog artifacts (the host facade). */
export function createMcpHttpHandler(options?: McpHttpOptions): McpHttpHandler {
  const host = createHostCore(resolveOptions(options));
  return { fetch: (request: Request, info?: McpClientInfo) => serveFetch(host, request, info?.clientAddress) };
}

/**
 * One Fetch request through `host` (shared by every Fetch-facing binding: the root adapter, `mcp()`,
 * `jsonRpc`). A reply the core streams (progress of a static binding's handler, where switched on)
 * is returned as soon as its first event exists; the driver keeps writing into it and closes it with
 * the final response.
 */
export async function serveFetch(host: HostCore, request: Request, client?: string): Promise<Response> {
  const { departure, detach } = departureOf(request.signal);
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let started: (r: Response) => void = () => undefined;
  const streamed = new Promise<Response>((resolve) => (started = resolve));
  const sink: StreamSink = {
    start(head) {
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          controller = c;
          c.enqueue(head.body);
        },
      });
      started(new Response(body, { status: head.status, headers: head.headers.slice() as [string, string][] }));
    },
    write(bytes) {
      controller?.enqueue(bytes);
    },
  };
  const finished = (async (): Promise<Response> => {
    try {
      const url = new URL(request.url);
      const headers: string[] = [];
      request.headers.forEach((value, name) => headers.push(name, value));
      const body = request.body === null ? null : bodySource(request.body);
      const outcome = await drive(host, { method: request.method, target: url.pathname + url.search, headers, client }, body, departure, sink);
      if (outcome.streamed) {
        controller?.enqueue(outcome.response.body);
        controller?.close();
        return streamed;
      }
      return toResponse(outcome.response);
    } catch {
      if (controller !== undefined) {
        controller.error(new Error('stream failed'));
        return streamed;
      }
      return toResponse(internalError());
    } finally {
      detach();
    }
  })();
  return Promise.race([streamed, finished]);
}
