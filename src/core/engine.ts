/**
 * Typed wrapper of the core's C ABI (docs/contracts.md#the-c-abi, docs/contracts.md#records): the one place where TypeScript
 * writes head records and reads reply records and effect JSON. Every call re-creates its memory
 * view (linear memory may grow) and reads integers with `>>> 0`. A trap (panic) poisons the
 * instance: that request answers the core's own 500 and the next request gets a fresh instance.
 */
import { PulseConfigError, PulseCoreError } from '../errors';
import type { McpCoreSource } from '../options';
import type { CoreEvent } from '../telemetry/channel';
import type { CoreExports } from './exports';
import { instantiateCore } from './loader';

export type HeaderPair = readonly [name: string, value: string];

export interface ContinueAction {
  readonly kind: 'continue';
}

export interface RespondAction {
  readonly kind: 'respond';
  readonly status: number;
  /** Verbatim from the core, without `connection` (each host closes in its own way). */
  readonly headers: readonly HeaderPair[];
  readonly body: Uint8Array;
  /** The core answered before the body was complete: stop reading and close. */
  readonly close: boolean;
}

/** One outbound HTTP exchange: send exactly this, follow no redirect, never retry. */
export interface HttpEffect {
  readonly kind: 'http';
  readonly backend: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly url: string;
  readonly headers: readonly HeaderPair[];
  /** Absent: no body at all. */
  readonly body?: string;
  /** Stop reading once more than this many bytes arrived; the core judges the size. */
  readonly maxBytes: number;
  readonly timeoutMs: number;
  /**
   * Token introspection with `authorization.cache` only: the key of the host's stored entry. With a
   * fresh entry the host answers `CoreRequest.cached` instead of performing the exchange.
   */
  readonly cacheKey?: string;
}

/** What the host keeps after an introspection: `value` under `key` for at most `ttlMs`. */
export interface CacheEntry {
  readonly key: string;
  readonly ttlMs: number;
  readonly value: string;
}

/** One JavaScript handler run; `input` is absent for an operation without input. */
export interface HandlerEffect {
  readonly kind: 'handler';
  readonly op: string;
  readonly input?: unknown;
  /** The client's answers to the tool's declared inputs (a JSON object), when it declares any. */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  /** The client asked for progress: forward the handler's reports with `CoreRequest.progress`. */
  readonly progress?: true;
  readonly timeoutMs: number;
}

/**
 * What one progress report became: dropped (a bound or the order refused it), the first event
 * (send `head`, whose body is the event, and keep the response open), or a later event's bytes.
 * Once a report was sent, the final reply is the stream's last event: write its body only.
 */
export type ProgressEvent = undefined | { readonly kind: 'first'; readonly head: RespondAction } | { readonly kind: 'next'; readonly bytes: Uint8Array };

/**
 * One operation of the rate limits on the host's store (the core decides the entry, the budget and
 * what the answer means): `count` looks `entry` up in the penalty box and, when not boxed and
 * `charge`, counts it once now and reports its count over the last `windowS` seconds; `penalize`
 * puts it in the penalty box for `ttlS` seconds.
 */
export type RateEffect = { readonly kind: 'rate'; readonly rateCounter: string; readonly penaltyBox: string; readonly entry: string } & (
  | { readonly op: 'count'; readonly windowS: number; readonly charge: boolean }
  | { readonly op: 'penalize'; readonly ttlS: number }
);

/** The store's answer to a rate effect; `failed` when it could not answer (the core admits the request). */
export type RateAnswer = { readonly kind: 'counted'; readonly count: number } | { readonly kind: 'boxed' } | { readonly kind: 'penalized' } | { readonly kind: 'failed' };
const RATE_ANSWERS: Readonly<Record<RateAnswer['kind'], number>> = { counted: 0, boxed: 1, penalized: 2, failed: 3 };

export type Effect = HttpEffect | HandlerEffect | RateEffect;

export interface PerformAction {
  readonly kind: 'perform';
  readonly effect: Effect;
}

export type Action = ContinueAction | RespondAction | PerformAction;

