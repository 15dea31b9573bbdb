/**
 * The TypeScript mirror of the core's Rust driver (`native/core/src/driver.rs`): the same loop over
 * one request, every wait bounded by the core's `timeoutMs()`, effects performed and answered
 * with typed calls, and the same guard against a core that keeps answering `continue` with no time
 * left. Adapters only translate their runtime's request, body and response objects.
 */
import type { McpHandlerContext, McpHandlerOutcome, McpHandlerRunner, ResolvedOptions } from '../options';
import { Cancellation, CANCELLATION } from './cancellation';
import { isThenable } from './thenable';
import { MAX_ZERO_WAITS } from './generated/defaults';
import { publishRequest, requestChannel } from '../telemetry/channel';
import { IntrospectionStore } from './introspection-store';
import { RateStore } from './rate-store';
import { Engine, internalError, type Action, type CacheEntry, type CopyOut, type HandlerEffect, type HttpEffect, type RateAnswer, type RateEffect, type RespondAction } from './engine';

export type ReadResult =
  | { readonly done: false; readonly chunk: Uint8Array }
  | { readonly done: true }
  | { readonly error: true; readonly done?: undefined };

/** A request body as the driver pulls it: at most one `read()` outstanding. */
export interface BodySource {
  read(): Promise<ReadResult>;
  /**
   * What `read()` would give at once, without waiting (a chunk or the end the runtime already
   * holds), or `undefined`. Lets the driver skip arming a timer for a wait that cannot happen.
   */
  poll?(): ReadResult | undefined;
  /** Release the source without waiting for it (an uncooperative source may never settle). */
  cancel(): void;
}

export interface RequestHead {
  readonly method: string;
  readonly target: string;
  /** Flat `[name, value, name, value…]`, the form of Node's `rawHeaders`. */
  readonly headers: readonly string[];
  /** The client's address (the TCP peer, or what a trusted proxy vouches for), when the host knows it. */
  readonly client?: string | undefined;
}

export interface Outcome {
  /** When `streamed`, its body is the stream's last event: write the body only, then end. */
  readonly response: RespondAction;
  /** A progress event was sent through the host's `StreamSink`: the head is already written. */
  readonly streamed: boolean;
  /** The body was read to its end; otherwise the host must not reuse the connection. */
  readonly bodyComplete: boolean;
  /** The client went away; nothing should be sent. */
  readonly gone: boolean;
}

/**
 * Where a host writes an event-stream reply as it happens (progress of a JavaScript handler). The
 * first event comes with the reply head; later events are raw bytes. Hosts that cannot stream pass
 * none, and their handlers get no `progress` function.
 */
export interface StreamSink {
  start(head: RespondAction): void;
  write(bytes: Uint8Array): void;
}

/** Resolves once when the client goes away. */
export interface Departure {
  readonly promise: Promise<void>;
  readonly gone: boolean;
}

const perf = (globalThis as { performance?: { now(): number } }).performance;
/** Monotonic milliseconds; the core never reads a clock. */
export type Clock = () => number;
const runtimeNow: Clock = perf !== undefined ? () => perf.now() : () => Date.now();

const TIMEOUT = Symbol('timeout');
const GONE = Symbol('gone');
/** setTimeout's ceiling; longer waits simply re-arm. */
const MAX_TIMER_MS = 0x7fffffff;

/** Waits for `work`, at most `ms`, and stops early when `departure` settles. Clears its timer. */
async function race<T>(work: Promise<T>, ms: number, departure: Departure | undefined): Promise<T | typeof TIMEOUT | typeof GONE> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expiry = new Promise<typeof TIMEOUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMEOUT), Math.min(Math.max(0, Math.ceil(ms)), MAX_TIMER_MS));
  });
  const contenders: Promise<T | typeof TIMEOUT | typeof GONE>[] = [work, expiry];
  if (departure !== undefined) contenders.push(departure.promise.then(() => GONE));
  try {
    return await Promise.race(contenders);
  } finally {
    clearTimeout(timer);
  }
}

