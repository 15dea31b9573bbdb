"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.nodeModules = nodeModules;
exports.createNodeListener = createNodeListener;
exports.nodeListener = nodeListener;
const engine_1 = require("../../core/engine");
const http_exchange_1 = require("./http-exchange");
const driver_1 = require("../../core/driver");
const channel_1 = require("../../telemetry/channel");
/**
 * Node's modules as a listener takes them: `http` as given, and `node:https` (which brings TLS with
 * it) loaded by `loadHttps` on the first https effect rather than at start-up, then kept.
 */
function nodeModules(http, loadHttps) {
    let https;
    return {
        http,
        get https() {
            return (https ??= loadHttps());
        },
    };
}
/**
 * Lingering close after an early answer: the reply and a FIN go out, then unread input is read and
 * discarded for at most this long and at most a small multiple of the request limit (never over
 * 1 MiB), so the client's TCP stack does not receive a reset (which can discard the reply) while it
 * is still sending. Never an unbounded drain.
 */
const LINGER_MS = 2000;
const LINGER_FACTOR = 4;
const LINGER_CAP = 1024 * 1024;
/** Node parser errors and the fault the core answers for each; others are malformed framing. */
const FAULTS = {
    HPE_HEADER_OVERFLOW: 'headTooLarge',
    // The connection ended (or timed out) before the body did: short of its Content-Length or of
    // its last chunk.
    HPE_INVALID_EOF_STATE: 'bodyInterrupted',
    ERR_HTTP_REQUEST_TIMEOUT: 'bodyInterrupted',
};
const DONE = { done: true };
const FAILED = { error: true };
/**
 * Pull adapter over 'data' events. Chunks wait for their reader up to `maxQueued` bytes (the
 * request limit, which the core enforces anyway); past that the stream is paused until read. A
 * class: its methods are shared, only the three listeners are made per request.
 */
