/**
 * Typed wrapper of the core's C ABI (docs/contracts.md §2–§3): the one place where TypeScript
 * writes head records and reads reply records and effect JSON. Every call re-creates its memory
 * view (linear memory may grow) and reads integers with `>>> 0`. A trap (panic) poisons the
 * instance: that request answers the core's own 500 and the next request gets a fresh instance.
 */
import { PulseConfigError, PulseCoreError } from '../errors';
import type { McpCoreSource } from '../options';
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

export type Effect = HttpEffect | HandlerEffect;

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

const HTTP_METHODS: ReadonlySet<unknown> = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const CONTINUE: ContinueAction = Object.freeze({ kind: 'continue' });
const EMPTY = new Uint8Array(0);
const encoder = new TextEncoder();
const ASCII = /^[\x00-\x7f]*$/;
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

/** Where the head of a reply record ends (its blank line), or -1. */
function headEnd(bytes: Uint8Array): number {
  for (let i = 0; i + 3 < bytes.length; i++) {
    if (bytes[i] === 13 && bytes[i + 1] === 10 && bytes[i + 2] === 13 && bytes[i + 3] === 10) return i;
  }
  return -1;
}

/**
 * Reads a reply record (§3.2) exactly as `record.rs` writes it; `undefined` when it is not one.
 * `record` may be a view of the core's memory: only the body is copied out, and nothing keeps the
 * view. The head is short ASCII, so it becomes one string, split into lines.
 */
function decodeReply(record: Uint8Array): RespondAction | undefined {
  const end = headEnd(record);
  if (end < 0) return undefined;
  const lines = latin1Text(record, 0, end).split('\r\n');
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
    else headers.push([name, value]);
  }
  return { kind: 'respond', status, headers, body: record.slice(end + 4), close };
}

