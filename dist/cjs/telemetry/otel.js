"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.instrument = instrument;
/**
 * OpenTelemetry spans of the request events, following the MCP semantic conventions (server spans):
 * subscribes to {@link REQUEST_CHANNEL} and turns each event into one finished span. This module
 * alone imports `@opentelemetry/api` (an optional peer dependency), through its own entry
 * `@pulse-compute/mcp/otel`: the other entries never load it.
 */
const api_1 = require("@opentelemetry/api");
const channel_1 = require("./channel");
const TRACER = '@pulse-compute/mcp';
/**
 * Starts turning request events into spans; returns the function that stops it. Throws where the
 * runtime has no `diagnostics_channel` (nothing would ever be published there).
 */
function instrument(options = {}) {
    const channel = channel_1.requestChannel;
    if (channel === undefined)
        throw new Error(`instrument: node:diagnostics_channel is not available, so ${channel_1.REQUEST_CHANNEL} is never published`);
    const tracer = (options.tracerProvider ?? api_1.trace.getTracerProvider()).getTracer(TRACER);
    const onEvent = (message) => {
        const e = message;
        const end = Date.now();
        const span = tracer.startSpan(spanName(e), { kind: api_1.SpanKind.SERVER, startTime: end - e.totalMs, attributes: attributes(e) }, parentOf(e));
        const error = errorType(e);
        if (error !== undefined)
            span.setStatus({ code: api_1.SpanStatusCode.ERROR, message: e.refusal ?? error });
        span.end(end);
    };
    channel.subscribe(onEvent);
    return () => {
        channel.unsubscribe(onEvent);
    };
}
/** `{mcp.method.name} {target}`: the tool or prompt name; never the resource URI (high cardinality). */
function spanName(e) {
    if (e.method === null)
        return 'mcp';
    return e.name !== null && (e.method === 'tools/call' || e.method === 'prompts/get') ? `${e.method} ${e.name}` : e.method;
}
/** The JSON-RPC code, `tool_error` for a result with `isError`, else the HTTP status of a refusal. */
function errorType(e) {
    if (e.code !== null)
        return String(e.code);
    if (e.isError === true)
        return 'tool_error';
    return e.status >= 400 ? String(e.status) : undefined;
}
function attributes(e) {
    const a = {
        'network.transport': 'tcp',
        'network.protocol.name': 'http',
        'http.response.status_code': e.status,
        'http.request.body.size': e.bytesIn,
        'http.response.body.size': e.bytesOut,
        'pulse_mcp.target': e.target,
    };
    if (e.method !== null)
        a['mcp.method.name'] = e.method;
    if (e.requestId !== null)
        a['jsonrpc.request.id'] = e.requestId;
    if (e.name !== null) {
        if (e.method === 'tools/call') {
            a['gen_ai.tool.name'] = e.name;
            a['gen_ai.operation.name'] = 'execute_tool';
        }
        else if (e.method === 'prompts/get')
            a['gen_ai.prompt.name'] = e.name;
        else
            a['mcp.resource.uri'] = e.name;
    }
    if (e.protocolVersion !== null)
        a['mcp.protocol.version'] = e.protocolVersion;
    if (e.code !== null)
        a['rpc.response.status_code'] = String(e.code);
    const error = errorType(e);
    if (error !== undefined)
        a['error.type'] = error;
    if (e.refusal !== null)
        a['pulse_mcp.refusal'] = e.refusal;
    if (e.sub !== null)
        a['user.id'] = e.sub;
    return a;
}
/** The remote parent from the request's `_meta` (the core validated `traceparent`); else the ambient context. */
function parentOf(e) {
    const active = api_1.context.active();
    if (e.traceparent === null)
        return active;
    const [, traceId, spanId, flags] = e.traceparent.split('-');
    return api_1.trace.setSpanContext(active, {
        traceId,
        spanId,
        traceFlags: Number.parseInt(flags, 16) & 1,
        isRemote: true,
        ...(e.tracestate === null ? {} : { traceState: (0, api_1.createTraceState)(e.tracestate) }),
    });
}
