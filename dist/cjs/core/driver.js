"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createHostCore = createHostCore;
exports.drive = drive;
exports.fetchExchange = fetchExchange;
const cancellation_1 = require("./cancellation");
const thenable_1 = require("./thenable");
const defaults_1 = require("./generated/defaults");
const channel_1 = require("../telemetry/channel");
const introspection_store_1 = require("./introspection-store");
const rate_store_1 = require("./rate-store");
const engine_1 = require("./engine");
const perf = globalThis.performance;
const runtimeNow = perf !== undefined ? () => perf.now() : () => Date.now();
const TIMEOUT = Symbol('timeout');
const GONE = Symbol('gone');
/** setTimeout's ceiling; longer waits simply re-arm. */
const MAX_TIMER_MS = 0x7fffffff;
/** Waits for `work`, at most `ms`, and stops early when `departure` settles. Clears its timer. */
async function race(work, ms, departure) {
    let timer;
    const expiry = new Promise((resolve) => {
        timer = setTimeout(() => resolve(TIMEOUT), Math.min(Math.max(0, Math.ceil(ms)), MAX_TIMER_MS));
    });
    const contenders = [work, expiry];
    if (departure !== undefined)
        contenders.push(departure.promise.then(() => GONE));
    try {
        return await Promise.race(contenders);
    }
    finally {
        clearTimeout(timer);
    }
}
/** Instantiates the core for options already snapshotted; throws `PulseConfigError`. */
function createHostCore(resolved, io = {}) {
    const engine = engine_1.Engine.create(resolved.configJson, resolved.core, io.copyOut);
    const now = io.now ?? runtimeNow;
    const bounds = resolved.introspectionCache;
    const cache = bounds === undefined ? {} : { cache: new introspection_store_1.IntrospectionStore(bounds.maxEntries, bounds.maxBytes, now) };
    const limits = resolved.rateLimitStore;
    const rates = limits === undefined ? {} : { rates: new rate_store_1.RateStore(limits.maxEntries, limits.maxBytes) };
    return Object.freeze({ engine, requestBytes: resolved.requestBytes, handlers: resolved.handlers, exchange: io.exchange ?? fetchExchange, now, ...cache, ...rates });
}
/**
 * Runs one request through the core to its response. Never throws for request-caused conditions;
 * the core decides every status.
 */
async function drive(host, head, body, departure, sink) {
    const now = host.now ?? runtimeNow;
    // The request event is measured and built only while someone listens.
    const channel = channel_1.requestChannel?.hasSubscribers === true ? channel_1.requestChannel : undefined;
    const started = channel === undefined ? 0 : now();
    let bodyMs = 0;
    let effectsMs = 0;
    const req = host.engine.request(now());
    const stream = { started: false };
    let bodyDone = body === null;
    let endSent = false;
    let pending;
    let zeroWaits = 0;
    let yielded = false;
    try {
        let action = req.head(head.method, head.target, head.headers, now(), head.client);
        // Each iteration consumes one event; the core's deadline bounds how many can occur.
        for (;;) {
            if (action.kind === 'respond') {
                if (!bodyDone)
                    body?.cancel();
                if (channel !== undefined)
                    (0, channel_1.publishRequest)(channel, req.event(), { bodyMs, effectsMs, totalMs: now() - started });
                return { response: action, streamed: stream.started, bodyComplete: bodyDone, gone: departure?.gone === true };
            }
            if (action.kind === 'perform') {
                if (action.effect.kind === 'rate') {
                    // Counted in memory, at once (the core judges the deadline when it takes the answer); a
                    // handler built without a store would lift every limit: it fails the request instead.
                    const at = now();
                    action = host.rates === undefined ? (0, engine_1.internalError)() : req.rate(host.rates.perform(action.effect, at), at);
                    if (channel !== undefined)
                        effectsMs += now() - at;
                    continue;
                }
                const left = req.timeoutMs(now());
                // Never start an effect once the request's deadline has passed: the core answers it.
                if (left === 0) {
                    action = unfinished(req, now, 'deadline');
                    continue;
                }
                const effectStarted = channel === undefined ? 0 : now();
                const next = action.effect.kind === 'http'
                    ? performHttp(req, now, action.effect, departure, host.exchange, host.cache)
                    : performHandler(req, now, left, action.effect, departure, host.handlers, progressOf(req, now, action.effect, sink, stream));
                // A handler that returned a value answers at once: no promise to wait for.
                action = next instanceof Promise ? await next : next;
                if (channel !== undefined)
                    effectsMs += now() - effectStarted;
                continue;
            }
            if (departure?.gone === true) {
                action = finalOf(req.abort(now()));
                continue;
            }
            if (bodyDone) {
                // CONTINUE after the body ended breaks the contract.
                if (endSent)
                    action = (0, engine_1.internalError)();
                else {
                    endSent = true;
                    action = req.end(now());
                }
                continue;
            }
            // What the runtime already holds needs no wait, so no timer: the common case of a body that
            // arrived with its head. One yield first lets the runtime hand over what it has.
            let event = pending === undefined ? body.poll?.() : undefined;
            if (event === undefined && pending === undefined && !yielded && body.poll !== undefined) {
                yielded = true;
                await undefined;
                continue;
            }
            let wait = 0;
            if (event === undefined) {
                pending ??= body.read();
                wait = req.timeoutMs(now());
                const waitStarted = channel === undefined ? 0 : now();
                event = wait > 0 ? await race(pending, wait, departure) : TIMEOUT;
                if (channel !== undefined)
                    bodyMs += now() - waitStarted;
            }
            if (event === TIMEOUT) {
                action = req.tick(now());
                // A core that keeps saying "expired" without answering would make this loop spin.
                zeroWaits = wait > 0 ? 0 : zeroWaits + 1;
                if (action.kind === 'continue' && zeroWaits > defaults_1.MAX_ZERO_WAITS)
                    action = (0, engine_1.internalError)();
                continue;
            }
            if (event === GONE) {
                action = finalOf(req.abort(now()));
                continue;
            }
            pending = undefined;
            if (event.done === true) {
                bodyDone = true;
            }
            else if (event.done === false) {
                action = req.body(event.chunk, now());
            }
            else {
                bodyDone = true; // a failed source has nothing more to give or cancel
                action = finalOf(req.abort(now()));
            }
        }
    }
    finally {
        req.free();
    }
}
/** After abort the core must answer; anything else is a contract break. */
function finalOf(action) {
    return action.kind === 'respond' ? action : (0, engine_1.internalError)();
}
/**
 * Waits for one effect's work, bounded by its own budget and by the request's deadline; timers may
 * fire early, so each wait re-checks both clocks. A wait that ends without the work (`'deadline'`:
 * the caller ticks and the core answers 408; `'timedOut'`; `'gone'`: the caller aborts) cancels it,
 * and its late result is dropped.
 */