/** Reads effect JSON (§3.3) as `record.rs` writes it; `undefined` when it is not one. */
function decodeEffect(json: Uint8Array): Effect | undefined {
  let e: Record<string, unknown>;
  try {
    e = JSON.parse(decoder.decode(json)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof e !== 'object' || e === null || typeof e.timeoutMs !== 'number') return undefined;
  if (e.kind === 'handler' && typeof e.op === 'string') return e as unknown as HandlerEffect;
  const ok =
    e.kind === 'http' && typeof e.backend === 'string' && HTTP_METHODS.has(e.method) && typeof e.url === 'string' &&
    Array.isArray(e.headers) && typeof e.maxBytes === 'number' && (e.body === undefined || typeof e.body === 'string');
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
  ) {
    this.core = instantiateCore(source);
    this.handle = Engine.newEngine(this.core, configJson);
  }

  /** Instantiates the core and builds its engine; throws `PulseConfigError` with the core's message. */
  static create(configJson: string, source?: McpCoreSource): Engine {
    return new Engine(configJson, source);
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
      const record = new Uint8Array(this.core.memory.buffer, ptr, len).slice();
      return ok === 1 ? (decodeReply(record) ?? internalError()) : internalError();
    } catch {
      this.poison(this.generation);
      return internalError();
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

/** Copies `bytes` into a scratch buffer for the duration of `call`. */
/** As `withInput`, for ASCII text written straight into the core's memory (no copy in JavaScript). */
function withAscii(core: CoreExports, text: string, call: (ptr: number, len: number) => number): number {
  const len = text.length;
  const ptr = core.pulse_alloc(len) >>> 0;
  if (ptr === 0 && len > 0) throw new PulseCoreError('core: out of memory');
  encoder.encodeInto(text, new Uint8Array(core.memory.buffer, ptr, len));
  const result = call(ptr, len);
  core.pulse_dealloc(ptr, len);
  return result;
}

function withInput(core: CoreExports, bytes: Uint8Array, call: (ptr: number, len: number) => number): number {
  const len = bytes.length;
  const ptr = core.pulse_alloc(len) >>> 0;
  if (ptr === 0 && len > 0) throw new PulseCoreError('core: out of memory');
  new Uint8Array(core.memory.buffer, ptr, len).set(bytes);
  const result = call(ptr, len);
  core.pulse_dealloc(ptr, len);
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

  /** `headers` flat, `[name, value, name, value…]`, as Node's `rawHeaders` already is. */
  head(method: string, target: string, headers: readonly string[], now: number): Action {
    let text = `${method} ${target}\r\n`;
    for (let i = 0; i + 1 < headers.length; i += 2) text += `${headers[i]}: ${headers[i + 1]}\r\n`;
    const call = (p: number, l: number) => this.core.pulse_request_head(this.req, p, l, now);
    // Heads are ASCII in practice: encoded straight into the core's memory, one byte per char.
    return this.act(() => (ASCII.test(text) ? withAscii(this.core, text, call) : withInput(this.core, latin1Bytes(text), call)));
  }

  body(chunk: Uint8Array, now: number): Action {
    // An empty chunk carries nothing; the ABI is never handed a zero-length buffer.
    if (chunk.length === 0) return CONTINUE;
    return this.act(() => withInput(this.core, chunk, (p, l) => this.core.pulse_request_body(this.req, p, l, now)));
  }

  end(now: number): Action {
    return this.act(() => this.core.pulse_request_end(this.req, now));
  }

  abort(now: number): Action {
    return this.act(() => this.core.pulse_request_abort(this.req, now));
  }

  tick(now: number): Action {
    return this.act(() => this.core.pulse_request_tick(this.req, now));
  }

  /** The pending HTTP effect's status and the body bytes read. */
  httpResponse(status: number, body: Uint8Array, now: number): Action {
    return this.act(() => withInput(this.core, body, (p, l) => this.core.pulse_request_http_response(this.req, status, p, l, now)));
  }

  httpFailure(reason: HttpFailure, now: number): Action {
    return this.act(() => this.core.pulse_request_http_failure(this.req, HTTP_FAILURES[reason], now));
  }

  /** The pending handler's output as JSON text. */
  handlerOutput(json: string, now: number): Action {
    const bytes = encoder.encode(json);
    return this.act(() => withInput(this.core, bytes, (p, l) => this.core.pulse_request_handler_output(this.req, p, l, now)));
  }

  handlerFailure(now: number): Action {
    return this.act(() => this.core.pulse_request_handler_failure(this.req, now));
  }

  /** A progress report of the pending handler; the core bounds and frames it. */
  progress(progress: number, total: number | undefined, message: string | undefined, now: number): ProgressEvent {
    if (this.freed || !this.engine.usable(this.generation)) return undefined;
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
      const payload = new Uint8Array(core.memory.buffer, ptr, len).slice();
      if (code === 2) return { kind: 'next', bytes: payload };
      const head = decodeReply(payload);
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

  private act(call: () => number): Action {
    if (this.freed || !this.engine.usable(this.generation)) return internalError();
    let code: number;
    let payload: Uint8Array;
    try {
      code = call() >>> 0;
      const ptr = this.core.pulse_output_ptr(this.req) >>> 0;
      const len = this.core.pulse_output_len(this.req) >>> 0;
      // A view of the core's memory, read before any other call into the core: decodeReply copies
      // the body out, decodeEffect decodes the text.
      payload = code === 1 || code === 2 ? new Uint8Array(this.core.memory.buffer, ptr, len) : EMPTY;
    } catch {
      this.engine.poison(this.generation);
      return internalError();
    }
    switch (code) {
      case 0:
        return CONTINUE;
      case 1:
        return decodeReply(payload) ?? internalError();
      case 2: {
        const effect = decodeEffect(payload);
        return effect === undefined ? internalError() : { kind: 'perform', effect };
      }
      default:
        // 3 MISUSE: the host called out of order; it answers 500 on its own.
        return internalError();
    }
  }
}
