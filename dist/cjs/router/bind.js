"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.STATIC_LIMITS = void 0;
exports.toolSource = toolSource;
exports.assertNativeEligible = assertNativeEligible;
exports.staticOptions = staticOptions;
exports.mcp = mcp;
/**
 * Binding a router: to the static `/pulse` MCP binding (and, in ./jsonrpc.ts, to the JSON-RPC
 * adapter). Every binding freezes the router and compiles it with the tools pipeline's compiler into
 * a tool source (docs/contracts.md#the-typescript-side); nothing here decides protocol outcomes (the core does).
 */
const compiler_1 = require("../compiler");
const driver_1 = require("../core/driver");
const handler_1 = require("../adapter/fetch/handler");
const listener_1 = require("../adapter/node/listener");
const http_exchange_1 = require("../adapter/node/http-exchange");
const errors_1 = require("../errors");
const options_1 = require("../options");
const context_1 = require("../handlers/context");
const errors_2 = require("./errors");
const router_1 = require("./router");
const SOURCE_KEYS = ['secrets', 'kv', 'log', 'core'];
function isRecord(v) {
    return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function contextOptions(o, onError) {
    const { secrets, kv, log } = o;
    if (secrets !== undefined && typeof secrets !== 'function')
        onError();
    if (log !== undefined && typeof log !== 'function')
        onError();
    if (kv !== undefined) {
        if (!isRecord(kv) || typeof kv.get !== 'function' || typeof kv.put !== 'function' || typeof kv.delete !== 'function')
            onError();
    }
    return Object.freeze({
        secrets: secrets,
        kv: kv,
        log: log,
    });
}
function compile(router, core) {
    if (!(0, router_1.isEntityRouter)(router))
        (0, errors_2.fail)('PULSE_ERR_OPTIONS', 'notRouter');
    return (0, compiler_1.compileRouter)((0, router_1.routerDefinition)(router), { core });
}
/**
 * Freezes `router`, compiles it and returns its tool source (manifest + handler runner): what the
 * static binding serves, and what the project's own tooling builds Native configurations from. Not
 * part of the package's API: the host adapters refuse it.
 */
function toolSource(router, options) {
    const o = options ?? {};
    const bad = () => (0, errors_2.fail)('PULSE_ERR_OPTIONS', 'toolSourceOptions');
    if (!isRecord(o) || Object.keys(o).some((k) => !SOURCE_KEYS.includes(k)))
        bad();
    const ctxOptions = contextOptions(o, bad);
    const core = o.core;
    const compiled = compile(router, core);
    const runner = (0, context_1.createHandlerRunner)((0, router_1.routerDefinition)(router), { ...ctxOptions, ...(core === undefined ? {} : { core }) }, compiled.manifest);
    const base = { manifest: compiled.manifest, catalog: compiled.catalog, schemaRegistry: compiled.schemaRegistry };
    return Object.freeze(runner.hasJavaScript ? { ...base, handlers: runner } : base);
}
/**
 * Throws PULSE_ERR_NATIVE_INELIGIBLE unless every operation of `router` may run on the Fastly
 * Native target, read from the compiled catalog's target eligibility. Native packaging calls this
 * first; ineligibility never falls back to JavaScript.
 */
function assertNativeEligible(router) {
    const { catalog } = compile(router);
    const ineligible = catalog.operations.some((op) => !op.targets.includes('fastly-native') || !op.targets.includes('node-native')) ||
        (0, router_1.routerDefinition)(router).operations.some((op) => op.handler.kind === 'javascript');
    if (ineligible)
        (0, errors_2.fail)('PULSE_ERR_NATIVE_INELIGIBLE', 'nativeIneligible');
}
/** Ceilings of the static `/pulse` binding; options may only lower them. */
exports.STATIC_LIMITS = Object.freeze({
    requestBytes: 32768,
    responseBytes: 131072,
    toolResultBytes: 24576,
    deadlineMs: 5000,
    depth: 32,
});
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
const NOT_STATIC = {
    path: 'path: the static binding serves exactly POST /mcp',
    tools: 'tools: the static binding serves its router\'s operations; catalog artifacts belong to the host adapters (createMcpNodeHandler, createMcpHttpHandler)',
    authorization: 'authorization: the static binding has no authorization policy; OAuth admission belongs to the host adapters (createMcpNodeHandler, createMcpHttpHandler)',
};
function configFail(message) {
    throw new errors_1.PulseConfigError(message);
}
/** Node's modules, where the runtime has them, read without importing them (so `/pulse` loads anywhere). */
function builtinNodeModules() {
    const get = globalThis.process?.getBuiltinModule;
    if (typeof get !== 'function')
        configFail('nodeListener: needs Node (20.16 or later); on a Fetch runtime serve handle(ctx)');
    return (0, listener_1.nodeModules)(get('node:http'), () => get('node:https'));
}
/**
 * The static ceilings with the caller's limits over them. Only the binding knows its ceilings, so it
 * refuses a raise; everything else about a limit (integer, range, unknown key) is the core's call.
 */
function staticLimits(v) {
    const out = { ...exports.STATIC_LIMITS };
    if (v === undefined || v === null)
        return out;
    if (!isRecord(v))
        return v;
    for (const [k, n] of Object.entries(v)) {
        // Absent or null would mean the core's default, above the ceiling: the ceiling stays.
        if (n === undefined || n === null)
            continue;
        const max = exports.STATIC_LIMITS[k];
        if (max !== undefined && typeof n === 'number' && n > max)
            configFail(`limits.${k}: the static binding's ceiling is ${max}; limits may only lower it`);
        out[k] = n;
    }
    // A lowered reply budget lowers the tool-result ceiling with it, unless that is given too.
    const given = v;
    if ((given.toolResultBytes === undefined || given.toolResultBytes === null) && typeof out.responseBytes === 'number') {
        out.toolResultBytes = Math.min(exports.STATIC_LIMITS.toolResultBytes, out.responseBytes);
    }
    return out;
}
/**
 * The host options of a static binding from `mcp()`'s options (its router and the runtime's
 * services aside): exact `POST /mcp`, the static ceilings lowered by `limits`, every other option as
 * given for the core to judge. One rule for `mcp()`, for the Native build of a binding the lowerer
 * read, and for the project's tooling; throws `PulseConfigError` naming the option.
 */
function staticOptions(o) {
    for (const key of Object.keys(o)) {
        if (o[key] === undefined || key === 'router' || key === 'limits' || RUNTIME_KEYS.includes(key) || CORE_KEYS.includes(key))
            continue;
        configFail(NOT_STATIC[key] ?? `options: unknown key ${JSON.stringify(key)}`);
    }
    const out = { path: '/mcp', limits: staticLimits(o.limits) };
    for (const key of CORE_KEYS)
        if (o[key] !== undefined)
            out[key] = o[key];
    return out;
}
/**
 * The static MCP binding: exact `POST /mcp`, every `Origin` refused, the static limits, the router
 * as the only tool source. Built once at module level; `handle(ctx)` serves one Fetch request and
 * `nodeListener()` serves Node. Throws `PulseConfigError` naming the option.
 */
function mcp(options) {
    const o = options;
    if (!isRecord(o))
        configFail('options: must be a plain object');
    const given = staticOptions(o);
    if (!(0, router_1.isEntityRouter)(o.router))
        configFail('router: must be an EntityRouter (new EntityRouter(id))');
    const core = o.core;
    const tools = toolSource(o.router, { ...contextOptions(o, () => configFail('secrets, kv, log: secrets and log must be functions, kv a store with get, put and delete')), ...(core === undefined ? {} : { core }) });
    // serverInfo, the limits and every option beyond the documents are judged by the core.
    const resolved = (0, options_1.resolveOptions)({ ...given, core, tools: { manifest: tools.manifest, handlers: tools.handlers } }, 'host', 'static');
    // On Node, reply bytes go straight into Node's buffer pool; a Response takes them as they are.
    const nodeBuffer = globalThis.Buffer;
    const host = (0, driver_1.createHostCore)(resolved, nodeBuffer === undefined ? {} : { copyOut: (view) => nodeBuffer.from(view) });
    let listener;
    return Object.freeze({
        handle(ctx) {
            if (!isRecord(ctx) || !(ctx.request instanceof Request))
                return Promise.reject(new errors_2.PulseRouterError('PULSE_ERR_OPTIONS', 'handleContext'));
            return (0, handler_1.serveFetch)(host, ctx.request, ctx.clientAddress);
        },
        nodeListener() {
            if (listener === undefined) {
                const node = builtinNodeModules();
                listener = (0, listener_1.nodeListener)({ ...host, exchange: (0, http_exchange_1.nodeExchange)(node) }, node);
            }
            return listener;
        },
    });
}
