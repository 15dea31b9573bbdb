"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CoreRequest = exports.Engine = void 0;
exports.internalError = internalError;
exports.corpusIndexer = corpusIndexer;
/**
 * Typed wrapper of the core's C ABI (docs/contracts.md#the-c-abi, docs/contracts.md#records): the one place where TypeScript
 * writes head records and reads reply records and effect JSON. Every call re-creates its memory
 * view (linear memory may grow) and reads integers with `>>> 0`. A trap (panic) poisons the
 * instance: that request answers the core's own 500 and the next request gets a fresh instance.
 */
const errors_1 = require("../errors");
const loader_1 = require("./loader");
const RATE_ANSWERS = { counted: 0, boxed: 1, penalized: 2, failed: 3 };
const FAULT_CODES = { bodyInterrupted: 0, malformedFraming: 1, headTooLarge: 2, internal: 3 };
const HTTP_FAILURES = { unreachable: 0, timedOut: 1 };
/** What may stand as the head record's third word: no space, no line break, nothing long. */
const CLIENT_ADDRESS = /^[0-9A-Za-z.:[\]%_-]{1,64}$/;
const HTTP_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const CONTINUE = Object.freeze({ kind: 'continue' });
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const INTERNAL_BODY = encoder.encode('{"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error"}}');
/**
 * What a host sends when the core cannot answer (MISUSE, a trap, a broken record). It cannot ask
 * the core then, so the bytes live here; a test holds them equal to the core's own
 * `Engine.fault('internal')` (Rust hosts use that directly).
 */
function internalError() {
    return {
        kind: 'respond',
        status: 500,
        headers: [
            ['content-type', 'application/json'],
            ['cache-control', 'no-store'],
        ],
        body: INTERNAL_BODY.slice(),
        close: true,
    };
}
/** Latin-1: header bytes arrive as one char per byte (Node rawHeaders, Fetch ByteStrings). */
function latin1Bytes(text) {
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        out[i] = c > 0xff ? 0x3f : c;
    }
    return out;
}
function latin1Text(bytes, start, end) {
    let s = '';
    for (let i = start; i < end; i += 4096) {
        s += String.fromCharCode.apply(null, bytes.subarray(i, Math.min(end, i + 4096)));
    }
    return s;
}
const ownCopy = (view) => view.slice();
/**
 * Reads the reply record (docs/contracts.md#records) at `memory[start, end)` exactly as `record.rs` writes it;
 * `undefined` when it is not one. `memory` may be the core's: only the body is copied out (by
 * `copy`), and nothing keeps the view.
 */
function decodeReply(memory, start, end, copy) {
    let head = repeatedHead(memory, start, end);
    let blank;
    if (head !== undefined)
        blank = start + lastHeadBytes.length;
    else {
        // The blank line ending the head, noting on the way whether the head is ASCII.
        blank = -1;
        let ascii = true;
        for (let i = start; i + 3 < end; i++) {
            const b = memory[i];
            if (b === 13 && memory[i + 1] === 10 && memory[i + 2] === 13 && memory[i + 3] === 10) {
                blank = i;
                break;
            }
            if (b > 0x7f)
                ascii = false;
        }
        if (blank < 0)
            return undefined;
        head = headOf(memory, start, blank, ascii);
        if (head === undefined)
            return undefined;
    }
    return { kind: 'respond', status: head.status, headers: head.headers, body: copy(memory.subarray(blank + 4, end)), close: head.close };
}
function utf8Text(m, start, end) {
    return decoder.decode(m.subarray(start, end));
}
/** Bytes of the event record's fixed part: thirteen `u32` words (`record::event`). */
const EVENT_FIXED = 52;
const NULL_LENGTH = 0xffffffff;
function u32At(m, at) {
    return (m[at] | (m[at + 1] << 8) | (m[at + 2] << 16) | (m[at + 3] << 24)) >>> 0;
}
/** The last text read into each of the event's eight string slots, with its bytes. */
const lastEventTexts = Array.from({ length: 8 }, () => ({ bytes: new Uint8Array(0), text: '' }));
/** Scratch for one decode: method, name, refusal, protocolVersion, sub, traceparent, tracestate, requestId. */
const eventTexts = [null, null, null, null, null, null, null, null];
/**
 * UTF-8 text of one string slot. Method, name and protocol version repeat from request to request:
 * comparing a few bytes with the slot's last text costs less than building the string again.
 */
