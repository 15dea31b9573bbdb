"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PulseCallValidationError = exports.RequestScope = exports.LOG_RECORDS_PER_REQUEST = exports.KV_OPS_PER_REQUEST = exports.MAX_CALL_DEPTH = void 0;
exports.createMemoryKv = createMemoryKv;
exports.createContext = createContext;
exports.createHandlerRunner = createHandlerRunner;
/**
 * The request-owned context of JavaScript handlers. One `RequestScope` is created per handler
 * effect from the core (docs/contracts.md#the-cores-rust-api) and shared by every nested `ctx.call`, so the
 * deadline, fetch count, fetch bytes and call count are one budget for the whole request. When the
 * effect settles the scope closes: a handler that outlives its deadline can no longer fetch,
 * read secrets, touch KV, log or call.
 */
const compiler_1 = require("../compiler");
const engine_1 = require("../core/engine");
const errors_1 = require("../router/errors");
const rules_1 = require("../router/rules");
const helpers_1 = require("./helpers");
const cancellation_1 = require("../core/cancellation");
const thenable_1 = require("../core/thenable");
/** Nested ctx.call levels (the top-level handler is depth 0). */
exports.MAX_CALL_DEPTH = 4;
/** KV operations per request, shared like the other budgets. */
exports.KV_OPS_PER_REQUEST = 64;
/** Log records kept per request; later ones are dropped. */
exports.LOG_RECORDS_PER_REQUEST = 64;
const LOG_MESSAGE_MAX = 2048;
const LOG_FIELDS_MAX = 8192;
const KV_KEY_MAX = 512;
const KV_VALUE_MAX = 65536;
const REDACTED = '[REDACTED]';
const now = typeof performance !== 'undefined' && typeof performance.now === 'function' ? () => performance.now() : () => Date.now();
/** A bounded in-memory KV store (the default for Node and tests). */
function createMemoryKv(maxKeys = 1024) {
    const map = new Map();
    return {
        get: (k) => map.get(k),
        put: (k, v) => {
            if (!map.has(k) && map.size >= maxKeys)
                (0, errors_1.fail)('PULSE_ERR_KV', 'kvFull');
            map.set(k, v);
        },
        delete: (k) => {
            map.delete(k);
        },
    };
}
/** The abort reason of a scope that ended. */
function endError(why) {
    return why === 'deadline' ? new errors_1.PulseRouterError('PULSE_ERR_DEADLINE', 'deadline') : new errors_1.PulseRouterError('PULSE_ERR_CONTEXT_CLOSED', 'closed');
}
/** One request's shared budgets and effects. */
class RequestScope {
    deadlineAt;
    deadlineEpoch;
    fetchesLeft;
    bytesLeft;
    callsLeft;
    kvLeft = exports.KV_OPS_PER_REQUEST;
    logsLeft = exports.LOG_RECORDS_PER_REQUEST;
    closed = false;
    /** Secret values this request read, masked in its logs; made on the first read. */
    #secrets;
    /** Why the scope ended (the deadline, or closed), once it has. */
    #ended;
    /** The signal and its abort, made on first use: most handlers never look at `ctx.signal`. */
    #signal;
    #abort;
    /**
     * The deadline as a promise that rejects, and its timer: made on the first `race`, so a handler
     * that finishes without waiting on anything costs neither.
     */
    #expired;
    #reject;
    #timer;
    #expire;
    /** The host's signal this scope listens to, until it closes. */
    #external;
    constructor(budgetMs, budgets, external) {
        const start = now();
        this.deadlineAt = start + budgetMs;
        this.deadlineEpoch = Date.now() + budgetMs;
        this.fetchesLeft = budgets.fetches;
        this.bytesLeft = budgets.fetchBytes;
        this.callsLeft = budgets.calls;
        const expire = () => {
            if (this.#ended !== undefined)
                return;
            this.#end('deadline');
            this.#reject?.(endError('deadline'));
        };
        this.#expire = expire;
        if (external?.aborted === true)
            expire();
        else if (external !== undefined) {
            external.addEventListener('abort', expire);
            this.#external = external;
        }
    }
    /** Aborted when the budget runs out or the request ends: outstanding fetches stop. */
    get signal() {
        if (this.#signal === undefined) {
            if (typeof AbortController === 'function') {
                const c = new AbortController();
                this.#signal = c.signal;
                this.#abort = (r) => c.abort(r);
            }
            else {
                const s = new cancellation_1.Cancellation();
                this.#signal = s;
                this.#abort = (r) => s.cancel(r);
            }
            if (this.#ended !== undefined)
                this.#abort(endError(this.#ended));
        }
        return this.#signal;
    }
    /** Whether the budget ran out (or the external signal fired). */
    get aborted() {
        return this.#ended === 'deadline';
    }
    #end(why) {
        this.#ended = why;
        this.#abort?.(endError(why));
    }
    remainingMs() {
        return Math.max(0, this.deadlineAt - now());
    }
    assertOpen() {
        if (this.closed)
            (0, errors_1.fail)('PULSE_ERR_CONTEXT_CLOSED', 'closed');
        if (this.aborted || this.remainingMs() <= 0)
            (0, errors_1.fail)('PULSE_ERR_DEADLINE', 'deadline');
    }
    /** Runs `work` until it settles or the budget expires, whichever comes first. */
    race(work) {
        return Promise.race([Promise.resolve().then(work), this.#deadline()]);
    }
    /** Rejects with the deadline error once the budget runs out; never settles after `close`. */
    #deadline() {
        if (this.#expired === undefined) {
            this.#expired = new Promise((_, r) => (this.#reject = r));
            // Never an unhandled rejection: callers race against it, nobody has to.
            this.#expired.catch(() => undefined);
            if (this.#ended === 'deadline')
                this.#reject(endError('deadline'));
            // A host that hands in its cancellation keeps the one clock: its driver ends the run through
            // it at the budget or the request's deadline, re-reading the time whenever a timer fires early
            // (Node's timers run on a loop clock that lags a busy process). A second timer here could end
            // the run first and turn the request's deadline into the handler's own failure.
            else if (this.#ended === undefined && this.#external === undefined)
                this.#timer = setTimeout(this.#expire, Math.max(0, this.deadlineAt - now()));
        }
        return this.#expired;
    }
    close() {
        this.closed = true;
        if (this.#timer !== undefined)
            clearTimeout(this.#timer);
        this.#external?.removeEventListener('abort', this.#expire);
        // Outstanding fetches and body reads of a handler that is still running stop here.
        if (this.#ended === undefined)
            this.#end('closed');
    }
    addSecret(value) {
        (this.#secrets ??= new Set()).add(value);
    }
    redact(text) {
        if (this.#secrets === undefined)
            return text;
        let out = text;
        // Longest first, so a secret containing another is masked whole.
        for (const v of [...this.#secrets].sort((a, b) => b.length - a.length)) {
            if (v !== '')
                out = out.split(v).join(REDACTED);
        }
        return out;
    }
}
exports.RequestScope = RequestScope;
function headerList(h) {
    if (h === undefined)
        return [];
    const list = Array.isArray(h) ? h : Object.entries(h);
    for (const pair of list) {
        if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') {
            (0, errors_1.fail)('PULSE_ERR_FETCH_FAILED', 'fetchInvalid');
        }
    }
    return list.map(([n, v]) => [n, v]);
}
const NULL_BODY_STATUS = new Set([204, 205, 304]);
async function governedFetch(env, scope, input, init) {
    scope.assertOpen();
    if (typeof input !== 'string' && !(input instanceof URL))
        (0, errors_1.fail)('PULSE_ERR_FETCH_FAILED', 'fetchInvalid');
    let url;
    try {
        url = new URL(String(input));
    }
    catch {
        return (0, errors_1.fail)('PULSE_ERR_FETCH_FAILED', 'fetchInvalid');
    }
    if (!env.origins.has(url.origin) || url.username !== '' || url.password !== '')
        (0, errors_1.fail)('PULSE_ERR_FETCH_DENIED', 'fetchDenied');
    const i = init === undefined ? {} : init;
    if (typeof i !== 'object' || i === null || Object.keys(i).some((k) => !['method', 'headers', 'body'].includes(k))) {
        (0, errors_1.fail)('PULSE_ERR_FETCH_FAILED', 'fetchInvalid');
    }
    const method = i.method === undefined ? 'GET' : i.method;
    if (typeof method !== 'string' || !/^[A-Za-z]{1,16}$/.test(method))
        (0, errors_1.fail)('PULSE_ERR_FETCH_FAILED', 'fetchInvalid');
    const headers = headerList(i.headers);
    const body = i.body;
    if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array) && !(body instanceof ArrayBuffer)) {
        (0, errors_1.fail)('PULSE_ERR_FETCH_FAILED', 'fetchInvalid');
    }
    const f = typeof globalThis.fetch === 'function' ? globalThis.fetch : undefined;
    if (f === undefined)
        (0, errors_1.fail)('PULSE_ERR_FETCH_FAILED', 'fetchUnavailable');
    if (scope.fetchesLeft <= 0)
        (0, errors_1.fail)('PULSE_ERR_BUDGET', 'budgetFetches');
    // Counted before the attempt: a failed or aborted request still spent its budget.
    scope.fetchesLeft -= 1;
    const requestInit = { method, headers, redirect: 'manual' };
    if (body !== undefined && body !== null)
        requestInit.body = body;
    if (typeof AbortSignal === 'function' && scope.signal instanceof AbortSignal)
        requestInit.signal = scope.signal;
    let res;
    try {
        res = await scope.race(() => f(url.href, requestInit));
    }
    catch (e) {
        throw scopeError(scope, e, 'fetchFailed');
    }
    if ((res.status >= 300 && res.status < 400) || res.type === 'opaqueredirect') {
        await cancel(res);
        (0, errors_1.fail)('PULSE_ERR_FETCH_FAILED', 'fetchRedirect');
    }
    const bytes = await readBounded(scope, res);
    const out = new Response(NULL_BODY_STATUS.has(res.status) ? null : bytes, { status: res.status, statusText: res.statusText, headers: res.headers });
    return out;
}
async function cancel(res) {
    try {
        await res.body?.cancel();
    }
    catch {
        // Already closed or errored: nothing more to release.
    }
}
/** Reads the whole body, counting bytes against the request's fetch byte budget; over budget fails closed. */
async function readBounded(scope, res) {
    if (res.body === null)
        return new Uint8Array(0);
    const reader = res.body.getReader();
    const chunks = [];
    let total = 0;
    try {
        for (;;) {
            const { done, value } = await scope.race(() => reader.read());
            if (done)
                break;
            total += value.byteLength;
            if (total > scope.bytesLeft) {
                scope.bytesLeft = 0;
                (0, errors_1.fail)('PULSE_ERR_BUDGET', 'budgetBytes');
            }
            chunks.push(value);
        }
    }
    catch (e) {
        reader.cancel().catch(() => undefined);
        throw scopeError(scope, e, 'fetchFailed');
    }
    scope.bytesLeft -= total;
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) {
        out.set(c, at);
        at += c.byteLength;
    }
    return out;
}
/** Maps any failure to a typed error: our own pass through, the deadline wins, others get a fixed message. */
function scopeError(scope, e, fallback) {
    if ((0, errors_1.isPulseRouterError)(e))
        return e;
    if (scope.closed)
        return new errors_1.PulseRouterError('PULSE_ERR_CONTEXT_CLOSED', 'closed');
    if (scope.aborted || scope.remainingMs() <= 0)
        return new errors_1.PulseRouterError('PULSE_ERR_DEADLINE', 'deadline');
    const code = fallback === 'fetchFailed' ? 'PULSE_ERR_FETCH_FAILED' : fallback === 'callFailed' ? 'PULSE_ERR_CALL' : 'PULSE_ERR_KV';
    return new errors_1.PulseRouterError(code, fallback);
}
function redactDeep(scope, v) {
    if (typeof v === 'string')
        return scope.redact(v);
    if (Array.isArray(v))
        return v.map((x) => redactDeep(scope, x));
    if (typeof v === 'object' && v !== null) {
        const out = {};
        for (const [k, x] of Object.entries(v))
            out[scope.redact(k)] = redactDeep(scope, x);
        return out;
    }
    return v;
}
/** Plain-JSON fields only, every key and string redacted, bounded in size. */
function sanitizeFields(scope, fields) {
    if (fields === undefined)
        return undefined;
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields) || !(0, helpers_1.isPlainJson)(fields))
        return { unserializable: true };
    const out = redactDeep(scope, fields);
    return JSON.stringify(out).length > LOG_FIELDS_MAX ? { truncated: true } : out;
}
function makeLogger(env, scope, operation) {
    const emit = (level) => (message, fields) => {
        const sink = env.options.log;
        if (sink === undefined || scope.closed || scope.logsLeft <= 0)
            return;
        scope.logsLeft -= 1;
        const msg = scope.redact(typeof message === 'string' ? message : '').slice(0, LOG_MESSAGE_MAX);
        const f = sanitizeFields(scope, fields);
        const record = Object.freeze(f === undefined ? { level, operation, message: msg, time: Date.now() } : { level, operation, message: msg, fields: f, time: Date.now() });
        try {
            sink(record);
        }
        catch {
            // A failing sink must not fail the handler.
        }
    };
    return Object.freeze({ debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') });
}
function makeKv(env, scope) {
    const guard = (key) => {
        scope.assertOpen();
        if (typeof key !== 'string' || key.length < 1 || key.length > KV_KEY_MAX)
            (0, errors_1.fail)('PULSE_ERR_KV', 'kvKey');
        if (scope.kvLeft <= 0)
            (0, errors_1.fail)('PULSE_ERR_BUDGET', 'kvFailed');
        scope.kvLeft -= 1;
        return key;
    };
    const run = async (work) => {
        try {
            return await scope.race(work);
        }
        catch (e) {
            throw scopeError(scope, e, 'kvFailed');
        }
    };
    return Object.freeze({
        get: async (key) => {
            const k = guard(key);
            const v = await run(() => env.kv.get(k));
            return typeof v === 'string' ? v : undefined;
        },
        put: async (key, value) => {
            const k = guard(key);
            if (typeof value !== 'string' || value.length > KV_VALUE_MAX)
                (0, errors_1.fail)('PULSE_ERR_KV', 'kvValue');
            await run(() => env.kv.put(k, value));
        },
        delete: async (key) => {
            const k = guard(key);
            await run(() => env.kv.delete(k));
        },
    });
}
const NO_RESPONSES = Object.freeze({});
/** Freezes a value parsed for this call alone, so a handler cannot change what a nested call reads. */
function frozenJson(v) {
    if (typeof v !== 'object' || v === null)
        return v;
    for (const key of Object.keys(v))
        frozenJson(v[key]);
    return Object.freeze(v);
}
/**
 * One handler's context over a shared scope. A class rather than an object literal: a literal with
 * an accessor (the lazy `signal`) takes V8's slow path on every request, and its per-object
 * accessor and shape are garbage that outlives the young generation. `signal`, `kv` and `log` are
 * made on first use; the functions stay own properties, so a handler may destructure them.
 */
class Context {
    operation;
    deadline;
    config;
    inputResponses;
    progress;
    fetch;
    secret;
    call;
    #env;
    #scope;
    // Private fields are not properties: the frozen context still caches them.
    #kv;
    #log;
    constructor(env, scope, operation, depth, inputResponses, report) {
        this.#env = env;
        this.#scope = scope;
        this.operation = operation;
        this.deadline = scope.deadlineEpoch;
        this.config = env.definition.config;
        this.inputResponses = inputResponses;
        this.progress = (progress, total, message) => {
            if (report !== undefined && !scope.closed)
                report(progress, total, message);
        };
        this.fetch = (url, init) => governedFetch(env, scope, url, init);
        this.secret = (name) => {
            scope.assertOpen();
            if (!(0, rules_1.isName)(name))
                (0, errors_1.fail)('PULSE_ERR_SECRET', 'secretName');
            const provider = env.options.secrets;
            if (provider === undefined)
                return undefined;
            let v;
            try {
                v = provider(name);
            }
            catch {
                return (0, errors_1.fail)('PULSE_ERR_SECRET', 'secretFailed');
            }
            if (typeof v !== 'string')
                return undefined;
            scope.addSecret(v);
            return v;
        };
        this.call = (name, input) => callOperation(env, scope, name, input === undefined ? {} : input, depth + 1);
        Object.freeze(this);
    }
    get signal() {
        return this.#scope.signal;
    }
    get kv() {
        this.#kv ??= makeKv(this.#env, this.#scope);
        return this.#kv;
    }
    get log() {
        this.#log ??= makeLogger(this.#env, this.#scope, this.operation);
        return this.#log;
    }
}
// Shared by every request's context: nothing may redefine its accessors.
Object.freeze(Context.prototype);
/** Builds the context of `operation` at call depth `depth` over a shared scope. */
function createContext(env, scope, operation, depth, inputResponses = NO_RESPONSES, report = undefined) {
    return new Context(env, scope, operation, depth, inputResponses, report);
}
const CHECK_TEXT_MAX = 256;
/**
 * A ctx.call value the core's codec rejected (code `PULSE_ERR_CALL`). The message is fixed text plus
 * the core's path and fixed codec message; the value itself is never echoed.
 */
class PulseCallValidationError extends errors_1.PulseRouterError {
    operation;
    direction;
    /** Where the codec stopped, e.g. `$.count` (from the core, bounded). */
    path;
    /** The codec's fixed message, e.g. `Expected an integer` (from the core, bounded). */
    reason;
    constructor(operation, direction, path, reason) {
        super('PULSE_ERR_CALL', 'callFailed');
        this.operation = operation;
        this.direction = direction;
        this.path = path.slice(0, CHECK_TEXT_MAX);
        this.reason = reason.slice(0, CHECK_TEXT_MAX);
        this.message = `Called operation ${direction} failed validation at ${this.path}: ${this.reason}`;
    }
}
exports.PulseCallValidationError = PulseCallValidationError;
/** The core's verdict on one value; the canonical decoded form when valid. */
function validate(env, op, direction, value) {
    let r;
    try {
        r = env.check(op, direction, value);
    }
    catch {
        return (0, errors_1.fail)('PULSE_ERR_CALL', 'callFailed');
    }
    if (!r.ok)
        throw new PulseCallValidationError(op, direction, r.path, r.message);
    return r.value;
}
/**
 * ctx.call: runs another declared operation under the same scope. The core validates the input with
 * the callee's input codec (the callee receives the canonical decoded input, e.g. closed objects
 * without extra members) and the result with its output codec, exactly as for a tools/call; a
 * rejection throws `PulseCallValidationError` and a rejected input never reaches the callee. Static
 * results come back as the core encodes them; JavaScript handlers run with a child context.
 * Corpus and backend operations run only inside the core and are refused here.
 */
async function callOperation(env, scope, name, input, depth) {
    scope.assertOpen();
    const op = typeof name === 'string' ? env.operations.get(name) : undefined;
    if (op === undefined)
        (0, errors_1.fail)('PULSE_ERR_CALL', 'callUnknown');
    if (depth > exports.MAX_CALL_DEPTH)
        (0, errors_1.fail)('PULSE_ERR_BUDGET', 'budgetDepth');
    if (scope.callsLeft <= 0)
        (0, errors_1.fail)('PULSE_ERR_BUDGET', 'budgetCalls');
    scope.callsLeft -= 1;
    const h = op.handler;
    if (h.kind !== 'javascript' && h.kind !== 'static')
        (0, errors_1.fail)('PULSE_ERR_CALL', 'callUnsupported');
    if (!(0, helpers_1.isPlainJson)(input))
        (0, errors_1.fail)('PULSE_ERR_CALL', 'callFailed');
    const decoded = validate(env, op.name, 'input', input);
    let out;
    if (h.kind === 'static') {
        out = h.result;
    }
    else {
        const child = createContext(env, scope, op.name, depth);
        try {
            // A tool without input gets `{}`, as for a top-level call (the core sends no params).
            out = await scope.race(() => h.fn(child, decoded === undefined ? {} : decoded));
        }
        catch (e) {
            throw scopeError(scope, e, 'callFailed');
        }
    }
    const value = out === undefined ? null : out;
    if (!(0, helpers_1.isPlainJson)(value))
        (0, errors_1.fail)('PULSE_ERR_CALL', 'callFailed');
    return validate(env, op.name, 'output', value);
}
const FAILED = Object.freeze({ ok: false });
/** A handler's result as an outcome: plain JSON only (`undefined` is `null`). */
function outcomeOf(out) {
    const value = out === undefined ? null : out;
    return (0, helpers_1.isPlainJson)(value) ? { ok: true, output: value } : FAILED;
}
/** A handler that returned a promise: it runs against the scope's deadline, then the scope closes. */
async function settleAsync(scope, pending) {
    try {
        return outcomeOf(await scope.race(() => pending));
    }
    catch {
        return FAILED;
    }
    finally {
        scope.close();
    }
}
/**
 * Runs the JavaScript handler for one core `handler` instruction. Every failure — unknown operation,
 * throw, rejection, timeout, output that is not plain JSON — is `{ ok: false }` with nothing of the
 * exception attached; the core turns it into a fixed-message tool error.
 */
function createHandlerRunner(definition, options = {}, manifest) {
    const operations = new Map(definition.operations.map((o) => [o.name, o]));
    const origins = new Set(Object.values(definition.backends).map((b) => new URL(b.url).origin));
    // ctx.call's codec checks run in a core instance of their own (from the same core source and
    // manifest as the host), built on first use: the runner is not handed the host's engine. A failed instance is dropped so the next call builds a new one.
    let checker;
    const check = (op, direction, value) => {
        try {
            checker ??= engine_1.Engine.create(JSON.stringify({ tools: manifest ?? (0, compiler_1.compileRouter)(definition, { core: options.core }).manifest }), options.core);
            return checker.check(op, direction, value);
        }
        catch (e) {
            checker = undefined;
            throw e;
        }
    };
    const env = { definition, operations, origins, options, check, kv: options.kv ?? createMemoryKv() };
    const hasJavaScript = definition.operations.some((o) => o.handler.kind === 'javascript');
    return Object.freeze({
        hasJavaScript,
        run(op, input, opts) {
            const target = operations.get(op);
            if (target === undefined || target.handler.kind !== 'javascript')
                return FAILED;
            const fn = target.handler.fn;
            const timeoutMs = typeof opts?.timeoutMs === 'number' && Number.isFinite(opts.timeoutMs) ? opts.timeoutMs : 0;
            const budgetMs = Math.min(timeoutMs, definition.budgets.deadlineMs);
            if (!(budgetMs > 0))
                return FAILED;
            // The host's cancellation when it gives one (no AbortSignal is made for it), else its signal.
            const host = opts[cancellation_1.CANCELLATION];
            const scope = new RequestScope(budgetMs, definition.budgets, host ?? opts.signal);
            let out;
            try {
                const responses = opts.inputResponses === undefined ? NO_RESPONSES : frozenJson(opts.inputResponses);
                out = fn(createContext(env, scope, op, 0, responses, opts.progress), input === undefined ? {} : input);
                // A handler that returned a value is done: no promise, no timer, no turn of the event loop.
                if (!(0, thenable_1.isThenable)(out)) {
                    scope.close();
                    return outcomeOf(out);
                }
            }
            catch {
                scope.close();
                return FAILED;
            }
            return settleAsync(scope, out);
        },
    });
}