async function awaitEffect(req, now, work, budgetMs, departure, cancellation) {
    const started = now();
    let ended;
    for (;;) {
        const at = now();
        const coreLeft = req.timeoutMs(at);
        const ownLeft = budgetMs - (at - started);
        if (coreLeft === 0)
            ended = 'deadline';
        else if (ownLeft <= 0)
            ended = 'timedOut';
        else {
            const event = await race(work, Math.min(coreLeft, ownLeft), departure);
            if (event === TIMEOUT)
                continue;
            if (event !== GONE)
                return { done: event };
            ended = 'gone';
        }
        cancellation.cancel();
        work.catch(() => undefined);
        return ended;
    }
}
/** What an ended wait means when it produced nothing: the core decides the reply. */
function unfinished(req, now, how) {
    const at = now();
    return how === 'gone' ? finalOf(req.abort(at)) : finalOf(req.tick(at));
}
/**
 * One HTTP effect: exactly the effect's request, no redirects, no retry, bounded body read. An
 * effect with a `cacheKey` is answered from the store's fresh entry when there is one; after a
 * performed one the store keeps what the core says.
 */
function performHttp(req, now, effect, departure, exchange, cache) {
    if (effect.cacheKey === undefined || cache === undefined)
        return exchangeHttp(req, now, effect, departure, exchange);
    const kept = cache.get(effect.cacheKey);
    if (kept !== undefined)
        return req.cached(kept, now());
    return exchangeHttp(req, now, effect, departure, exchange).then((action) => {
        const entry = req.cacheEntry();
        if (entry !== undefined)
            cache.set(entry);
        return action;
    });
}
async function exchangeHttp(req, now, effect, departure, exchange) {
    const cancellation = new cancellation_1.Cancellation();
    const work = exchange(effect, cancellation);
    const outcome = await awaitEffect(req, now, work, effect.timeoutMs, departure, cancellation);
    if (outcome === 'deadline' || outcome === 'gone')
        return unfinished(req, now, outcome);
    if (outcome === 'timedOut')
        return req.httpFailure('timedOut', now());
    const r = outcome.done;
    return r === 'unreachable' ? req.httpFailure('unreachable', now()) : req.httpResponse(r.status, r.body, now());
}
/** The exchange through the runtime's `fetch` (the Fetch host's; `redirect: 'manual'`). */
async function fetchExchange(effect, cancellation) {
    const signal = cancellation.signal;
    const fetchFn = globalThis.fetch;
    if (fetchFn === undefined)
        return 'unreachable';
    let response;
    try {
        const init = { method: effect.method, headers: effect.headers, redirect: 'manual' };
        if (effect.body !== undefined)
            init.body = effect.body;
        if (signal !== undefined)
            init.signal = signal;
        response = await fetchFn(effect.url, init);
    }
    catch {
        return 'unreachable';
    }
    const body = await readAtMost(response, effect.maxBytes);
    return body === undefined ? 'unreachable' : { status: response.status, body };
}
/** Reads the body until its end or until more than `maxBytes` arrived; `undefined` if it fails. */
async function readAtMost(response, maxBytes) {
    if (response.body === null)
        return new Uint8Array(0);
    const reader = response.body.getReader();
    const parts = [];
    let total = 0;
    try {
        while (total <= maxBytes) {
            const { done, value } = await reader.read();
            if (done)
                break;
            total += value.byteLength;
            parts.push(value);
        }
    }
    catch {
        return undefined;
    }
    if (total > maxBytes)
        reader.cancel().catch(() => undefined);
    const out = new Uint8Array(total);
    let at = 0;
    for (const p of parts) {
        out.set(p, at);
        at += p.byteLength;
    }
    return out;
}
/** The handler's `progress` function: reports go to the core, its events to the host's sink. */
function progressOf(req, now, effect, sink, stream) {
    if (effect.progress !== true || sink === undefined)
        return undefined;
    return (progress, total, message) => {
        const event = req.progress(progress, total, message, now());
        if (event === undefined)
            return;
        try {
            if (event.kind === 'first') {
                stream.started = true;
                sink.start(event.head);
            }
            else
                sink.write(event.bytes);
        }
        catch {
            // A client gone mid-stream is seen by the departure; a report never fails the handler.
        }
    };
}
/**
 * One handler effect: the runner's output goes back as JSON text; any failure is a handler failure.
 * Answered at once when the handler returned a value; a promise only when it has to be waited for.
 * `left` is what remains of the request's deadline (more than 0).
 */
