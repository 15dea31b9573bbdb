/**
 * Binding a router: to the static `/pulse` MCP binding (and, in ./jsonrpc.ts, to the JSON-RPC
 * adapter). Every binding freezes the router and compiles it with the tools pipeline's compiler into
 * a tool source (docs/contracts.md#the-typescript-side); nothing here decides protocol outcomes (the core does).
 */
import { type CompiledRouter } from '../compiler';
import { type McpNodeHandler } from '../adapter/node/listener';
import { type McpCoreSource, type McpHttpOptions, type McpToolSource } from '../options';
import { type ContextOptions } from '../handlers/context';
import { type EntityRouter } from './router';
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
/**
 * Freezes `router`, compiles it and returns its tool source (manifest + handler runner): what the
 * static binding serves, and what the project's own tooling builds Native configurations from. Not
 * part of the package's API: the host adapters refuse it.
 */
export declare function toolSource(router: EntityRouter, options?: ToolSourceOptions): RouterToolSource;
/**
 * Throws PULSE_ERR_NATIVE_INELIGIBLE unless every operation of `router` may run on the Fastly
 * Native target, read from the compiled catalog's target eligibility. Native packaging calls this
 * first; ineligibility never falls back to JavaScript.
 */
export declare function assertNativeEligible(router: EntityRouter): void;
/** Ceilings of the static `/pulse` binding; options may only lower them. */
export declare const STATIC_LIMITS: Readonly<{
    requestBytes: 32768;
    responseBytes: 131072;
    toolResultBytes: 24576;
    deadlineMs: 5000;
    depth: 32;
}>;
type StaticLimits = {
    -readonly [K in keyof typeof STATIC_LIMITS]: number;
};
/**
 * Options of the static binding. `router`, `serverInfo`, `legacyProtocol` and `limits` are the
 * documented ones; the handler context's services (`secrets`, `kv`, `log`) and `core` configure the
 * runtime. Everything else goes beyond the documented binding and is off unless named here (README,
 * "Beyond the documents").
 */
export interface McpBindingOptions extends ContextOptions {
    readonly router: EntityRouter;
    readonly serverInfo: {
        readonly name: string;
        readonly version: string;
    };
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
/**
 * The host options of a static binding from `mcp()`'s options (its router and the runtime's
 * services aside): exact `POST /mcp`, the static ceilings lowered by `limits`, every other option as
 * given for the core to judge. One rule for `mcp()`, for the Native build of a binding the lowerer
 * read, and for the project's tooling; throws `PulseConfigError` naming the option.
 */
export declare function staticOptions(o: Record<string, unknown>): Record<string, unknown>;
/**
 * The static MCP binding: exact `POST /mcp`, every `Origin` refused, the static limits, the router
 * as the only tool source. Built once at module level; `handle(ctx)` serves one Fetch request and
 * `nodeListener()` serves Node. Throws `PulseConfigError` naming the option.
 */
export declare function mcp(options: McpBindingOptions): McpBinding;
export {};