function eventText(slot, m, start, end) {
    const last = lastEventTexts[slot];
    const len = end - start;
    if (last.bytes.length === len) {
        let i = 0;
        while (i < len && last.bytes[i] === m[start + i])
            i++;
        if (i === len)
            return last.text;
    }
    const text = decoder.decode(m.subarray(start, end));
    if (len <= 256) {
        last.bytes = m.slice(start, end);
        last.text = text;
    }
    return text;
}
/**
 * Reads the event record (docs/contracts.md#records) at `memory[start, end)` exactly as `record.rs`
 * writes it; `undefined` when it is not one.
 */
function decodeEvent(m, start, end) {
    if (end - start < EVENT_FIXED)
        return undefined;
    const texts = eventTexts;
    let at = start + EVENT_FIXED;
    for (let i = 0; i < texts.length; i++) {
        const len = u32At(m, start + 20 + 4 * i);
        if (len === NULL_LENGTH) {
            texts[i] = null;
            continue;
        }
        const from = at;
        at += len;
        if (at > end)
            return undefined;
        texts[i] = eventText(i, m, from, at);
    }
    if (at !== end)
        return undefined;
    const flags = u32At(m, start + 8);
    return {
        method: texts[0],
        requestId: texts[7],
        name: texts[1],
        status: u32At(m, start),
        code: (flags & 1) !== 0 ? u32At(m, start + 4) | 0 : null,
        isError: (flags & 2) !== 0 ? (flags & 4) !== 0 : null,
        refusal: texts[2],
        bytesIn: u32At(m, start + 12),
        bytesOut: u32At(m, start + 16),
        protocolVersion: texts[3],
        sub: texts[4],
        traceparent: texts[5],
        tracestate: texts[6],
    };
}
/**
 * The last head decoded, its bytes and what they say: replies repeat their heads (a 200 with the
 * same two headers, most of the time), and comparing bytes costs less than finding the blank line
 * and decoding text.
 */
let lastHeadBytes = new Uint8Array(0);
let lastHead;
/**
 * The last head, when the record at `start` begins with its bytes and the blank line: the first
 * blank line of the record is then where it was in the last one (the bytes before it are the same
 * and held none).
 */
function repeatedHead(memory, start, end) {
    const known = lastHeadBytes;
    const blank = start + known.length;
    if (lastHead === undefined || blank + 4 > end)
        return undefined;
    if (memory[blank] !== 13 || memory[blank + 1] !== 10 || memory[blank + 2] !== 13 || memory[blank + 3] !== 10)
        return undefined;
    for (let i = 0; i < known.length; i++)
        if (memory[start + i] !== known[i])
            return undefined;
    return lastHead;
}
/** Decodes the head at `memory[start, blank)`: status line, then `name: value` lines; remembers it. */
function headOf(memory, start, blank, ascii) {
    // ASCII reads the same through the UTF-8 decoder as through Latin-1, only faster.
    const lines = (ascii ? decoder.decode(memory.subarray(start, blank)) : latin1Text(memory, start, blank)).split('\r\n');
    const status = Number(lines[0]);
    if (!Number.isInteger(status) || status < 100 || status > 599)
        return undefined;
    const headers = [];
    let close = false;
    for (let i = 1; i < lines.length; i++) {
        const line = lines[i];
        const colon = line.indexOf(': ');
        if (colon <= 0)
            return undefined;
        const name = line.slice(0, colon);
        const value = line.slice(colon + 2);
        if (name === 'connection')
            close = value === 'close';
        else
            headers.push(Object.freeze([name, value]));
    }
    lastHeadBytes = memory.slice(start, blank);
    lastHead = Object.freeze({ status, headers: Object.freeze(headers), close });
    return lastHead;
}
/**
 * The rate effects decoded last, with their bytes: a caller's requests repeat their effects (the
 * same entry, counter, window), and comparing a hundred bytes costs less than decoding JSON. Two
 * slots, tried from the one after the last match: a request counts its address, then its caller.
 */