/** HTTP faults a host's own parser reports (see `Engine.fault`). */
export type HostFault = 'bodyInterrupted' | 'malformedFraming' | 'headTooLarge';
const FAULT_CODES: Readonly<Record<HostFault | 'internal', number>> = { bodyInterrupted: 0, malformedFraming: 1, headTooLarge: 2, internal: 3 };

/** Why an HTTP exchange produced no response. */
export type HttpFailure = 'unreachable' | 'timedOut';
const HTTP_FAILURES: Readonly<Record<HttpFailure, number>> = { unreachable: 0, timedOut: 1 };

/** What may stand as the head record's third word: no space, no line break, nothing long. */
const CLIENT_ADDRESS = /^[0-9A-Za-z.:[\]%_-]{1,64}$/;
const HTTP_METHODS: ReadonlySet<unknown> = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const CONTINUE: ContinueAction = Object.freeze({ kind: 'continue' });
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const INTERNAL_BODY = encoder.encode('{"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error"}}');

/**
 * What a host sends when the core cannot answer (MISUSE, a trap, a broken record). It cannot ask
 * the core then, so the bytes live here; a test holds them equal to the core's own
 * `Engine.fault('internal')` (Rust hosts use that directly).
 */
export function internalError(): RespondAction {
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
function latin1Bytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[i] = c > 0xff ? 0x3f : c;
  }
  return out;
}

function latin1Text(bytes: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i += 4096) {
    s += String.fromCharCode.apply(null, bytes.subarray(i, Math.min(end, i + 4096)) as unknown as number[]);
  }
  return s;
}

/**
 * Copies reply bytes out of the core's memory. The default gives each its own buffer; the Node host,
 * which only writes them to a socket, passes a pooled copy (a small `ArrayBuffer` of its own costs
 * more than the reply).
 */
export type CopyOut = (view: Uint8Array) => Uint8Array;
const ownCopy: CopyOut = (view) => view.slice();

/** A reply head as decoded: frozen, since decoded heads are shared (see `headOf`). */
interface ReplyHead {
  readonly status: number;
  readonly headers: readonly HeaderPair[];
  readonly close: boolean;
}

/**
 * Reads the reply record (docs/contracts.md#records) at `memory[start, end)` exactly as `record.rs` writes it;
 * `undefined` when it is not one. `memory` may be the core's: only the body is copied out (by
 * `copy`), and nothing keeps the view.
 */
function decodeReply(memory: Uint8Array, start: number, end: number, copy: CopyOut): RespondAction | undefined {
  let head = repeatedHead(memory, start, end);
  let blank: number;
  if (head !== undefined) blank = start + lastHeadBytes.length;
  else {
    // The blank line ending the head, noting on the way whether the head is ASCII.
    blank = -1;
    let ascii = true;
    for (let i = start; i + 3 < end; i++) {
      const b = memory[i]!;
      if (b === 13 && memory[i + 1] === 10 && memory[i + 2] === 13 && memory[i + 3] === 10) {
        blank = i;
        break;
      }
      if (b > 0x7f) ascii = false;
    }
    if (blank < 0) return undefined;
    head = headOf(memory, start, blank, ascii);
    if (head === undefined) return undefined;
  }
  return { kind: 'respond', status: head.status, headers: head.headers, body: copy(memory.subarray(blank + 4, end)), close: head.close };
}

function utf8Text(m: Uint8Array, start: number, end: number): string {
  return decoder.decode(m.subarray(start, end));
}

/** Bytes of the event record's fixed part: thirteen `u32` words (`record::event`). */
const EVENT_FIXED = 52;
const NULL_LENGTH = 0xffffffff;

function u32At(m: Uint8Array, at: number): number {
  return (m[at]! | (m[at + 1]! << 8) | (m[at + 2]! << 16) | (m[at + 3]! << 24)) >>> 0;
}

/** The last text read into each of the event's eight string slots, with its bytes. */
const lastEventTexts = Array.from({ length: 8 }, () => ({ bytes: new Uint8Array(0), text: '' }));
/** Scratch for one decode: method, name, refusal, protocolVersion, sub, traceparent, tracestate, requestId. */
const eventTexts: (string | null)[] = [null, null, null, null, null, null, null, null];