function performHandler(req, now, left, effect, departure, runner, progress) {
    if (runner === undefined)
        return req.handlerFailure(now());
    const cancellation = new cancellation_1.Cancellation();
    const work = runHandler(effect, runner, Math.min(effect.timeoutMs, left), cancellation, progress);
    if (typeof work === 'object')
        return awaitHandler(req, now, work, effect.timeoutMs, departure, cancellation);
    return work === undefined ? req.handlerFailure(now()) : req.handlerOutput(work, now());
}
/** Waits for a handler's promised output within its budget and the request's deadline. */
async function awaitHandler(req, now, work, budgetMs, departure, cancellation) {
    const outcome = await awaitEffect(req, now, work, budgetMs, departure, cancellation);
    if (outcome === 'deadline' || outcome === 'gone')
        return unfinished(req, now, outcome);
    if (outcome === 'timedOut' || outcome.done === undefined)
        return req.handlerFailure(now());
    return req.handlerOutput(outcome.done, now());
}
/**
 * What a handler runner is given. A class rather than an object literal: a literal with an accessor
 * takes V8's slow path on every call. The signal is made only if read: a handler that never looks
 * at it costs no AbortController.
 */
class RunContext {
    timeoutMs;
    [cancellation_1.CANCELLATION];
    constructor(timeoutMs, cancellation, inputResponses, progress) {
        this.timeoutMs = timeoutMs;
        this[cancellation_1.CANCELLATION] = cancellation;
        // Absent, not undefined, when not given.
        if (inputResponses !== undefined)
            this.inputResponses = inputResponses;
        if (progress !== undefined)
            this.progress = progress;
    }
    get signal() {
        return this[cancellation_1.CANCELLATION].signal;
    }
}
/**
 * The handler's output as JSON text, or `undefined` when it failed; a promise of it only when the
 * runner answered with one (a runner may settle at once).
 */
function runHandler(effect, runner, timeoutMs, cancellation, progress) {
    let outcome;
    try {
        outcome = runner.run(effect.op, effect.input, new RunContext(timeoutMs, cancellation, effect.inputResponses, progress));
    }
    catch {
        return undefined;
    }
    return (0, thenable_1.isThenable)(outcome) ? Promise.resolve(outcome).then(outputText, () => undefined) : outputText(outcome);
}
/** A runner's outcome as the core takes it: the output as JSON text, `undefined` for a failure. */
function outputText(outcome) {
    if (outcome?.ok !== true)
        return undefined;
    try {
        const text = JSON.stringify(outcome.output === undefined ? null : outcome.output);
        return typeof text === 'string' ? text : undefined;
    }
    catch {
        return undefined;
    }
}