const rateMemo = [undefined, undefined];
let rateMemoLast = 0;
/** The perform action of the effect at `memory[start, end)`; `undefined` when it is no effect. */
function performOf(memory, start, end) {
    const len = end - start;
    for (let n = 1; n <= 2; n++) {
        const slot = (rateMemoLast + n) % 2;
        const m = rateMemo[slot];
        if (m === undefined || m.bytes.length !== len)
            continue;
        let i = len - 1;
        while (i >= 0 && m.bytes[i] === memory[start + i])
            i--;
        if (i < 0) {
            rateMemoLast = slot;
            return m.action;
        }
    }
    const effect = decodeEffect(memory.subarray(start, end));
    if (effect === undefined)
        return undefined;
    if (effect.kind !== 'rate')
        return { kind: 'perform', effect };
    // Frozen: every later request of the caller gets this very action.
    const action = Object.freeze({ kind: 'perform', effect: Object.freeze(effect) });
    rateMemoLast = (rateMemoLast + 1) % 2;
    rateMemo[rateMemoLast] = { bytes: memory.slice(start, end), action };
    return action;
}
/** Reads effect JSON (docs/contracts.md#records) as `record.rs` writes it; `undefined` when it is not one. */
function decodeEffect(json) {
    let e;
    try {
        e = JSON.parse(decoder.decode(json));
    }
    catch {
        return undefined;
    }
    if (typeof e !== 'object' || e === null)
        return undefined;
    if (e.kind === 'rate') {
        const named = typeof e.rateCounter === 'string' && typeof e.penaltyBox === 'string' && typeof e.entry === 'string';
        const op = (e.op === 'count' && typeof e.windowS === 'number' && typeof e.charge === 'boolean') || (e.op === 'penalize' && typeof e.ttlS === 'number');
        return named && op ? e : undefined;
    }
    if (typeof e.timeoutMs !== 'number')
        return undefined;
    if (e.kind === 'handler' && typeof e.op === 'string')
        return e;
    const ok = e.kind === 'http' && typeof e.backend === 'string' && HTTP_METHODS.has(e.method) && typeof e.url === 'string' &&
        Array.isArray(e.headers) && typeof e.maxBytes === 'number' && (e.body === undefined || typeof e.body === 'string') &&
        (e.cacheKey === undefined || typeof e.cacheKey === 'string');
    return ok ? e : undefined;
}
class Engine {
    configJson;
    source;
    copyOut;
    core;
    handle;
    poisoned = false;
    /** Bumped on every rebuild, so requests of a discarded instance never touch the new one. */
    generation = 0;
    constructor(configJson, source, 
    /** @internal How reply bodies leave the core's memory. */
    copyOut) {
        this.configJson = configJson;
        this.source = source;
        this.copyOut = copyOut;
        this.core = (0, loader_1.instantiateCore)(source);
        this.handle = Engine.newEngine(this.core, configJson);
    }
    /** Instantiates the core and builds its engine; throws `PulseConfigError` with the core's message. */
    static create(configJson, source, copyOut = ownCopy) {
        return new Engine(configJson, source, copyOut);
    }
    static newEngine(core, configJson) {
        const bytes = encoder.encode(configJson);
        const handle = withInput(core, bytes, (ptr, len) => core.pulse_engine_new(ptr, len)) >>> 0;
        if (handle !== 0)
            return handle;
        const ptr = core.pulse_engine_error_ptr() >>> 0;
        const len = core.pulse_engine_error_len() >>> 0;
        // The core's message names the option and never the value; bound it anyway.
        const message = decoder.decode(new Uint8Array(core.memory.buffer, ptr, Math.min(len, 1024)));
        throw new errors_1.PulseConfigError(message.length > 0 ? message : 'configuration rejected by the core');
    }
    /** Marks instance `generation` unusable after a trap; the next request rebuilds it. */
    poison(generation) {
        if (generation === this.generation)
            this.poisoned = true;
    }
    /**
     * Starts one request at monotonic `now`; `epochMs` (wall clock, ms since the Unix epoch) dates the
     * expiry of multi-round `requestState`.
     */
    request(now, epochMs = Date.now()) {
        if (this.poisoned) {
            try {
                this.core = (0, loader_1.instantiateCore)(this.source);
                this.handle = Engine.newEngine(this.core, this.configJson);
            }
            catch {
                throw new errors_1.PulseCoreError('core: the instance could not be rebuilt');
            }
            this.poisoned = false;
            this.generation++;
        }
        let req;
        try {
            req = this.core.pulse_request_new(this.handle, now, epochMs) >>> 0;
        }
        catch {
            this.poison(this.generation);
            throw new errors_1.PulseCoreError('core: request could not start');
        }
        if (req === 0)
            throw new errors_1.PulseCoreError('core: request could not start');
        return new CoreRequest(this, this.core, req, this.generation);
    }
    /**
     * The reply to an HTTP fault the host's own parser detected (the core never saw the request):
     * an interrupted body (408), malformed framing (400) or an oversized head (431). The core chooses
     * the bytes, so every host answers alike; a trap yields the host's own 500.
     */
    fault(kind) {
        if (this.poisoned)
            return internalError();
        try {
            const ok = this.core.pulse_engine_fault(this.handle, FAULT_CODES[kind]) >>> 0;
            const ptr = this.core.pulse_check_output_ptr() >>> 0;
            const len = this.core.pulse_check_output_len() >>> 0;
            const memory = memoryOf(this.core);
            if (ok !== 1 || ptr + len > memory.length)
                return internalError();
            return decodeReply(memory, ptr, ptr + len, this.copyOut) ?? internalError();
        }
        catch {
            this.poison(this.generation);
            return internalError();
        }
    }
    /** The request event of `fault`'s reply (native/core/src/event.rs); `undefined` when the core has none. */
    faultEvent(kind) {
        if (this.poisoned)
            return undefined;
        try {
            if (this.core.pulse_engine_fault_event(this.handle, FAULT_CODES[kind]) >>> 0 !== 1)
                return undefined;
            const ptr = this.core.pulse_check_output_ptr() >>> 0;
            const len = this.core.pulse_check_output_len() >>> 0;
            const memory = memoryOf(this.core);
            return ptr + len > memory.length ? undefined : decodeEvent(memory, ptr, ptr + len);
        }
        catch {
            this.poison(this.generation);
            return undefined;
        }
    }
    /**
     * The Fastly resources this engine's configuration names (`pulse_engine_service_names`): backends,
     * secret stores and log endpoints, each with the option that names it. The Native build checks them
     * against the project's fastly.toml. Throws `PulseCoreError` (fixed message) on a trap.
     */
    serviceNames() {
        if (this.poisoned)
            throw new errors_1.PulseCoreError('core: service names are unavailable');
        try {
            if (this.core.pulse_engine_service_names(this.handle) >>> 0 !== 1)
                throw new errors_1.PulseCoreError('core: service names are unavailable');
            const ptr = this.core.pulse_check_output_ptr() >>> 0;
            const len = this.core.pulse_check_output_len() >>> 0;
            return JSON.parse(decoder.decode(memoryOf(this.core).subarray(ptr, ptr + len)));
        }
        catch (e) {
            if (e instanceof errors_1.PulseCoreError)
                throw e;
            this.poison(this.generation);
            throw new errors_1.PulseCoreError('core: service names are unavailable');
        }
    }
    /**
     * Runs `op`'s input or output codec in the core (`pulse_engine_check`), so every host agrees on
     * what is valid. `value` must be plain JSON; `undefined` means absent. A valid value comes back in
     * canonical decoded form (`undefined` for a tool without input: no params); a rejection carries
     * the core's path and fixed message, never the value. Throws `PulseCoreError` (fixed message) for
     * an unknown operation, an engine without tools, or a trap (which poisons the instance; `request`
     * rebuilds it).
     */
    check(op, direction, value) {
        if (this.poisoned)
            throw new errors_1.PulseCoreError('core: check is unavailable');
        const core = this.core;
        let json;
        try {
            json = value === undefined ? '' : JSON.stringify(value);
        }
        catch {
            throw new errors_1.PulseCoreError('core: check needs plain JSON');
        }
        const opBytes = encoder.encode(op);
        const jsonBytes = encoder.encode(json);
        let status;
        let out;
        try {
            status = withInput(core, opBytes, (opPtr, opLen) => withInput(core, jsonBytes, (ptr, len) => core.pulse_engine_check(this.handle, opPtr, opLen, direction === 'input' ? 0 : 1, ptr, len))) >>> 0;
            const ptr = core.pulse_check_output_ptr() >>> 0;
            const len = core.pulse_check_output_len() >>> 0;
            out = new Uint8Array(core.memory.buffer, ptr, len).slice();
        }
        catch {
            this.poison(this.generation);
            throw new errors_1.PulseCoreError('core: check failed');
        }
        let parsed;
        try {
            parsed = out.length === 0 ? undefined : JSON.parse(decoder.decode(out));
        }
        catch {
            throw new errors_1.PulseCoreError('core: check failed');
        }
        if (status === 0)
            return { ok: true, value: parsed };
        const r = parsed;
        if (status === 1 && typeof r?.path === 'string' && typeof r.message === 'string')
            return { ok: false, path: r.path, message: r.message };
        throw new errors_1.PulseCoreError('core: check failed');
    }
    /** @internal Whether instance `generation` may still be called. */
    usable(generation) {
        return !this.poisoned && generation === this.generation;
    }
}
exports.Engine = Engine;
/**
 * Builds corpus indexes in the core (`pulse_corpus_index`), so entries are indexed by the tokenizer
 * that reads queries. One instance of `source`, made on first use, serves every definition given to
 * the returned function; a definition is its JSON text, and a rejection carries the core's message.
 * A trap throws `PulseCoreError`.
 */
