/**
 * `jsonRpc(router)`: the router as a plain JSON-RPC 2.0 endpoint, served by the core's `jsonrpc`
 * profile (engine config `profile: "jsonrpc"`, native/core/src/jsonrpc.rs). The core decides every
 * status and body; this file only translates Fetch to the hosts' driver. The hosts' options do not
 * take a profile, so the validated MCP configuration is reused with the profile member added.
 */
import { drive, type BodySource, type Departure, type HostCore, type ReadResult } from '../core/driver';
import { Engine, internalError, type HeaderPair, type RespondAction } from '../core/engine';
import { resolveOptions, type McpCoreSource } from '../options';
import { compileRouter } from '../compiler';
import { createHandlerRunner } from '../handlers/context';
import { fail } from './errors';
import { isEntityRouter, routerDefinition, type EntityRouter } from './router';
import type { ContextOptions } from '../handlers/context';

export interface JsonRpcOptions extends ContextOptions {
  /** Exact endpoint path; default `/`. */
  readonly path?: string;
  readonly limits?: { readonly requestBytes?: number; readonly responseBytes?: number; readonly depth?: number; readonly deadlineMs?: number };
  /** Where the core comes from, as for the hosts (a `WebAssembly.Module` on workerd). */
  readonly core?: McpCoreSource;
}

export interface JsonRpcBinding {
  fetch(request: Request): Promise<Response>;
}

const KEYS = ['path', 'limits', 'secrets', 'kv', 'log', 'core'];
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
      // Not awaited: cleanup never waits on an uncooperative source.
      try {
        (reader ?? stream).cancel().catch(() => undefined);
      } catch {
        // Already released; nothing left to free.
      }
    },
  };
}

/** The client going away (request.signal) ends the wait, as in the Fetch host. */
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
  const headers = action.headers.filter(([n]) => n.toLowerCase() !== 'connection') as [string, string][];
  const body = action.body.length > 0 ? (action.body as Uint8Array<ArrayBuffer>) : null;
  return new Response(body, { status: action.status, headers });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Freezes and compiles `router` and binds it to the core's JSON-RPC profile. */
export function jsonRpc(router: EntityRouter, options?: JsonRpcOptions): JsonRpcBinding {
  const o: unknown = options ?? {};
  if (!isEntityRouter(router) || !isRecord(o) || Object.keys(o).some((k) => !KEYS.includes(k))) fail('PULSE_ERR_OPTIONS', 'jsonRpcOptions');
  const def = routerDefinition(router);
  const limits = (o.limits ?? {}) as Record<string, number>;
  const compiled = compileRouter(def, {
    ...(limits.requestBytes === undefined ? {} : { requestBytes: limits.requestBytes }),
    ...(limits.responseBytes === undefined ? {} : { responseBytes: limits.responseBytes }),
  });
  const runner = createHandlerRunner(def, { secrets: o.secrets as ContextOptions['secrets'], kv: o.kv as ContextOptions['kv'], log: o.log as ContextOptions['log'] });
  const resolved = resolveOptions({ path: o.path ?? '/', limits: o.limits, tools: { manifest: compiled.manifest }, core: o.core });
  const host: HostCore = Object.freeze({
    engine: Engine.create(`{"profile":"jsonrpc",${resolved.configJson.slice(1)}`, resolved.core),
    handlers: runner.hasJavaScript ? runner : undefined,
  });
  return Object.freeze({
    async fetch(request: Request): Promise<Response> {
      const { departure, detach } = departureOf(request.signal);
      try {
        const url = new URL(request.url);
        const headers: HeaderPair[] = [];
        request.headers.forEach((value, name) => headers.push([name, value]));
        const body = request.body === null ? null : bodySource(request.body);
        const outcome = await drive(host, { method: request.method, target: url.pathname + url.search, headers }, body, departure);
        return toResponse(outcome.response);
      } catch {
        return toResponse(internalError());
      } finally {
        detach();
      }
    },
  });
}
