"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createMcpHttpHandler = createMcpHttpHandler;
exports.serveFetch = serveFetch;
/**
 * The Fetch host: `Request` in, `Response` out (workerd, Deno, Bun, Node's fetch servers, Fastly JS).
 * Only translation lives here; the core decides every status and header.
 */
const engine_1 = require("../../core/engine");
const driver_1 = require("../../core/driver");
const options_1 = require("../../options");
const DONE = { done: true };
const FAILED = { error: true };
function bodySource(stream) {
    let reader;
    return {
        async read() {
            try {
                reader ??= stream.getReader();
                const { done, value } = await reader.read();
                return done ? DONE : { done: false, chunk: value };
            }
            catch {
                return FAILED;
            }
        },
        cancel() {
            // Not awaited: cleanup never waits on an uncooperative source's cancel promise.
            try {
                (reader ?? stream).cancel().catch(() => undefined);
            }
            catch {
                // Already released or locked elsewhere; nothing left to free.
            }
        },
    };
}
function departureOf(signal) {
    if (signal === undefined || typeof signal.addEventListener !== 'function')
        return { departure: undefined, detach() { } };
    let resolve;
    const state = { gone: signal.aborted, promise: new Promise((r) => (resolve = r)) };
    const onAbort = () => {
        state.gone = true;
        resolve();
    };
    if (state.gone)
        resolve();
    else
        signal.addEventListener('abort', onAbort, { once: true });
    return { departure: state, detach: () => signal.removeEventListener('abort', onAbort) };
}
function toResponse(action) {
    const headers = action.headers.slice();
    // 1xx/204/304 cannot carry a body; the core sends none for them anyway.
    const body = action.body.length > 0 ? action.body : null;
    return new Response(body, { status: action.status, headers: headers });
}
/** The root adapter: a Fetch handler in front of catalog artifacts (the host facade). */
function createMcpHttpHandler(options) {
    const host = (0, driver_1.createHostCore)((0, options_1.resolveOptions)(options));
    return { fetch: (request, info) => serveFetch(host, request, info?.clientAddress) };
}
/**
 * One Fetch request through `host` (shared by every Fetch-facing binding: the root adapter, `mcp()`,
 * `jsonRpc`). A reply the core streams (progress of a static binding's handler, where switched on)
 * is returned as soon as its first event exists; the driver keeps writing into it and closes it with
 * the final response.
 */
async function serveFetch(host, request, client) {
    const { departure, detach } = departureOf(request.signal);
    let controller;
    let started = () => undefined;
    const streamed = new Promise((resolve) => (started = resolve));
    const sink = {
        start(head) {
            const body = new ReadableStream({
                start(c) {
                    controller = c;
                    c.enqueue(head.body);
                },
            });
            started(new Response(body, { status: head.status, headers: head.headers.slice() }));
        },
        write(bytes) {
            controller?.enqueue(bytes);
        },
    };
    const finished = (async () => {
        try {
            const url = new URL(request.url);
            const headers = [];
            request.headers.forEach((value, name) => headers.push(name, value));
            const body = request.body === null ? null : bodySource(request.body);
            const outcome = await (0, driver_1.drive)(host, { method: request.method, target: url.pathname + url.search, headers, client }, body, departure, sink);
            if (outcome.streamed) {
                controller?.enqueue(outcome.response.body);
                controller?.close();
                return streamed;
            }
            return toResponse(outcome.response);
        }
        catch {
            if (controller !== undefined) {
                controller.error(new Error('stream failed'));
                return streamed;
            }
            return toResponse((0, engine_1.internalError)());
        }
        finally {
            detach();
        }
    })();
    return Promise.race([streamed, finished]);
}