/** What one handler (of either host) is built from: its engine and its JavaScript handler runner. */
export interface HostCore {
  readonly engine: Engine;
  /** The admitted request body size (`limits.requestBytes`). */
  readonly requestBytes: number;
  readonly handlers: McpHandlerRunner | undefined;
  /** How this host performs an HTTP effect's exchange. */
  readonly exchange: HttpExchange;
  /** The host's monotonic clock; the runtime's when absent. */
  readonly now?: Clock;
  /** The introspection cache's store, with `authorization.cache` only. */
  readonly cache?: IntrospectionCache;
  /** The rate limits' store, with `rateLimit` only. */
  readonly rates?: RateCounter;
}

/** Where a host counts for the rate limits: the core decides entries, budgets and replies. */
export interface RateCounter {
  /** Performs `effect` at `now` (the host clock's milliseconds). */
  perform(effect: RateEffect, now: number): RateAnswer;
}

/** Where a host keeps introspection results: the core decides keys, values and ttls. */
export interface IntrospectionCache {
  /** The fresh value under `key`, or `undefined`. */
  get(key: string): string | undefined;
  set(entry: CacheEntry): void;
}

export type HttpResult = { status: number; body: Uint8Array } | 'unreachable';

/**
 * One HTTP effect's exchange: exactly the effect's method, URL, headers and body (the runtime adds
 * only framing), no redirect followed, the body read until its end or until more than `maxBytes`
 * arrived; `'unreachable'` for any failure. `cancellation` abandons it. The driver bounds the wait.
 */
export type HttpExchange = (effect: HttpEffect, cancellation: Cancellation) => Promise<HttpResult>;

/** How a host performs effects and takes reply bytes out of the core; each has a portable default. */
export interface HostIo {
  readonly exchange?: HttpExchange;
  readonly copyOut?: CopyOut;
  /** A clock other than the runtime's monotonic one (a scripted host's). */
  readonly now?: Clock;
}

/** Instantiates the core for options already snapshotted; throws `PulseConfigError`. */
export function createHostCore(resolved: ResolvedOptions, io: HostIo = {}): HostCore {
  const engine = Engine.create(resolved.configJson, resolved.core, io.copyOut);
  const now = io.now ?? runtimeNow;
  const bounds = resolved.introspectionCache;
  const cache = bounds === undefined ? {} : { cache: new IntrospectionStore(bounds.maxEntries, bounds.maxBytes, now) };
  const limits = resolved.rateLimitStore;
  const rates = limits === undefined ? {} : { rates: new RateStore(limits.maxEntries, limits.maxBytes) };
  return Object.freeze({ engine, requestBytes: resolved.requestBytes, handlers: resolved.handlers, exchange: io.exchange ?? fetchExchange, now, ...cache, ...rates });
}

/**
 * Runs one request through the core to its response. Never throws for request-caused conditions;
 * the core decides every status.
 */