function corpusIndexer(source) {
    let core;
    return (definitionJson) => {
        core ??= (0, loader_1.instantiateCore)(source);
        const c = core;
        let status;
        let out;
        try {
            status = withInput(c, encoder.encode(definitionJson), (ptr, len) => c.pulse_corpus_index(ptr, len)) >>> 0;
            const ptr = c.pulse_check_output_ptr() >>> 0;
            const len = c.pulse_check_output_len() >>> 0;
            out = memoryOf(c).slice(ptr, ptr + len);
        }
        catch {
            core = undefined;
            throw new errors_1.PulseCoreError('core: the corpus index could not be built');
        }
        if (status !== 1)
            return { ok: false, message: decoder.decode(out.subarray(0, 1024)) };
        return { ok: true, index: JSON.parse(decoder.decode(out)) };
    };
}
/**
 * A view of all of the core's memory, made again only for another instance or when the memory
 * grew. Reading `memory.buffer` is a call into the runtime, so for a WebAssembly memory, whose
 * growth detaches the old buffer and so empties the view, the view's own length is what is checked
 * on every call; wasm2js replaces its buffer on growth without detaching the old one, so its buffer
 * is compared.
 */
let memoryView = new Uint8Array(0);
let memoryCore;
let memoryDetaches = false;
function memoryOf(core) {
    if (memoryCore !== core) {
        const wasm = globalThis.WebAssembly;
        memoryCore = core;
        memoryDetaches = wasm !== undefined && core.memory instanceof wasm.Memory;
        memoryView = new Uint8Array(core.memory.buffer);
    }
    else if (memoryDetaches ? memoryView.length === 0 : memoryView.buffer !== core.memory.buffer) {
        memoryView = new Uint8Array(core.memory.buffer);
    }
    return memoryView;
}
/** Text up to this many UTF-16 units is encoded straight into the core's memory (at most 3 bytes each). */
const DIRECT_TEXT_MAX = 8192;
/** `len` bytes of the core's memory for one call; the caller deallocates `(ptr, len)` after it. */
function allocate(core, len) {
    const ptr = core.pulse_alloc(len) >>> 0;
    if (ptr === 0 && len > 0)
        throw new errors_1.PulseCoreError('core: out of memory');
    return ptr;
}
/** Copies `bytes` into the core's memory; the caller deallocates `(ptr, bytes.length)` after its call. */
function place(core, bytes) {
    const ptr = allocate(core, bytes.length);
    memoryOf(core).set(bytes, ptr);
    return ptr;
}
/**
 * Writes head text into the core's memory, one byte per character. Heads are ASCII in practice and
 * are encoded straight in; the encoder reading or writing anything but one byte per character means
 * the text was not, and it is written again as Latin-1 (same length).
 */