class NodeBody {
    #req;
    #maxQueued;
    #queue = [];
    #queued = 0;
    /** The declared Content-Length, or -1 (chunked or absent). */
    #declared;
    #received = 0;
    #final;
    #waiter;
    #cancelled = false;
    constructor(req, maxQueued) {
        this.#req = req;
        this.#maxQueued = maxQueued;
        const length = req.headers['content-length'];
        this.#declared = length === undefined || req.headers['transfer-encoding'] !== undefined ? -1 : Number(length);
        req.on('data', (chunk) => {
            if (this.#cancelled)
                return;
            this.#received += chunk.length;
            if (this.#waiter !== undefined)
                this.#deliver({ done: false, chunk });
            else {
                this.#queue.push(chunk);
                this.#queued += chunk.length;
                if (this.#queued > this.#maxQueued)
                    req.pause();
            }
        });
        req.on('end', () => {
            this.#final ??= DONE;
            this.#deliver(this.#final);
        });
        req.on('error', () => {
            this.#final = FAILED;
            this.#deliver(this.#final);
        });
    }
    #deliver(r) {
        const w = this.#waiter;
        this.#waiter = undefined;
        w?.(r);
    }
    poll() {
        const next = this.#queue.shift();
        if (next !== undefined) {
            this.#queued -= next.length;
            if (this.#queued <= this.#maxQueued && this.#final === undefined && this.#req.isPaused())
                this.#req.resume();
            return { done: false, chunk: next };
        }
        // Every declared byte was handed over: Node's parser framed the message by its Content-Length
        // and already completed it, so its end needs no wait for the stream's 'end' event.
        return this.#final ?? (this.#received === this.#declared ? DONE : undefined);
    }
    read() {
        const ready = this.poll();
        if (ready !== undefined)
            return Promise.resolve(ready);
        return new Promise((resolve) => {
            this.#waiter = resolve;
            if (this.#req.isPaused())
                this.#req.resume();
        });
    }
    cancel() {
        // Stop reading; never drain what the client still sends.
        this.#cancelled = true;
        this.#req.pause();
        this.#queue.length = 0;
    }
}
/** Where a streamed reply (a handler's progress) is written. */
class NodeSink {
    #res;
    constructor(res) {
        this.#res = res;
    }
    start(head) {
        const flat = [];
        for (const [name, value] of head.headers)
            flat.push(name, value);
        this.#res.writeHead(head.status, flat);
        this.#res.write(head.body);
    }
    write(bytes) {
        this.#res.write(bytes);
    }
}
/**
 * The client going away before the reply finished. Its promise is made only when the driver waits
 * (most requests never do); a class, since an object literal with an accessor takes V8's slow path.
 */
class NodeDeparture {
    gone = false;
    #promise;
    #resolve;
    constructor(res) {
        res.on('close', () => {
            if (res.writableFinished)
                return;
            this.gone = true;
            this.#resolve?.();
        });
    }
    get promise() {
        this.#promise ??= this.gone ? Promise.resolve() : new Promise((r) => (this.#resolve = r));
        return this.#promise;
    }
}
/**
 * Reads and discards what the client still sends, within the linger bounds, then closes. Bytes are
 * counted on the socket: Node stops handing a finished request's body to its listeners.
 */
function linger(socket, maxBytes) {
    // Node ends a `connection: close` socket after the reply and destroys it once the FIN is out;
    // keep only the read side open a little longer (listener added by socket.destroySoon()).
    socket.removeListener('finish', socket.destroy);
    if (!socket.writableEnded)
        socket.end();
    const start = socket.bytesRead ?? 0;
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    socket.on('data', () => {
        if ((socket.bytesRead ?? 0) - start > maxBytes)
            socket.destroy();
    });
    socket.resume();
}
/** The linger drain bound for a request limit. */
function lingerBytes(requestBytes) {
    return Math.min(LINGER_FACTOR * requestBytes, LINGER_CAP);
}
/** The request target as the core reads it: an absolute-form target becomes its path and query. */
function originForm(target) {
    if (target.startsWith('/') || !/^[a-z][a-z0-9+.-]*:\/\//i.test(target))
        return target;
    try {
        const url = new URL(target);
        return url.pathname + url.search;
    }
    catch {
        return target;
    }
}
/** The head and body of a reply record as HTTP/1.1 bytes, for a socket with no response object. */
function rawReply(action, reasons) {
    let head = `HTTP/1.1 ${action.status} ${reasons[action.status] ?? ''}\r\n`;
    for (const [name, value] of action.headers)
        head += `${name}: ${value}\r\n`;
    head += `content-length: ${action.body.length}\r\nconnection: close\r\n\r\n`;
    return Buffer.concat([Buffer.from(head, 'latin1'), action.body]);
}
function send(req, res, action, close, lingerMax) {
    if (res.headersSent || res.destroyed)
        return;
    const flat = [];
    let hasLength = false;
    // The core writes header names in lower case.
    for (const [name, value] of action.headers) {
        if (name === 'content-length')
            hasLength = true;
        flat.push(name, value);
    }
    if (!hasLength)
        flat.push('content-length', String(action.body.length));
    if (close) {
        req.pause();
        flat.push('connection', 'close');
        res.on('finish', () => linger(req.socket, lingerMax));
    }
    res.writeHead(action.status, flat);
    res.end(action.body.length > 0 ? action.body : undefined);
}
/** How Node performs effects and takes reply bytes (into Node's buffer pool). */
function nodeIo(node) {
    return { exchange: (0, http_exchange_1.nodeExchange)(node), copyOut: (view) => Buffer.from(view) };
}
/** The request listener of a snapshotted configuration; throws `PulseConfigError`. */
function createNodeListener(resolved, node) {
    return nodeListener((0, driver_1.createHostCore)(resolved, nodeIo(node)), node);
}
/** The request listener over a built host core (its engine may serve other bindings too). */
function nodeListener(host, node) {
    const lingerMax = lingerBytes(host.requestBytes);
    const attached = new WeakSet();
    const clientError = (err, socket) => {
        // A client gone: nothing can be said on this socket any more.
        if (err.code === 'ECONNRESET' || !socket.writable) {
            socket.destroy();
            return;
        }
        const fault = FAULTS[err.code ?? ''] ?? 'malformedFraming';
        const reply = rawReply(host.engine.fault(fault), node.http.STATUS_CODES);
        // Refused by Node's parser: the core's event of that reply, nothing measured.
        if (channel_1.requestChannel?.hasSubscribers === true)
            (0, channel_1.publishRequest)(channel_1.requestChannel, host.engine.faultEvent(fault), channel_1.NO_TIMINGS);
        const answer = () => {
            // An early reply already ended the connection (and lingers): it was this request's answer.
            if (socket.writableEnded)
                return;
            socket.write(reply);
            linger(socket, lingerMax);
        };
        const inFlight = socket._httpMessage;
        // A reply under way, or one still to come for a request read whole (the fault lies in what
        // follows it), goes out complete first; a reset or an early FIN would lose it.
        if (inFlight != null && !inFlight.writableFinished && (inFlight.headersSent || inFlight.req.complete)) {
            inFlight.once('finish', answer);
        }
        else
            answer();
    };
    const handler = (req, res, info) => {
        const server = req.socket.server;
        if (server !== undefined && !attached.has(server)) {
            attached.add(server);
            if (!server.listeners('clientError').includes(clientError))
                server.on('clientError', clientError);
        }
        const head = { method: req.method ?? '', target: originForm(req.url ?? ''), headers: req.rawHeaders, client: info?.clientAddress ?? req.socket.remoteAddress };
        (0, driver_1.drive)(host, head, new NodeBody(req, host.requestBytes), new NodeDeparture(res), new NodeSink(res)).then((outcome) => {
            if (outcome.streamed) {
                res.end(outcome.response.body);
                return;
            }
            // Unread input left on the connection must never be drained: close instead. A request
            // Node already received completely (no body, or all of it buffered) needs no close.
            const close = !req.complete && (outcome.response.close || !outcome.bodyComplete);
            if (!outcome.gone)
                send(req, res, outcome.response, close, lingerMax);
        }, () => (res.headersSent ? res.destroy() : send(req, res, (0, engine_1.internalError)(), true, lingerMax)));
    };
    return Object.assign(handler, { clientError });
}