export async function drive(
  host: HostCore,
  head: RequestHead,
  body: BodySource | null,
  departure: Departure | undefined,
  sink?: StreamSink,
): Promise<Outcome> {
  const now = host.now ?? runtimeNow;
  // The request event is measured and built only while someone listens.
  const channel = requestChannel?.hasSubscribers === true ? requestChannel : undefined;
  const started = channel === undefined ? 0 : now();
  let bodyMs = 0;
  let effectsMs = 0;
  const req = host.engine.request(now());
  const stream = { started: false };
  let bodyDone = body === null;
  let endSent = false;
  let pending: Promise<ReadResult> | undefined;
  let zeroWaits = 0;
  let yielded = false;
  try {
    let action: Action = req.head(head.method, head.target, head.headers, now(), head.client);
    // Each iteration consumes one event; the core's deadline bounds how many can occur.
    for (;;) {
      if (action.kind === 'respond') {
        if (!bodyDone) body?.cancel();
        if (channel !== undefined) publishRequest(channel, req.event(), { bodyMs, effectsMs, totalMs: now() - started });
        return { response: action, streamed: stream.started, bodyComplete: bodyDone, gone: departure?.gone === true };
      }
      if (action.kind === 'perform') {
        if (action.effect.kind === 'rate') {
          // Counted in memory, at once (the core judges the deadline when it takes the answer); a
          // handler built without a store would lift every limit: it fails the request instead.
          const at = now();
          action = host.rates === undefined ? internalError() : req.rate(host.rates.perform(action.effect, at), at);
          if (channel !== undefined) effectsMs += now() - at;
          continue;
        }
        const left = req.timeoutMs(now());
        // Never start an effect once the request's deadline has passed: the core answers it.
        if (left === 0) {
          action = unfinished(req, now, 'deadline');
          continue;
        }
        const effectStarted = channel === undefined ? 0 : now();
        const next =
          action.effect.kind === 'http'
            ? performHttp(req, now, action.effect, departure, host.exchange, host.cache)
            : performHandler(req, now, left, action.effect, departure, host.handlers, progressOf(req, now, action.effect, sink, stream));
        // A handler that returned a value answers at once: no promise to wait for.
        action = next instanceof Promise ? await next : next;
        if (channel !== undefined) effectsMs += now() - effectStarted;
        continue;
      }
      if (departure?.gone === true) {
        action = finalOf(req.abort(now()));
        continue;
      }
      if (bodyDone) {
        // CONTINUE after the body ended breaks the contract.
        if (endSent) action = internalError();
        else {
          endSent = true;
          action = req.end(now());
        }
        continue;
      }
      // What the runtime already holds needs no wait, so no timer: the common case of a body that
      // arrived with its head. One yield first lets the runtime hand over what it has.
      let event: ReadResult | typeof TIMEOUT | typeof GONE | undefined = pending === undefined ? (body as BodySource).poll?.() : undefined;
      if (event === undefined && pending === undefined && !yielded && (body as BodySource).poll !== undefined) {
        yielded = true;
        await undefined;
        continue;
      }
      let wait = 0;
      if (event === undefined) {
        pending ??= (body as BodySource).read();
        wait = req.timeoutMs(now());
        const waitStarted = channel === undefined ? 0 : now();
        event = wait > 0 ? await race(pending, wait, departure) : TIMEOUT;
        if (channel !== undefined) bodyMs += now() - waitStarted;
      }
      if (event === TIMEOUT) {
        action = req.tick(now());
        // A core that keeps saying "expired" without answering would make this loop spin.
        zeroWaits = wait > 0 ? 0 : zeroWaits + 1;
        if (action.kind === 'continue' && zeroWaits > MAX_ZERO_WAITS) action = internalError();
        continue;
      }
      if (event === GONE) {
        action = finalOf(req.abort(now()));
        continue;
      }
      pending = undefined;
      if (event.done === true) {
        bodyDone = true;
      } else if (event.done === false) {
        action = req.body(event.chunk, now());
      } else {
        bodyDone = true; // a failed source has nothing more to give or cancel
        action = finalOf(req.abort(now()));
      }
    }
  } finally {
    req.free();
  }
}

/** After abort the core must answer; anything else is a contract break. */
function finalOf(action: Action): Action {
  return action.kind === 'respond' ? action : internalError();
}

type CoreReq = ReturnType<Engine['request']>;

/**
 * Waits for one effect's work, bounded by its own budget and by the request's deadline; timers may
 * fire early, so each wait re-checks both clocks. A wait that ends without the work (`'deadline'`:
 * the caller ticks and the core answers 408; `'timedOut'`; `'gone'`: the caller aborts) cancels it,
 * and its late result is dropped.
 */
