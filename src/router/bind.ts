/**
 * Binding a router: to the static `/pulse` MCP binding (and, in ./jsonrpc.ts, to the JSON-RPC
 * adapter). Every binding freezes the router and compiles it with the tools pipeline's compiler into
 * a tool source (docs/contracts.md#the-typescript-side); nothing here decides protocol outcomes (the core does).
 */
import { compileRouter, type CompiledRouter } from '../compiler';
import { createHostCore } from '../core/driver';
import { serveFetch } from '../adapter/fetch/handler';
import { nodeListener, nodeModules, type McpNodeHandler, type NodeModules } from '../adapter/node/listener';
import { nodeExchange } from '../adapter/node/http-exchange';
import { PulseConfigError } from '../errors';
import { resolveOptions, type McpCoreSource, type McpHttpOptions, type McpToolSource } from '../options';
import { createHandlerRunner, type ContextOptions, type HandlerRunner, type KvStore, type LogSink } from '../handlers/context';
import { fail, PulseRouterError } from './errors';
import { isEntityRouter, routerDefinition, type EntityRouter } from './router';

/** The handler context's host services (secrets, kv, log, core). */
export type ToolSourceOptions = ContextOptions;

/**
 * A router as a tool source (docs/contracts.md#the-typescript-side): its compiled artifacts and, when
 * some tool is JavaScript, the runner the driver calls (`handlers`).
 */
export interface RouterToolSource extends McpToolSource {
  readonly catalog: CompiledRouter['catalog'];
  readonly schemaRegistry: CompiledRouter['schemaRegistry'];
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

function compile(router: EntityRouter, core?: McpCoreSource): CompiledRouter {
  if (!isEntityRouter(router)) fail('PULSE_ERR_OPTIONS', 'notRouter');
  return compileRouter(routerDefinition(router), { core });
}

/**
 * Freezes `router`, compiles it and returns its tool source (manifest + handler runner): what the
 * static binding serves, and what the project's own tooling builds Native configurations from. Not
 * part of the package's API: the host adapters refuse it.
 */
export function toolSource(router: EntityRouter, options?: ToolSourceOptions): RouterToolSource {
  const o: unknown = options ?? {};
  const bad: () => never = () => fail('PULSE_ERR_OPTIONS', 'toolSourceOptions');
  if (!isRecord(o) || Object.keys(o).some((k) => !SOURCE_KEYS.includes(k))) bad();
  const ctxOptions = contextOptions(o, bad);
  const core = o.core as McpCoreSource | undefined;
  const compiled = compile(router, core);
  const runner: HandlerRunner = createHandlerRunner(routerDefinition(router), { ...ctxOptions, ...(core === undefined ? {} : { core }) }, compiled.manifest);
  const base = { manifest: compiled.manifest, catalog: compiled.catalog, schemaRegistry: compiled.schemaRegistry };
  return Object.freeze(runner.hasJavaScript ? { ...base, handlers: runner } : base);
}

/**
 * Throws PULSE_ERR_NATIVE_INELIGIBLE unless every operation of `router` may run on the Fastly
 * Native target, read from the compiled catalog's target eligibility. Native packaging calls this
 * first; ineligibility never falls back to JavaScript.
 */
export function assertNativeEligible(router: EntityRouter): void {
  const { catalog } = compile(router);
  const ineligible =
    catalog.operations.some((op) => !op.targets.includes('fastly-native') || !op.targets.includes('node-native')) ||
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

/**
 * Options of the static binding. `router`, `serverInfo`, `legacyProtocol` and `limits` are the
 * documented ones; the handler context's services (`secrets`, `kv`, `log`) and `core` configure the
 * runtime. Everything else goes beyond the documented binding and is off unless named here (README,
 * "Beyond the documents").
 */
export interface McpBindingOptions extends ContextOptions {
  readonly router: EntityRouter;
  readonly serverInfo: { readonly name: string; readonly version: string };
  readonly legacyProtocol?: '2025-06-18';
  readonly limits?: Partial<StaticLimits>;
  /** Where the core comes from, as for the hosts (a `WebAssembly.Module` on workerd). */
  readonly core?: McpCoreSource;
  /** Exact origins admitted when an `Origin` header is present; default none (every Origin refused). */
  readonly allowedOrigins?: readonly string[];
  /** `true`: browser clients of the `allowedOrigins` may call (CORS); off by default. */
  readonly cors?: boolean;
  /** `true`: a handler may report progress to a client that asked, and the reply becomes an event stream. */
  readonly progress?: boolean;
  /** `true`: operations declared `content: true` may return MCP content blocks. */
  readonly contentBlocks?: boolean;
  readonly resources?: McpHttpOptions['resources'];
  readonly resourceTemplates?: McpHttpOptions['resourceTemplates'];
  readonly prompts?: McpHttpOptions['prompts'];
  readonly requestStateKey?: McpHttpOptions['requestStateKey'];
  readonly unsealedRequestState?: boolean;
  readonly listCacheTtlMs?: number;
  readonly listCacheScope?: 'private' | 'public';
  readonly serverCard?: boolean;
  /** The Fastly Native build's log endpoint for request events (`McpHttpOptions.fastlyLogEndpoint`); ignored elsewhere. */
  readonly fastlyLogEndpoint?: string;
  /** Opt-in rate limits per client address (`McpHttpOptions.rateLimit`; the static binding has no `authorization`, so every caller is its address). */
  readonly rateLimit?: McpHttpOptions['rateLimit'];
}

/**
 * The Pulse request context `handle` receives: the request, and the client's IP address where the
 * runtime knows it (the key of `rateLimit`'s budgets; see `McpClientInfo`).
 */
export interface PulseRequestContext {
  readonly request: Request;
  readonly clientAddress?: string;
}

export interface McpBinding {
  /** Serves one request of a Fetch runtime (workerd, Fastly JavaScript, Deno, Bun). */
  handle(ctx: PulseRequestContext): Promise<Response>;
  /**
   * The same binding as a Node `http.createServer` request listener, without `Request`/`Response`
   * objects; made on the first call, the same listener afterwards.
   */
  nodeListener(): McpNodeHandler;
}

/** The handler context's services and the core: taken by the binding, not sent to the core. */
const RUNTIME_KEYS = ['secrets', 'kv', 'log', 'core'];
/** Options sent to the core as given: the documented ones, then the ones beyond the documents. */
const CORE_KEYS = [
  'serverInfo',
  'legacyProtocol',
  'allowedOrigins',
  'cors',
  'progress',
  'contentBlocks',
  'resources',
  'resourceTemplates',
  'prompts',
  'requestStateKey',
  'unsealedRequestState',
  'listCacheTtlMs',
  'listCacheScope',
  'serverCard',
  'fastlyLogEndpoint',
  'rateLimit',
];
/** Host adapter options the static binding does not have, and why. */
const NOT_STATIC: Readonly<Record<string, string>> = {
  path: 'path: the static binding serves exactly POST /mcp',
  tools: 'tools: the static binding serves its router\'s operations; catalog artifacts belong to the host adapters (createMcpNodeHandler, createMcpHttpHandler)',
  authorization: 'authorization: the static binding has no authorization policy; OAuth admission belongs to the host adapters (createMcpNodeHandler, createMcpHttpHandler)',
};

function configFail(message: string): never {
  throw new PulseConfigError(message);
}

/** Node's modules, where the runtime has them, read without importing them (so `/pulse` loads anywhere). */
function builtinNodeModules(): NodeModules {
  const get = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  if (typeof get !== 'function') configFail('nodeListener: needs Node (20.16 or later); on a Fetch runtime serve handle(ctx)');
  return nodeModules(get('node:http') as NodeModules['http'], () => get('node:https') as NodeModules['https']);
}

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
    if (max !== undefined && typeof n === 'number' && n > max) configFail(`limits.${k}: the static binding's ceiling is ${max}; limits may only lower it`);
    out[k] = n;
  }
  // A lowered reply budget lowers the tool-result ceiling with it, unless that is given too.
  const given = v as Record<string, unknown>;
  if ((given.toolResultBytes === undefined || given.toolResultBytes === null) && typeof out.responseBytes === 'number') {
    out.toolResultBytes = Math.min(STATIC_LIMITS.toolResultBytes, out.responseBytes);
  }
  return out;
}

