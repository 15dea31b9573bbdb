/**
 * Binding a router: to a tool source for the Fetch/Node hosts (docs/contracts.md §8), to the static
 * `/pulse` MCP facade (and, in ./jsonrpc.ts, to the JSON-RPC adapter). Every binding freezes the router and compiles it
 * with the tools pipeline's compiler; nothing here decides protocol outcomes (the core does).
 */
import { compileRouter, type CompiledRouter } from '../compiler';
import { createMcpHttpHandler } from '../index';
import type { McpCoreSource, McpHandlerOutcome, McpHttpOptions, McpToolSource } from '../options';
import { createHandlerRunner, type ContextOptions, type HandlerRunner, type KvStore, type LogSink } from '../handlers/context';
import { fail, PulseRouterError } from './errors';
import { isEntityRouter, routerDefinition, type EntityRouter } from './router';

/** The handler context's host services (secrets, kv, log, core). */
export type ToolSourceOptions = ContextOptions;

/**
 * A router as the hosts' tool source. `runHandler` is the contracts §8 hook; `handlers` is the same
 * runner in the shape the hosts' driver calls. Both are absent when every tool is native.
 */
export interface RouterToolSource extends McpToolSource {
  readonly catalog: CompiledRouter['catalog'];
  readonly schemaRegistry: CompiledRouter['schemaRegistry'];
  readonly runHandler?: (op: string, input: unknown, opts: { timeoutMs: number }) => Promise<McpHandlerOutcome>;
}

const SOURCE_KEYS = ['secrets', 'kv', 'log', 'core'];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function contextOptions(o: Record<string, unknown>, onError: () => never): ContextOptions {
  const { secrets, kv, log } = o;
  if (secrets !== undefined && typeof secrets !== 'function') onError();
  if (log !== undefined && typeof log !== 'function') onError();
  if (kv !== undefined) {
    if (!isRecord(kv) || typeof kv.get !== 'function' || typeof kv.put !== 'function' || typeof kv.delete !== 'function') onError();
  }
  return Object.freeze({
    secrets: secrets as ContextOptions['secrets'],
    kv: kv as KvStore | undefined,
    log: log as LogSink | undefined,
  });
}

function compile(router: EntityRouter): CompiledRouter {
  if (!isEntityRouter(router)) fail('PULSE_ERR_OPTIONS', 'mcpOptions');
  return compileRouter(routerDefinition(router));
}

/** Freezes `router`, compiles it and returns the host tool source (manifest + handler runner). */
export function toolSource(router: EntityRouter, options?: ToolSourceOptions): RouterToolSource {
  const o: unknown = options ?? {};
  const bad: () => never = () => fail('PULSE_ERR_OPTIONS', 'toolSourceOptions');
  if (!isRecord(o) || Object.keys(o).some((k) => !SOURCE_KEYS.includes(k))) bad();
  const ctxOptions = contextOptions(o, bad);
  const compiled = compile(router);
  const core = o.core as McpCoreSource | undefined;
  const runner: HandlerRunner = createHandlerRunner(routerDefinition(router), { ...ctxOptions, ...(core === undefined ? {} : { core }) }, compiled.manifest);
  const base = { manifest: compiled.manifest, catalog: compiled.catalog, schemaRegistry: compiled.schemaRegistry };
  if (!runner.hasJavaScript) return Object.freeze(base);
  return Object.freeze({
    ...base,
    handlers: runner,
    runHandler: async (op: string, input: unknown, opts: { timeoutMs: number }) => runner.run(op, input, opts),
  });
}

/**
 * Throws PULSE_ERR_NATIVE_INELIGIBLE unless every operation of `router` may run on the Fastly
 * Native target, read from the compiled catalog's target eligibility. Native packaging calls this
 * first; ineligibility never falls back to JavaScript.
 */