function placeText(core, text) {
    const len = text.length;
    const ptr = allocate(core, len);
    const memory = memoryOf(core);
    const { read, written } = encoder.encodeInto(text, memory.subarray(ptr, ptr + len));
    if (read !== len || written !== len)
        memory.set(latin1Bytes(text), ptr);
    return ptr;
}
/** Runs `call` with `bytes` in the core's memory (construction and checks: not per request). */
function withInput(core, bytes, call) {
    const ptr = place(core, bytes);
    const result = call(ptr, bytes.length);
    core.pulse_dealloc(ptr, bytes.length);
    return result;
}
/** One request's state inside the core. Always `free()` it (try/finally). */
class CoreRequest {
    engine;
    core;
    req;
    generation;
    freed = false;
    /** @internal */
    constructor(engine, core, req, generation) {
        this.engine = engine;
        this.core = core;
        this.req = req;
        this.generation = generation;
    }
    /**
     * `headers` flat, `[name, value, name, value…]`, as Node's `rawHeaders` already is. `client` is the
     * client's address as the host knows it (the rate limits' key per address); the core ignores text
     * that is no IP address.
     */
    head(method, target, headers, now, client) {
        let text = typeof client === 'string' && CLIENT_ADDRESS.test(client) ? `${method} ${target} ${client}\r\n` : `${method} ${target}\r\n`;
        for (let i = 0; i + 1 < headers.length; i += 2)
            text += `${headers[i]}: ${headers[i + 1]}\r\n`;
        return this.step('head', now, 0, text);
    }
    body(chunk, now) {
        // An empty chunk carries nothing; the ABI is never handed a zero-length buffer.
        return chunk.length === 0 ? CONTINUE : this.step('body', now, 0, chunk);
    }
    end(now) {
        return this.step('end', now);
    }
    abort(now) {
        return this.step('abort', now);
    }
    tick(now) {
        return this.step('tick', now);
    }
    /** The pending HTTP effect's status and the body bytes read. */
    httpResponse(status, body, now) {
        return this.step('httpResponse', now, status, body);
    }
    httpFailure(reason, now) {
        return this.step('httpFailure', now, HTTP_FAILURES[reason]);
    }
    /** The pending introspection answered from the host's fresh entry under its `cacheKey`. */
    cached(value, now) {
        return this.step('cached', now, 0, value);
    }
    /** The pending rate effect's answer from the host's store. */
    rate(answer, now) {
        return this.step('rate', now, RATE_ANSWERS[answer.kind], undefined, answer.kind === 'counted' ? answer.count : 0);
    }
    /** The entry to keep after an introspection the host performed, once; `undefined` when none. */
    cacheEntry() {
        if (!this.live())
            return undefined;
        try {
            if (this.core.pulse_request_cache_entry(this.req) >>> 0 !== 1)
                return undefined;
            const text = this.readOutput(utf8Text);
            if (text === undefined)
                return undefined;
            const e = JSON.parse(text);
            return typeof e.key === 'string' && typeof e.ttlMs === 'number' && typeof e.value === 'string' ? e : undefined;
        }
        catch {
            this.engine.poison(this.generation);
            return undefined;
        }
    }
    /** The pending handler's output as JSON text. */
    handlerOutput(json, now) {
        return this.step('handlerOutput', now, 0, json.length <= DIRECT_TEXT_MAX ? json : encoder.encode(json));
    }
    handlerFailure(now) {
        return this.step('handlerFailure', now);
    }
    /** A progress report of the pending handler; the core bounds and frames it. */
    progress(progress, total, message, now) {
        if (!this.live())
            return undefined;
        if (typeof progress !== 'number' || (total !== undefined && typeof total !== 'number'))
            return undefined;
        const core = this.core;
        try {
            const t = total === undefined ? NaN : total;
            const code = (message === undefined
                ? core.pulse_request_progress(this.req, progress, t, 0, 0xffffffff, now)
                : withInput(core, encoder.encode(String(message)), (p, l) => core.pulse_request_progress(this.req, progress, t, p, l, now))) >>> 0;
            if (code === 0)
                return undefined;
            const ptr = core.pulse_output_ptr(this.req) >>> 0;
            const len = core.pulse_output_len(this.req) >>> 0;
            const memory = memoryOf(core);
            if (ptr + len > memory.length)
                throw new errors_1.PulseCoreError('core: output out of bounds');
            if (code === 2)
                return { kind: 'next', bytes: this.engine.copyOut(memory.subarray(ptr, ptr + len)) };
            const head = decodeReply(memory, ptr, ptr + len, this.engine.copyOut);
            return code === 1 && head !== undefined ? { kind: 'first', head } : undefined;
        }
        catch {
            this.engine.poison(this.generation);
            return undefined;
        }
    }
    /** Milliseconds the host may wait for its next event; 0 when already expired. */
    timeoutMs(now) {
        if (!this.engine.usable(this.generation))
            return 0;
        try {
            const ms = this.core.pulse_request_timeout_ms(this.req, now);
            return Number.isFinite(ms) && ms > 0 ? ms : 0;
        }
        catch {
            this.engine.poison(this.generation);
            return 0;
        }
    }
    /** The finished request's event (native/core/src/event.rs); `undefined` when the core has none. */
    event() {
        if (!this.live())
            return undefined;
        try {
            if (this.core.pulse_request_event(this.req) >>> 0 !== 1)
                return undefined;
            return this.readOutput(decodeEvent);
        }
        catch {
            this.engine.poison(this.generation);
            return undefined;
        }
    }
    /** Reads the request's output with `read`, `undefined` when it lies outside memory; throws as the core does. */
    readOutput(read) {
        const ptr = this.core.pulse_output_ptr(this.req) >>> 0;
        const len = this.core.pulse_output_len(this.req) >>> 0;
        const memory = memoryOf(this.core);
        return ptr + len > memory.length ? undefined : read(memory, ptr, ptr + len);
    }
    free() {
        if (this.freed)
            return;
        this.freed = true;
        // A poisoned instance is discarded whole; calling into it again could trap again.
        if (!this.engine.usable(this.generation))
            return;
        try {
            this.core.pulse_request_free(this.req);
        }
        catch {
            this.engine.poison(this.generation);
        }
    }
    /** Whether the core may still be called for this request. */
    live() {
        return !this.freed && this.engine.usable(this.generation);
    }
    /** The core trapped: its instance is discarded and the host answers its own 500. */
    broken() {
        this.engine.poison(this.generation);
        return internalError();
    }
    /**
     * One call into the core for this request, with `input` in its memory for the call's duration
     * (text: a head one byte per character, handler output as UTF-8 straight from the string), then
     * its answer. A trap poisons the instance. One method, no closure: every request makes several.
     */
    step(kind, now, arg = 0, input, arg2 = 0) {
        if (!this.live())
            return internalError();
        const core = this.core;
        const req = this.req;
        let code;
        try {
            let ptr = 0;
            let len = 0;
            let room = 0;
            if (typeof input === 'string') {
                if (kind === 'head') {
                    ptr = placeText(core, input);
                    len = room = input.length;
                }
                else {
                    // Room for the worst case: 3 bytes per UTF-16 unit.
                    room = input.length * 3;
                    ptr = allocate(core, room);
                    len = encoder.encodeInto(input, memoryOf(core).subarray(ptr, ptr + room)).written;
                }
            }
            else if (input !== undefined) {
                ptr = place(core, input);
                len = room = input.length;
            }
            switch (kind) {
                case 'head':
                    code = core.pulse_request_head(req, ptr, len, now);
                    break;
                case 'body':
                    code = core.pulse_request_body(req, ptr, len, now);
                    break;
                case 'end':
                    code = core.pulse_request_end(req, now);
                    break;
                case 'abort':
                    code = core.pulse_request_abort(req, now);
                    break;
                case 'tick':
                    code = core.pulse_request_tick(req, now);
                    break;
                case 'httpResponse':
                    code = core.pulse_request_http_response(req, arg, ptr, len, now);
                    break;
                case 'httpFailure':
                    code = core.pulse_request_http_failure(req, arg, now);
                    break;
                case 'cached':
                    code = core.pulse_request_cached(req, ptr, len, now);
                    break;
                case 'handlerOutput':
                    code = core.pulse_request_handler_output(req, ptr, len, now);
                    break;
                case 'handlerFailure':
                    code = core.pulse_request_handler_failure(req, now);
                    break;
                case 'rate':
                    code = core.pulse_request_rate(req, arg, arg2, now);
                    break;
            }
            if (input !== undefined)
                core.pulse_dealloc(ptr, room);
        }
        catch {
            return this.broken();
        }
        return this.settle(code);
    }
    /** What the core answered with `code`, read from its output before any other call into it. */
    settle(code) {
        switch (code >>> 0) {
            case 0:
                return CONTINUE;
            case 1:
            case 2:
                break;
            default:
                // 3 MISUSE: the host called out of order; it answers 500 on its own.
                return internalError();
        }
        let memory;
        let ptr;
        let end;
        try {
            ptr = this.core.pulse_output_ptr(this.req) >>> 0;
            end = ptr + (this.core.pulse_output_len(this.req) >>> 0);
            memory = memoryOf(this.core);
        }
        catch {
            return this.broken();
        }
        if (end > memory.length)
            return this.broken();
        if (code >>> 0 === 1)
            return decodeReply(memory, ptr, end, this.engine.copyOut) ?? internalError();
        return performOf(memory, ptr, end) ?? internalError();
    }
}
exports.CoreRequest = CoreRequest;