/**
 * The host options of a static binding from `mcp()`'s options (its router and the runtime's
 * services aside): exact `POST /mcp`, the static ceilings lowered by `limits`, every other option as
 * given for the core to judge. One rule for `mcp()`, for the Native build of a binding the lowerer
 * read, and for the project's tooling; throws `PulseConfigError` naming the option.
 */
export function staticOptions(o: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(o)) {
    if (o[key] === undefined || key === 'router' || key === 'limits' || RUNTIME_KEYS.includes(key) || CORE_KEYS.includes(key)) continue;
    configFail(NOT_STATIC[key] ?? `options: unknown key ${JSON.stringify(key)}`);
  }
  const out: Record<string, unknown> = { path: '/mcp', limits: staticLimits(o.limits) };
  for (const key of CORE_KEYS) if (o[key] !== undefined) out[key] = o[key];
  return out;
}

/**
 * The static MCP binding: exact `POST /mcp`, every `Origin` refused, the static limits, the router
 * as the only tool source. Built once at module level; `handle(ctx)` serves one Fetch request and
 * `nodeListener()` serves Node. Throws `PulseConfigError` naming the option.
 */
export function mcp(options: McpBindingOptions): McpBinding {
  const o: unknown = options;
  if (!isRecord(o)) configFail('options: must be a plain object');
  const given = staticOptions(o);
  if (!isEntityRouter(o.router)) configFail('router: must be an EntityRouter (new EntityRouter(id))');
  const core = o.core as McpCoreSource | undefined;
  const tools = toolSource(o.router, { ...contextOptions(o, () => configFail('secrets, kv, log: secrets and log must be functions, kv a store with get, put and delete')), ...(core === undefined ? {} : { core }) });
  // serverInfo, the limits and every option beyond the documents are judged by the core.
  const resolved = resolveOptions({ ...given, core, tools: { manifest: tools.manifest, handlers: tools.handlers } }, 'host', 'static');
  // On Node, reply bytes go straight into Node's buffer pool; a Response takes them as they are.
  const nodeBuffer = (globalThis as { Buffer?: { from(view: Uint8Array): Uint8Array } }).Buffer;
  const host = createHostCore(resolved, nodeBuffer === undefined ? {} : { copyOut: (view) => nodeBuffer.from(view) });
  let listener: McpNodeHandler | undefined;
  return Object.freeze({
    handle(ctx: PulseRequestContext): Promise<Response> {
      if (!isRecord(ctx) || !(ctx.request instanceof Request)) return Promise.reject(new PulseRouterError('PULSE_ERR_OPTIONS', 'handleContext'));
      return serveFetch(host, ctx.request, ctx.clientAddress);
    },
    nodeListener(): McpNodeHandler {
      if (listener === undefined) {
        const node = builtinNodeModules();
        listener = nodeListener({ ...host, exchange: nodeExchange(node) }, node);
      }
      return listener;
    },
  });
}