async function awaitEffect<T>(req: CoreReq, now: Clock, work: Promise<T>, budgetMs: number, departure: Departure | undefined, cancellation: Cancellation): Promise<{ done: T } | 'timedOut' | 'deadline' | 'gone'> {
  const started = now();
  let ended: 'timedOut' | 'deadline' | 'gone';
  for (;;) {
    const at = now();
    const coreLeft = req.timeoutMs(at);
    const ownLeft = budgetMs - (at - started);
    if (coreLeft === 0) ended = 'deadline';
    else if (ownLeft <= 0) ended = 'timedOut';
    else {
      const event = await race(work, Math.min(coreLeft, ownLeft), departure);
      if (event === TIMEOUT) continue;
      if (event !== GONE) return { done: event };
      ended = 'gone';
    }
    cancellation.cancel();
    work.catch(() => undefined);
    return ended;
  }
}

/** What an ended wait means when it produced nothing: the core decides the reply. */
function unfinished(req: CoreReq, now: Clock, how: 'deadline' | 'gone'): Action {
  const at = now();
  return how === 'gone' ? finalOf(req.abort(at)) : finalOf(req.tick(at));
}

/**
 * One HTTP effect: exactly the effect's request, no redirects, no retry, bounded body read. An
 * effect with a `cacheKey` is answered from the store's fresh entry when there is one; after a
 * performed one the store keeps what the core says.
 */
function performHttp(req: CoreReq, now: Clock, effect: HttpEffect, departure: Departure | undefined, exchange: HttpExchange, cache: IntrospectionCache | undefined): Action | Promise<Action> {
  if (effect.cacheKey === undefined || cache === undefined) return exchangeHttp(req, now, effect, departure, exchange);
  const kept = cache.get(effect.cacheKey);
  if (kept !== undefined) return req.cached(kept, now());
  return exchangeHttp(req, now, effect, departure, exchange).then((action) => {
    const entry = req.cacheEntry();
    if (entry !== undefined) cache.set(entry);
    return action;
  });
}

async function exchangeHttp(req: CoreReq, now: Clock, effect: HttpEffect, departure: Departure | undefined, exchange: HttpExchange): Promise<Action> {
  const cancellation = new Cancellation();
  const work = exchange(effect, cancellation);
  const outcome = await awaitEffect(req, now, work, effect.timeoutMs, departure, cancellation);
  if (outcome === 'deadline' || outcome === 'gone') return unfinished(req, now, outcome);
  if (outcome === 'timedOut') return req.httpFailure('timedOut', now());
  const r = outcome.done;
  return r === 'unreachable' ? req.httpFailure('unreachable', now()) : req.httpResponse(r.status, r.body, now());
}

/** The exchange through the runtime's `fetch` (the Fetch host's; `redirect: 'manual'`). */
export async function fetchExchange(effect: HttpEffect, cancellation: Cancellation): Promise<HttpResult> {
  const signal = cancellation.signal;
  const fetchFn = (globalThis as { fetch?: typeof fetch }).fetch;
  if (fetchFn === undefined) return 'unreachable';
  let response: Response;
  try {
    const init: RequestInit = { method: effect.method, headers: effect.headers as [string, string][], redirect: 'manual' };
    if (effect.body !== undefined) init.body = effect.body;
    if (signal !== undefined) init.signal = signal;
    response = await fetchFn(effect.url, init);
  } catch {
    return 'unreachable';
  }
  const body = await readAtMost(response, effect.maxBytes);
  return body === undefined ? 'unreachable' : { status: response.status, body };
}