/**
 * UTF-8 text of one string slot. Method, name and protocol version repeat from request to request:
 * comparing a few bytes with the slot's last text costs less than building the string again.
 */
function eventText(slot: number, m: Uint8Array, start: number, end: number): string {
  const last = lastEventTexts[slot]!;
  const len = end - start;
  if (last.bytes.length === len) {
    let i = 0;
    while (i < len && last.bytes[i] === m[start + i]) i++;
    if (i === len) return last.text;
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
function decodeEvent(m: Uint8Array, start: number, end: number): CoreEvent | undefined {
  if (end - start < EVENT_FIXED) return undefined;
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
    if (at > end) return undefined;
    texts[i] = eventText(i, m, from, at);
  }
  if (at !== end) return undefined;
  const flags = u32At(m, start + 8);
  return {
    method: texts[0] as string | null,
    requestId: texts[7] as string | null,
    name: texts[1] as string | null,
    status: u32At(m, start),
    code: (flags & 1) !== 0 ? u32At(m, start + 4) | 0 : null,
    isError: (flags & 2) !== 0 ? (flags & 4) !== 0 : null,
    refusal: texts[2] as string | null,
    bytesIn: u32At(m, start + 12),
    bytesOut: u32At(m, start + 16),
    protocolVersion: texts[3] as string | null,
    sub: texts[4] as string | null,
    traceparent: texts[5] as string | null,
    tracestate: texts[6] as string | null,
  };
}

/**
 * The last head decoded, its bytes and what they say: replies repeat their heads (a 200 with the
 * same two headers, most of the time), and comparing bytes costs less than finding the blank line
 * and decoding text.
 */
let lastHeadBytes = new Uint8Array(0);
let lastHead: ReplyHead | undefined;

/**
 * The last head, when the record at `start` begins with its bytes and the blank line: the first
 * blank line of the record is then where it was in the last one (the bytes before it are the same
 * and held none).
 */
function repeatedHead(memory: Uint8Array, start: number, end: number): ReplyHead | undefined {
  const known = lastHeadBytes;
  const blank = start + known.length;
  if (lastHead === undefined || blank + 4 > end) return undefined;
  if (memory[blank] !== 13 || memory[blank + 1] !== 10 || memory[blank + 2] !== 13 || memory[blank + 3] !== 10) return undefined;
  for (let i = 0; i < known.length; i++) if (memory[start + i] !== known[i]) return undefined;
  return lastHead;
}

/** Decodes the head at `memory[start, blank)`: status line, then `name: value` lines; remembers it. */
function headOf(memory: Uint8Array, start: number, blank: number, ascii: boolean): ReplyHead | undefined {
  // ASCII reads the same through the UTF-8 decoder as through Latin-1, only faster.
  const lines = (ascii ? decoder.decode(memory.subarray(start, blank)) : latin1Text(memory, start, blank)).split('\r\n');
  const status = Number(lines[0]);
  if (!Number.isInteger(status) || status < 100 || status > 599) return undefined;
  const headers: HeaderPair[] = [];
  let close = false;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(': ');
    if (colon <= 0) return undefined;
    const name = line.slice(0, colon);
    const value = line.slice(colon + 2);
    if (name === 'connection') close = value === 'close';
    else headers.push(Object.freeze([name, value] as const));
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
const rateMemo: ({ bytes: Uint8Array; action: PerformAction } | undefined)[] = [undefined, undefined];
let rateMemoLast = 0;

/** The perform action of the effect at `memory[start, end)`; `undefined` when it is no effect. */
function performOf(memory: Uint8Array, start: number, end: number): PerformAction | undefined {
  const len = end - start;
  for (let n = 1; n <= 2; n++) {
    const slot = (rateMemoLast + n) % 2;
    const m = rateMemo[slot];
    if (m === undefined || m.bytes.length !== len) continue;
    let i = len - 1;
    while (i >= 0 && m.bytes[i] === memory[start + i]) i--;
    if (i < 0) {
      rateMemoLast = slot;
      return m.action;
    }
  }
  const effect = decodeEffect(memory.subarray(start, end));
  if (effect === undefined) return undefined;
  if (effect.kind !== 'rate') return { kind: 'perform', effect };
  // Frozen: every later request of the caller gets this very action.
  const action: PerformAction = Object.freeze({ kind: 'perform', effect: Object.freeze(effect) });
  rateMemoLast = (rateMemoLast + 1) % 2;
  rateMemo[rateMemoLast] = { bytes: memory.slice(start, end), action };
  return action;
}

/** Reads effect JSON (docs/contracts.md#records) as `record.rs` writes it; `undefined` when it is not one. */
function decodeEffect(json: Uint8Array): Effect | undefined {
  let e: Record<string, unknown>;
  try {
    e = JSON.parse(decoder.decode(json)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof e !== 'object' || e === null) return undefined;
  if (e.kind === 'rate') {
    const named = typeof e.rateCounter === 'string' && typeof e.penaltyBox === 'string' && typeof e.entry === 'string';
    const op = (e.op === 'count' && typeof e.windowS === 'number' && typeof e.charge === 'boolean') || (e.op === 'penalize' && typeof e.ttlS === 'number');
    return named && op ? (e as unknown as RateEffect) : undefined;
  }
  if (typeof e.timeoutMs !== 'number') return undefined;
  if (e.kind === 'handler' && typeof e.op === 'string') return e as unknown as HandlerEffect;
  const ok =
    e.kind === 'http' && typeof e.backend === 'string' && HTTP_METHODS.has(e.method) && typeof e.url === 'string' &&
    Array.isArray(e.headers) && typeof e.maxBytes === 'number' && (e.body === undefined || typeof e.body === 'string') &&
    (e.cacheKey === undefined || typeof e.cacheKey === 'string');
  return ok ? (e as unknown as HttpEffect) : undefined;
}

export class Engine {
  private core: CoreExports;
  private handle: number;
  private poisoned = false;
  /** Bumped on every rebuild, so requests of a discarded instance never touch the new one. */
  private generation = 0;

  private constructor(
    private readonly configJson: string,
    private readonly source: McpCoreSource | undefined,
    /** @internal How reply bodies leave the core's memory. */
    readonly copyOut: CopyOut,
  ) {
    this.core = instantiateCore(source);
    this.handle = Engine.newEngine(this.core, configJson);
  }

  /** Instantiates the core and builds its engine; throws `PulseConfigError` with the core's message. */
  static create(configJson: string, source?: McpCoreSource, copyOut: CopyOut = ownCopy): Engine {
    return new Engine(configJson, source, copyOut);
  }

  private static newEngine(core: CoreExports, configJson: string): number {
    const bytes = encoder.encode(configJson);
    const handle = withInput(core, bytes, (ptr, len) => core.pulse_engine_new(ptr, len)) >>> 0;
    if (handle !== 0) return handle;
    const ptr = core.pulse_engine_error_ptr() >>> 0;
    const len = core.pulse_engine_error_len() >>> 0;
    // The core's message names the option and never the value; bound it anyway.
    const message = decoder.decode(new Uint8Array(core.memory.buffer, ptr, Math.min(len, 1024)));
    throw new PulseConfigError(message.length > 0 ? message : 'configuration rejected by the core');
  }

  /** Marks instance `generation` unusable after a trap; the next request rebuilds it. */
  poison(generation: number): void {
    if (generation === this.generation) this.poisoned = true;
  }

  /**
   * Starts one request at monotonic `now`; `epochMs` (wall clock, ms since the Unix epoch) dates the
   * expiry of multi-round `requestState`.
   */
  request(now: number, epochMs: number = Date.now()): CoreRequest {
    if (this.poisoned) {
      try {
        this.core = instantiateCore(this.source);
        this.handle = Engine.newEngine(this.core, this.configJson);
      } catch {
        throw new PulseCoreError('core: the instance could not be rebuilt');
      }
      this.poisoned = false;
      this.generation++;
    }
    let req: number;
    try {
      req = this.core.pulse_request_new(this.handle, now, epochMs) >>> 0;
    } catch {
      this.poison(this.generation);
      throw new PulseCoreError('core: request could not start');
    }
    if (req === 0) throw new PulseCoreError('core: request could not start');
    return new CoreRequest(this, this.core, req, this.generation);
  }

  /**
   * The reply to an HTTP fault the host's own parser detected (the core never saw the request):
   * an interrupted body (408), malformed framing (400) or an oversized head (431). The core chooses
   * the bytes, so every host answers alike; a trap yields the host's own 500.
   */
  fault(kind: HostFault | 'internal'): RespondAction {
    if (this.poisoned) return internalError();
    try {
      const ok = this.core.pulse_engine_fault(this.handle, FAULT_CODES[kind]) >>> 0;
      const ptr = this.core.pulse_check_output_ptr() >>> 0;
      const len = this.core.pulse_check_output_len() >>> 0;
      const memory = memoryOf(this.core);
      if (ok !== 1 || ptr + len > memory.length) return internalError();
      return decodeReply(memory, ptr, ptr + len, this.copyOut) ?? internalError();
    } catch {
      this.poison(this.generation);
      return internalError();
    }
  }

  /** The request event of `fault`'s reply (native/core/src/event.rs); `undefined` when the core has none. */
  faultEvent(kind: HostFault): CoreEvent | undefined {
    if (this.poisoned) return undefined;
    try {
      if (this.core.pulse_engine_fault_event(this.handle, FAULT_CODES[kind]) >>> 0 !== 1) return undefined;
      const ptr = this.core.pulse_check_output_ptr() >>> 0;
      const len = this.core.pulse_check_output_len() >>> 0;
      const memory = memoryOf(this.core);
      return ptr + len > memory.length ? undefined : decodeEvent(memory, ptr, ptr + len);
    } catch {
      this.poison(this.generation);
      return undefined;
    }
  }

  /**
   * The Fastly resources this engine's configuration names (`pulse_engine_service_names`): backends,
   * secret stores and log endpoints, each with the option that names it. The Native build checks them
   * against the project's fastly.toml. Throws `PulseCoreError` (fixed message) on a trap.
   */
  serviceNames(): ServiceNames {
    if (this.poisoned) throw new PulseCoreError('core: service names are unavailable');
    try {
      if (this.core.pulse_engine_service_names(this.handle) >>> 0 !== 1) throw new PulseCoreError('core: service names are unavailable');
      const ptr = this.core.pulse_check_output_ptr() >>> 0;
      const len = this.core.pulse_check_output_len() >>> 0;
      return JSON.parse(decoder.decode(memoryOf(this.core).subarray(ptr, ptr + len))) as ServiceNames;
    } catch (e) {
      if (e instanceof PulseCoreError) throw e;
      this.poison(this.generation);
      throw new PulseCoreError('core: service names are unavailable');
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
  check(op: string, direction: 'input' | 'output', value: unknown): { ok: true; value: unknown } | { ok: false; path: string; message: string } {
    if (this.poisoned) throw new PulseCoreError('core: check is unavailable');
    const core = this.core;
    let json: string;
    try {
      json = value === undefined ? '' : JSON.stringify(value);
    } catch {
      throw new PulseCoreError('core: check needs plain JSON');
    }
    const opBytes = encoder.encode(op);
    const jsonBytes = encoder.encode(json);
    let status: number;
    let out: Uint8Array;
    try {
      status = withInput(core, opBytes, (opPtr, opLen) =>
        withInput(core, jsonBytes, (ptr, len) => core.pulse_engine_check(this.handle, opPtr, opLen, direction === 'input' ? 0 : 1, ptr, len)),
      ) >>> 0;
      const ptr = core.pulse_check_output_ptr() >>> 0;
      const len = core.pulse_check_output_len() >>> 0;
      out = new Uint8Array(core.memory.buffer, ptr, len).slice();
    } catch {
      this.poison(this.generation);
      throw new PulseCoreError('core: check failed');
    }
    let parsed: unknown;
    try {
      parsed = out.length === 0 ? undefined : JSON.parse(decoder.decode(out));
    } catch {
      throw new PulseCoreError('core: check failed');
    }
    if (status === 0) return { ok: true, value: parsed };
    const r = parsed as { path?: unknown; message?: unknown } | undefined;
    if (status === 1 && typeof r?.path === 'string' && typeof r.message === 'string') return { ok: false, path: r.path, message: r.message };
    throw new PulseCoreError('core: check failed');
  }

  /** @internal Whether instance `generation` may still be called. */
  usable(generation: number): boolean {
    return !this.poisoned && generation === this.generation;
  }
}

/** A Fastly resource a configuration names, and the option that names it. */
export interface ServiceName {
  readonly name: string;
  readonly option: string;
}

/** What `Engine.serviceNames()` returns (native/core/src/service_names.rs). */
export interface ServiceNames {
  readonly backends: readonly ServiceName[];
  readonly secretStores: readonly (ServiceName & { readonly key: string })[];
  readonly logEndpoints: readonly ServiceName[];
}

export type CorpusIndexResult = { ok: true; index: unknown } | { ok: false; message: string };

/**
 * Builds corpus indexes in the core (`pulse_corpus_index`), so entries are indexed by the tokenizer
 * that reads queries. One instance of `source`, made on first use, serves every definition given to
 * the returned function; a definition is its JSON text, and a rejection carries the core's message.
 * A trap throws `PulseCoreError`.
 */
export function corpusIndexer(source?: McpCoreSource): (definitionJson: string) => CorpusIndexResult {
  let core: CoreExports | undefined;
  return (definitionJson) => {
    core ??= instantiateCore(source);
    const c = core;
    let status: number;
    let out: Uint8Array;
    try {
      status = withInput(c, encoder.encode(definitionJson), (ptr, len) => c.pulse_corpus_index(ptr, len)) >>> 0;
      const ptr = c.pulse_check_output_ptr() >>> 0;
      const len = c.pulse_check_output_len() >>> 0;
      out = memoryOf(c).slice(ptr, ptr + len);
    } catch {
      core = undefined;
      throw new PulseCoreError('core: the corpus index could not be built');
    }
    if (status !== 1) return { ok: false, message: decoder.decode(out.subarray(0, 1024)) };
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
let memoryView: Uint8Array = new Uint8Array(0);
let memoryCore: CoreExports | undefined;
let memoryDetaches = false;
function memoryOf(core: CoreExports): Uint8Array {
  if (memoryCore !== core) {
    const wasm = (globalThis as { WebAssembly?: { Memory: abstract new (...args: never[]) => unknown } }).WebAssembly;
    memoryCore = core;
    memoryDetaches = wasm !== undefined && core.memory instanceof wasm.Memory;
    memoryView = new Uint8Array(core.memory.buffer);
  } else if (memoryDetaches ? memoryView.length === 0 : memoryView.buffer !== core.memory.buffer) {
    memoryView = new Uint8Array(core.memory.buffer);
  }
  return memoryView;
}

/** The request steps of the C ABI (docs/contracts.md#the-c-abi). */
type Step = 'head' | 'body' | 'end' | 'abort' | 'tick' | 'httpResponse' | 'httpFailure' | 'cached' | 'handlerOutput' | 'handlerFailure' | 'rate';

/** Text up to this many UTF-16 units is encoded straight into the core's memory (at most 3 bytes each). */
const DIRECT_TEXT_MAX = 8192;

/** `len` bytes of the core's memory for one call; the caller deallocates `(ptr, len)` after it. */
function allocate(core: CoreExports, len: number): number {
  const ptr = core.pulse_alloc(len) >>> 0;
  if (ptr === 0 && len > 0) throw new PulseCoreError('core: out of memory');
  return ptr;
}

/** Copies `bytes` into the core's memory; the caller deallocates `(ptr, bytes.length)` after its call. */
function place(core: CoreExports, bytes: Uint8Array): number {
  const ptr = allocate(core, bytes.length);
  memoryOf(core).set(bytes, ptr);
  return ptr;
}

/**
 * Writes head text into the core's memory, one byte per character. Heads are ASCII in practice and
 * are encoded straight in; the encoder reading or writing anything but one byte per character means
 * the text was not, and it is written again as Latin-1 (same length).
 */
function placeText(core: CoreExports, text: string): number {
  const len = text.length;
  const ptr = allocate(core, len);
  const memory = memoryOf(core);
  const { read, written } = encoder.encodeInto(text, memory.subarray(ptr, ptr + len));
  if (read !== len || written !== len) memory.set(latin1Bytes(text), ptr);
  return ptr;
}

/** Runs `call` with `bytes` in the core's memory (construction and checks: not per request). */
function withInput(core: CoreExports, bytes: Uint8Array, call: (ptr: number, len: number) => number): number {
  const ptr = place(core, bytes);
  const result = call(ptr, bytes.length);
  core.pulse_dealloc(ptr, bytes.length);
  return result;
}

/** One request's state inside the core. Always `free()` it (try/finally). */
export class CoreRequest {
  private freed = false;

  /** @internal */
  constructor(
    private readonly engine: Engine,
    private readonly core: CoreExports,
    private readonly req: number,
    private readonly generation: number,
  ) {}

  /**
   * `headers` flat, `[name, value, name, value…]`, as Node's `rawHeaders` already is. `client` is the
   * client's address as the host knows it (the rate limits' key per address); the core ignores text
   * that is no IP address.
   */
  head(method: string, target: string, headers: readonly string[], now: number, client?: string): Action {
    let text = typeof client === 'string' && CLIENT_ADDRESS.test(client) ? `${method} ${target} ${client}\r\n` : `${method} ${target}\r\n`;
    for (let i = 0; i + 1 < headers.length; i += 2) text += `${headers[i]}: ${headers[i + 1]}\r\n`;
    return this.step('head', now, 0, text);
  }

  body(chunk: Uint8Array, now: number): Action {
    // An empty chunk carries nothing; the ABI is never handed a zero-length buffer.
    return chunk.length === 0 ? CONTINUE : this.step('body', now, 0, chunk);
  }

  end(now: number): Action {
    return this.step('end', now);
  }

  abort(now: number): Action {
    return this.step('abort', now);
  }

  tick(now: number): Action {
    return this.step('tick', now);
  }

  /** The pending HTTP effect's status and the body bytes read. */
  httpResponse(status: number, body: Uint8Array, now: number): Action {
    return this.step('httpResponse', now, status, body);
  }

  httpFailure(reason: HttpFailure, now: number): Action {
    return this.step('httpFailure', now, HTTP_FAILURES[reason]);
  }

  /** The pending introspection answered from the host's fresh entry under its `cacheKey`. */
  cached(value: string, now: number): Action {
    return this.step('cached', now, 0, value);
  }

  /** The pending rate effect's answer from the host's store. */
  rate(answer: RateAnswer, now: number): Action {
    return this.step('rate', now, RATE_ANSWERS[answer.kind], undefined, answer.kind === 'counted' ? answer.count : 0);
  }

  /** The entry to keep after an introspection the host performed, once; `undefined` when none. */
  cacheEntry(): CacheEntry | undefined {
    if (!this.live()) return undefined;
    try {
      if (this.core.pulse_request_cache_entry(this.req) >>> 0 !== 1) return undefined;
      const text = this.readOutput(utf8Text);
      if (text === undefined) return undefined;
      const e = JSON.parse(text) as CacheEntry;
      return typeof e.key === 'string' && typeof e.ttlMs === 'number' && typeof e.value === 'string' ? e : undefined;
    } catch {
      this.engine.poison(this.generation);
      return undefined;
    }
  }

  /** The pending handler's output as JSON text. */
  handlerOutput(json: string, now: number): Action {
    return this.step('handlerOutput', now, 0, json.length <= DIRECT_TEXT_MAX ? json : encoder.encode(json));
  }

  handlerFailure(now: number): Action {
    return this.step('handlerFailure', now);
  }

  /** A progress report of the pending handler; the core bounds and frames it. */
  progress(progress: number, total: number | undefined, message: string | undefined, now: number): ProgressEvent {
    if (!this.live()) return undefined;
    if (typeof progress !== 'number' || (total !== undefined && typeof total !== 'number')) return undefined;
    const core = this.core;
    try {
      const t = total === undefined ? NaN : total;
      const code =
        (message === undefined
          ? core.pulse_request_progress(this.req, progress, t, 0, 0xffffffff, now)
          : withInput(core, encoder.encode(String(message)), (p, l) => core.pulse_request_progress(this.req, progress, t, p, l, now))) >>> 0;
      if (code === 0) return undefined;
      const ptr = core.pulse_output_ptr(this.req) >>> 0;
      const len = core.pulse_output_len(this.req) >>> 0;
      const memory = memoryOf(core);
      if (ptr + len > memory.length) throw new PulseCoreError('core: output out of bounds');
      if (code === 2) return { kind: 'next', bytes: this.engine.copyOut(memory.subarray(ptr, ptr + len)) };
      const head = decodeReply(memory, ptr, ptr + len, this.engine.copyOut);
      return code === 1 && head !== undefined ? { kind: 'first', head } : undefined;
    } catch {
      this.engine.poison(this.generation);
      return undefined;
    }
  }

  /** Milliseconds the host may wait for its next event; 0 when already expired. */
  timeoutMs(now: number): number {
    if (!this.engine.usable(this.generation)) return 0;
    try {
      const ms = this.core.pulse_request_timeout_ms(this.req, now);
      return Number.isFinite(ms) && ms > 0 ? ms : 0;
    } catch {
      this.engine.poison(this.generation);
      return 0;
    }
  }

  /** The finished request's event (native/core/src/event.rs); `undefined` when the core has none. */
  event(): CoreEvent | undefined {
    if (!this.live()) return undefined;
    try {
      if (this.core.pulse_request_event(this.req) >>> 0 !== 1) return undefined;
      return this.readOutput(decodeEvent);
    } catch {
      this.engine.poison(this.generation);
      return undefined;
    }
  }

  /** Reads the request's output with `read`, `undefined` when it lies outside memory; throws as the core does. */
  private readOutput<T>(read: (memory: Uint8Array, start: number, end: number) => T): T | undefined {
    const ptr = this.core.pulse_output_ptr(this.req) >>> 0;
    const len = this.core.pulse_output_len(this.req) >>> 0;
    const memory = memoryOf(this.core);
    return ptr + len > memory.length ? undefined : read(memory, ptr, ptr + len);
  }

  free(): void {
    if (this.freed) return;
    this.freed = true;
    // A poisoned instance is discarded whole; calling into it again could trap again.
    if (!this.engine.usable(this.generation)) return;
    try {
      this.core.pulse_request_free(this.req);
    } catch {
      this.engine.poison(this.generation);
    }
  }

  /** Whether the core may still be called for this request. */
  private live(): boolean {
    return !this.freed && this.engine.usable(this.generation);
  }

  /** The core trapped: its instance is discarded and the host answers its own 500. */
  private broken(): Action {
    this.engine.poison(this.generation);
    return internalError();
  }

  /**
   * One call into the core for this request, with `input` in its memory for the call's duration
   * (text: a head one byte per character, handler output as UTF-8 straight from the string), then
   * its answer. A trap poisons the instance. One method, no closure: every request makes several.
   */
  private step(kind: Step, now: number, arg = 0, input?: Uint8Array | string, arg2 = 0): Action {
    if (!this.live()) return internalError();
    const core = this.core;
    const req = this.req;
    let code: number;
    try {
      let ptr = 0;
      let len = 0;
      let room = 0;
      if (typeof input === 'string') {
        if (kind === 'head') {
          ptr = placeText(core, input);
          len = room = input.length;
        } else {
          // Room for the worst case: 3 bytes per UTF-16 unit.
          room = input.length * 3;
          ptr = allocate(core, room);
          len = encoder.encodeInto(input, memoryOf(core).subarray(ptr, ptr + room)).written;
        }
      } else if (input !== undefined) {
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
      if (input !== undefined) core.pulse_dealloc(ptr, room);
    } catch {
      return this.broken();
    }
    return this.settle(code);
  }

  /** What the core answered with `code`, read from its output before any other call into it. */
  private settle(code: number): Action {
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
    let memory: Uint8Array;
    let ptr: number;
    let end: number;
    try {
      ptr = this.core.pulse_output_ptr(this.req) >>> 0;
      end = ptr + (this.core.pulse_output_len(this.req) >>> 0);
      memory = memoryOf(this.core);
    } catch {
      return this.broken();
    }
    if (end > memory.length) return this.broken();
    if (code >>> 0 === 1) return decodeReply(memory, ptr, end, this.engine.copyOut) ?? internalError();
    return performOf(memory, ptr, end) ?? internalError();
  }
}
