/**
 * Binding a router: to a tool source for the Fetch/Node hosts (docs/contracts.md §8), to the static
 * `/pulse` MCP facade (and, in ./jsonrpc.ts, to the JSON-RPC adapter). Every binding freezes the router and compiles it
 * with the tools pipeline's compiler; nothing here decides protocol outcomes (the core does).
 */
import { compileRouter, type CompiledRouter, type CompileOptions } from '../compiler';
import { createMcpHttpHandler } from '../index';
import type { McpCoreSource, McpHandlerOutcome, McpToolSource } from '../options';
import { createHandlerRunner, type ContextOptions, type HandlerRunner, type KvStore, type LogSink } from '../handlers/context';
import { fail, PulseRouterError } from './errors';
import { isEntityRouter, routerDefinition, type EntityRouter } from './router';

export interface ToolSourceOptions extends ContextOptions {
  /** Budgets the `tools/list` result must fit (see CompileOptions); defaults are the host defaults. */
  readonly compile?: CompileOptions;
}

/**
 * A router as the hosts' tool source. `runHandler` is the contracts §8 hook; `handlers` is the same
 * runner in the shape the hosts' driver calls. Both are absent when every tool is native.
 */
export interface RouterToolSource extends McpToolSource {
  readonly catalog: CompiledRouter['catalog'];
  readonly schemaRegistry: CompiledRouter['schemaRegistry'];
  readonly runHandler?: (op: string, input: unknown, opts: { timeoutMs: number }) => Promise<McpHandlerOutcome>;
}

const SOURCE_KEYS = ['secrets', 'kv', 'log', 'compile', 'core'];

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

function compile(router: EntityRouter, opts: CompileOptions | undefined): CompiledRouter {
  if (!isEntityRouter(router)) fail('PULSE_ERR_OPTIONS', 'mcpOptions');
  return compileRouter(routerDefinition(router), opts);
}

/** Freezes `router`, compiles it and returns the host tool source (manifest + handler runner). */
export function toolSource(router: EntityRouter, options?: ToolSourceOptions): RouterToolSource {
  const o: unknown = options ?? {};
  const bad: () => never = () => fail('PULSE_ERR_OPTIONS', 'toolSourceOptions');
  if (!isRecord(o) || Object.keys(o).some((k) => !SOURCE_KEYS.includes(k))) bad();
  const ctxOptions = contextOptions(o, bad);
  if (o.compile !== undefined && !isRecord(o.compile)) bad();
  const compiled = compile(router, o.compile as CompileOptions | undefined);
  const core = o.core as McpCoreSource | undefined;
  const runner: HandlerRunner = createHandlerRunner(routerDefinition(router), { ...ctxOptions, ...(core === undefined ? {} : { core }) }, compiled.manifest);
  const base = { manifest: compiled.manifest, catalog: compiled.catalog, schemaRegistry: compiled.schemaRegistry };
  if (!runner.hasJavaScript) return Object.freeze(base);
  return Object.freeze({
    ...base,
    handlers: runner,
    runHandler: (op: string, input: unknown, opts: { timeoutMs: number }) => runner.run(op, input, opts),
  });
}

/**
 * Throws PULSE_ERR_NATIVE_INELIGIBLE unless every operation of `router` may run on the Fastly
 * Native target, read from the compiled catalog's target eligibility. Native packaging calls this
 * first; ineligibility never falls back to JavaScript.
 */
export function assertNativeEligible(router: EntityRouter): void {
  const { catalog } = compile(router, undefined);
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

function staticLimits(v: unknown): StaticLimits {
  const out: StaticLimits = { ...STATIC_LIMITS };
  if (v === undefined) return out;
  if (!isRecord(v)) fail('PULSE_ERR_OPTIONS', 'mcpOptions');
  for (const k of Object.keys(v)) {
    if (!(k in STATIC_LIMITS)) fail('PULSE_ERR_OPTIONS', 'mcpOptions');
    const n = v[k];
    const max = STATIC_LIMITS[k as keyof StaticLimits];
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) fail('PULSE_ERR_OPTIONS', 'mcpOptions');
    if (n > max) fail('PULSE_ERR_OPTIONS', 'limitsRaise');
    out[k as keyof StaticLimits] = n;
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
  if (o.legacyProtocol !== undefined && o.legacyProtocol !== '2025-06-18') fail('PULSE_ERR_OPTIONS', 'mcpOptions');
  const limits = staticLimits(o.limits);
  const tools = toolSource(o.router, {
    ...contextOptions(o, () => fail('PULSE_ERR_OPTIONS', 'mcpOptions')),
    compile: { requestBytes: limits.requestBytes, responseBytes: limits.responseBytes },
    ...(o.core === undefined ? {} : { core: o.core as McpCoreSource }),
  });
  const handler = createMcpHttpHandler({
    path: '/mcp',
    serverInfo: o.serverInfo as McpBindingOptions['serverInfo'],
    limits,
    ...(o.legacyProtocol === undefined ? {} : { legacyProtocol: '2025-06-18' as const }),
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
