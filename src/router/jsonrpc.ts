/**
 * `jsonRpc(router)`: the router as a plain JSON-RPC 2.0 endpoint, served by the core's `jsonrpc`
 * profile (engine config `profile: "jsonrpc"`, native/core/src/jsonrpc.rs). The core decides every
 * status and body; requests go through the Fetch host's `serveFetch`. The hosts' options do not
 * take a profile, so the validated MCP configuration is reused with the profile member added.
 */
import { fetchExchange, type HostCore } from '../core/driver';
import { Engine } from '../core/engine';
import { serveFetch } from '../adapter/fetch/handler';
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
function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Freezes and compiles `router` and binds it to the core's JSON-RPC profile. */
export function jsonRpc(router: EntityRouter, options?: JsonRpcOptions): JsonRpcBinding {
  const o: unknown = options ?? {};
  if (!isEntityRouter(router) || !isRecord(o) || Object.keys(o).some((k) => !KEYS.includes(k))) fail('PULSE_ERR_OPTIONS', 'jsonRpcOptions');
  const def = routerDefinition(router);
  const compiled = compileRouter(def, { core: o.core as McpCoreSource | undefined });
  const runner = createHandlerRunner(
    def,
    { secrets: o.secrets as ContextOptions['secrets'], kv: o.kv as ContextOptions['kv'], log: o.log as ContextOptions['log'], ...(o.core === undefined ? {} : { core: o.core as McpCoreSource }) },
    compiled.manifest,
  );
  // path and limits are judged by the core, with the MCP hosts' messages.
  const resolved = resolveOptions({ path: o.path ?? '/', limits: o.limits, tools: { manifest: compiled.manifest }, core: o.core }, 'host', 'static');
  const host: HostCore = Object.freeze({
    engine: Engine.create(`{"profile":"jsonrpc",${resolved.configJson.slice(1)}`, resolved.core),
    requestBytes: resolved.requestBytes,
    handlers: runner.hasJavaScript ? runner : undefined,
    exchange: fetchExchange,
  });
  return Object.freeze({ fetch: (request: Request) => serveFetch(host, request) });
}