/** Reads the body until its end or until more than `maxBytes` arrived; `undefined` if it fails. */
async function readAtMost(response: Response, maxBytes: number): Promise<Uint8Array | undefined> {
  if (response.body === null) return new Uint8Array(0);
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  try {
    while (total <= maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      parts.push(value);
    }
  } catch {
    return undefined;
  }
  if (total > maxBytes) reader.cancel().catch(() => undefined);
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** The handler's `progress` function: reports go to the core, its events to the host's sink. */
function progressOf(req: CoreReq, now: Clock, effect: HandlerEffect, sink: StreamSink | undefined, stream: { started: boolean }): McpHandlerContext['progress'] {
  if (effect.progress !== true || sink === undefined) return undefined;
  return (progress, total, message) => {
    const event = req.progress(progress, total, message, now());
    if (event === undefined) return;
    try {
      if (event.kind === 'first') {
        stream.started = true;
        sink.start(event.head);
      } else sink.write(event.bytes);
    } catch {
      // A client gone mid-stream is seen by the departure; a report never fails the handler.
    }
  };
}

/**
 * One handler effect: the runner's output goes back as JSON text; any failure is a handler failure.
 * Answered at once when the handler returned a value; a promise only when it has to be waited for.
 * `left` is what remains of the request's deadline (more than 0).
 */
function performHandler(
  req: CoreReq,
  now: Clock,
  left: number,
  effect: HandlerEffect,
  departure: Departure | undefined,
  runner: McpHandlerRunner | undefined,
  progress: McpHandlerContext['progress'],
): Action | Promise<Action> {
  if (runner === undefined) return req.handlerFailure(now());
  const cancellation = new Cancellation();
  const work = runHandler(effect, runner, Math.min(effect.timeoutMs, left), cancellation, progress);
  if (typeof work === 'object') return awaitHandler(req, now, work, effect.timeoutMs, departure, cancellation);
  return work === undefined ? req.handlerFailure(now()) : req.handlerOutput(work, now());
}

/** Waits for a handler's promised output within its budget and the request's deadline. */
async function awaitHandler(req: CoreReq, now: Clock, work: Promise<string | undefined>, budgetMs: number, departure: Departure | undefined, cancellation: Cancellation): Promise<Action> {
  const outcome = await awaitEffect(req, now, work, budgetMs, departure, cancellation);
  if (outcome === 'deadline' || outcome === 'gone') return unfinished(req, now, outcome);
  if (outcome === 'timedOut' || outcome.done === undefined) return req.handlerFailure(now());
  return req.handlerOutput(outcome.done, now());
}

/**
 * What a handler runner is given. A class rather than an object literal: a literal with an accessor
 * takes V8's slow path on every call. The signal is made only if read: a handler that never looks
 * at it costs no AbortController.
 */
class RunContext implements McpHandlerContext {
  readonly timeoutMs: number;
  readonly [CANCELLATION]: Cancellation;
  declare readonly inputResponses?: Readonly<Record<string, unknown>>;
  declare readonly progress?: McpHandlerContext['progress'];

  constructor(timeoutMs: number, cancellation: Cancellation, inputResponses: HandlerEffect['inputResponses'], progress: McpHandlerContext['progress']) {
    this.timeoutMs = timeoutMs;
    this[CANCELLATION] = cancellation;
    // Absent, not undefined, when not given.
    if (inputResponses !== undefined) (this as { inputResponses?: unknown }).inputResponses = inputResponses;
    if (progress !== undefined) (this as { progress?: unknown }).progress = progress;
  }

  get signal(): AbortSignal | undefined {
    return this[CANCELLATION].signal;
  }
}

/**
 * The handler's output as JSON text, or `undefined` when it failed; a promise of it only when the
 * runner answered with one (a runner may settle at once).
 */
function runHandler(
  effect: HandlerEffect,
  runner: McpHandlerRunner,
  timeoutMs: number,
  cancellation: Cancellation,
  progress: McpHandlerContext['progress'],
): string | undefined | Promise<string | undefined> {
  let outcome: ReturnType<McpHandlerRunner['run']>;
  try {
    outcome = runner.run(effect.op, effect.input, new RunContext(timeoutMs, cancellation, effect.inputResponses, progress));
  } catch {
    return undefined;
  }
  return isThenable(outcome) ? Promise.resolve(outcome).then(outputText, () => undefined) : outputText(outcome);
}

/** A runner's outcome as the core takes it: the output as JSON text, `undefined` for a failure. */
function outputText(outcome: McpHandlerOutcome | undefined): string | undefined {
  if (outcome?.ok !== true) return undefined;
  try {
    const text = JSON.stringify(outcome.output === undefined ? null : outcome.output);
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}
