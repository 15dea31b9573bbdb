"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.jsonRpc = jsonRpc;
/**
 * `jsonRpc(router)`: the router as a plain JSON-RPC 2.0 endpoint, served by the core's `jsonrpc`
 * profile (engine config `profile: "jsonrpc"`, native/core/src/jsonrpc.rs). The core decides every
 * status and body; requests go through the Fetch host's `serveFetch`. The hosts' options do not
 * take a profile, so the validated MCP configuration is reused with the profile member added.
 */
const driver_1 = require("../core/driver");
const engine_1 = require("../core/engine");
const handler_1 = require("../adapter/fetch/handler");
const options_1 = require("../options");
const compiler_1 = require("../compiler");
const context_1 = require("../handlers/context");
const errors_1 = require("./errors");
const router_1 = require("./router");
const KEYS = ['path', 'limits', 'secrets', 'kv', 'log', 'core'];
function isRecord(v) {
    return typeof v === 'object' && v !== null && !Array.isArray(v);
}
/** Freezes and compiles `router` and binds it to the core's JSON-RPC profile. */
function jsonRpc(router, options) {
    const o = options ?? {};
    if (!(0, router_1.isEntityRouter)(router) || !isRecord(o) || Object.keys(o).some((k) => !KEYS.includes(k)))
        (0, errors_1.fail)('PULSE_ERR_OPTIONS', 'jsonRpcOptions');
    const def = (0, router_1.routerDefinition)(router);
    const compiled = (0, compiler_1.compileRouter)(def, { core: o.core });
    const runner = (0, context_1.createHandlerRunner)(def, { secrets: o.secrets, kv: o.kv, log: o.log, ...(o.core === undefined ? {} : { core: o.core }) }, compiled.manifest);
    // path and limits are judged by the core, with the MCP hosts' messages.
    const resolved = (0, options_1.resolveOptions)({ path: o.path ?? '/', limits: o.limits, tools: { manifest: compiled.manifest }, core: o.core }, 'host', 'static');
    const host = Object.freeze({
        engine: engine_1.Engine.create(`{"profile":"jsonrpc",${resolved.configJson.slice(1)}`, resolved.core),
        requestBytes: resolved.requestBytes,
        handlers: runner.hasJavaScript ? runner : undefined,
        exchange: driver_1.fetchExchange,
    });
    return Object.freeze({ fetch: (request) => (0, handler_1.serveFetch)(host, request) });
}