export function assertNativeEligible(router: EntityRouter): void {
  const { catalog } = compile(router);
  const ineligible =
    catalog.operations.some((op) => !op.targets.includes('fastly-native')) ||
    routerDefinition(router).operations.some((op) => op.handler.kind === 'javascript');
  if (ineligible) fail('PULSE_ERR_NATIVE_INELIGIBLE', 'nativeIneligible');
}

/** Ceilings of the static `/pulse` binding; options may only lower them. */
export const STATIC_LIMITS = Object.freeze({
  requestBytes: 32768,
  responseBytes: 131072,
  toolResultBytes: 24576,
  deadlineMs: 5000,
  depth: 32,
});

type StaticLimits = { -readonly [K in keyof typeof STATIC_LIMITS]: number };

export interface McpBindingOptions extends ContextOptions {
  readonly router: EntityRouter;
  readonly serverInfo: { readonly name: string; readonly version: string };
  readonly legacyProtocol?: '2025-06-18';
  readonly limits?: Partial<StaticLimits>;
  /** Where the core comes from, as for the hosts (a `WebAssembly.Module` on workerd). */
  readonly core?: McpCoreSource;
}

/** The Pulse request context `handle` receives; only `request` is read. */
export interface PulseRequestContext {
  readonly request: Request;
}

export interface McpBinding {
  handle(ctx: PulseRequestContext): Promise<Response>;
}

const MCP_KEYS = ['router', 'serverInfo', 'legacyProtocol', 'limits', 'secrets', 'kv', 'log', 'core'];

/**
 * The static ceilings with the caller's limits over them. Only the binding knows its ceilings, so it
 * refuses a raise; everything else about a limit (integer, range, unknown key) is the core's call.
 */
function staticLimits(v: unknown): unknown {
  const out: Record<string, unknown> = { ...STATIC_LIMITS };
  if (v === undefined || v === null) return out;
  if (!isRecord(v)) return v;
  for (const [k, n] of Object.entries(v)) {
    // Absent or null would mean the core's default, above the ceiling: the ceiling stays.
    if (n === undefined || n === null) continue;
    const max = (STATIC_LIMITS as Readonly<Record<string, number>>)[k];
    if (max !== undefined && typeof n === 'number' && n > max) fail('PULSE_ERR_OPTIONS', 'limitsRaise');
    out[k] = n;
  }
  return out;
}

/**
 * The static MCP binding: exact `POST /mcp`, every `Origin` rejected, the static limits, the router
 * as the only tool source. Built once at module level; `handle(ctx)` serves one request.
 */
export function mcp(options: McpBindingOptions): McpBinding {
  const o: unknown = options;
  if (!isRecord(o) || Object.keys(o).some((k) => !MCP_KEYS.includes(k)) || !isEntityRouter(o.router)) {
    fail('PULSE_ERR_OPTIONS', 'mcpOptions');
  }
  const limits = staticLimits(o.limits);
  const tools = toolSource(o.router, {
    ...contextOptions(o, () => fail('PULSE_ERR_OPTIONS', 'mcpOptions')),
    ...(o.core === undefined ? {} : { core: o.core as McpCoreSource }),
  });
  // serverInfo, legacyProtocol and the limits are judged by the core (PulseConfigError).
  const handler = createMcpHttpHandler({
    path: '/mcp',
    serverInfo: o.serverInfo as McpBindingOptions['serverInfo'],
    limits: limits as McpHttpOptions['limits'],
    legacyProtocol: o.legacyProtocol as McpBindingOptions['legacyProtocol'],
    ...(o.core === undefined ? {} : { core: o.core as McpCoreSource }),
    tools,
  });
  return Object.freeze({
    handle(ctx: PulseRequestContext): Promise<Response> {
      if (!isRecord(ctx) || !(ctx.request instanceof Request)) return Promise.reject(new PulseRouterError('PULSE_ERR_OPTIONS', 'handleContext'));
      return handler.fetch(ctx.request);
    },
  });
}
