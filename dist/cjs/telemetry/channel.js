"use strict";
/**
 * The request event's channel: one `node:diagnostics_channel` message per finished request, the way
 * undici publishes. The module is reached through `process.getBuiltinModule`, so the `.` and
 * `/pulse` entries still load on Fetch runtimes without Node (nothing is published there), and a
 * channel without subscribers costs one property read per request.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.NO_TIMINGS = exports.requestChannel = exports.REQUEST_CHANNEL = void 0;
exports.publishRequest = publishRequest;
/** The channel every host publishes its request events on. */
exports.REQUEST_CHANNEL = 'pulse-mcp:request';
const proc = globalThis.process;
function open() {
    try {
        const dc = proc?.getBuiltinModule?.('node:diagnostics_channel');
        return dc?.channel(exports.REQUEST_CHANNEL);
    }
    catch {
        return undefined;
    }
}
/** `undefined` where the runtime has no `diagnostics_channel`. */
exports.requestChannel = open();
/** The runtime, named like the compiler's targets. */
function detectTarget() {
    const g = globalThis;
    if (g.navigator?.userAgent === 'Cloudflare-Workers')
        return 'workerd-javascript';
    if (typeof g.fastly === 'object' && g.fastly !== null)
        return 'fastly-javascript';
    if (typeof proc?.versions?.bun === 'string')
        return 'bun-javascript';
    if (typeof proc?.versions?.deno === 'string')
        return 'deno-javascript';
    if (typeof proc?.versions?.node === 'string')
        return 'node-javascript';
    return 'javascript';
}
let target;
/** A request the host's own parser refused: nothing was measured. */
exports.NO_TIMINGS = Object.freeze({ bodyMs: 0, effectsMs: 0, totalMs: 0 });
/** The core's part when it has none (its instance broke): the host's own 500. */
const INTERNAL = Object.freeze({
    method: null,
    requestId: null,
    name: null,
    status: 500,
    code: -32603,
    isError: null,
    refusal: 'internal',
    bytesIn: 0,
    bytesOut: 0,
    protocolVersion: null,
    sub: null,
    traceparent: null,
    tracestate: null,
});
/** Publishes one request's event: the core's fields completed with the host's timings and target. */
function publishRequest(channel, core, t) {
    const c = core ?? INTERNAL;
    // One literal, every member in the documented order: every event has the same shape.
    const event = {
        method: c.method,
        requestId: c.requestId,
        name: c.name,
        status: c.status,
        code: c.code,
        isError: c.isError,
        refusal: c.refusal,
        bytesIn: c.bytesIn,
        bytesOut: c.bytesOut,
        protocolVersion: c.protocolVersion,
        sub: c.sub,
        traceparent: c.traceparent,
        tracestate: c.tracestate,
        bodyMs: t.bodyMs,
        effectsMs: t.effectsMs,
        coreMs: Math.max(0, t.totalMs - t.bodyMs - t.effectsMs),
        totalMs: t.totalMs,
        target: (target ??= detectTarget()),
    };
    channel.publish(Object.freeze(event));
}
