/**
 * Everything the HTTP hosts share that is not I/O: feeding one request through the core, arming a
 * timer from `timeoutMs()` for every wait, and performing outbound instructions (§3.3). Adapters
 * only translate their runtime's request/body/response objects.
 */
import { resolveOptions, type McpHandlerRunner, type McpHttpOptions } from '../options';
import { Engine, internalError, type Action, type HeaderPair, type Instruction, type RespondAction } from './engine';

export type ReadResult =
  | { readonly done: false; readonly chunk: Uint8Array }
  | { readonly done: true }
  | { readonly error: true; readonly done?: undefined };

/** A request body as the driver pulls it: at most one `read()` outstanding. */
export interface BodySource {
  read(): Promise<ReadResult>;
  /** Release the source without waiting for it (an uncooperative source may never settle). */
  cancel(): void;
}

export interface RequestHead {
  readonly method: string;
  readonly target: string;
  readonly headers: Iterable<HeaderPair>;
}

export interface Outcome {
  readonly response: RespondAction;
  /** The body was read to its end; otherwise the host must not reuse the connection. */
  readonly bodyComplete: boolean;
  /** The client went away; nothing should be sent. */
  readonly gone: boolean;
}

/** Resolves once when the client goes away. */
export interface Departure {
  readonly promise: Promise<void>;
  readonly gone: boolean;
}

const perf = (globalThis as { performance?: { now(): number } }).performance;
/** Monotonic milliseconds; the core never reads a clock. */
export const now: () => number = perf !== undefined ? () => perf.now() : () => Date.now();

const TIMEOUT = Symbol('timeout');
const GONE = Symbol('gone');
/** Ticks in a row the core may answer with CONTINUE while reporting no time left. */
const MAX_ZERO_WAITS = 2;
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
}

/** Validates and snapshots the options and instantiates the core; throws `PulseConfigError`. */
export function createHostCore(options: McpHttpOptions | undefined): HostCore {
  const resolved = resolveOptions(options);
  return Object.freeze({ engine: Engine.create(resolved.configJson, resolved.core), requestBytes: resolved.requestBytes, handlers: resolved.handlers });
}

/**
 * Runs one request through the core to its response. Never throws for request-caused conditions;
 * the core decides every status.
 */
export async function drive(host: HostCore, head: RequestHead, body: BodySource | null, departure: Departure | undefined): Promise<Outcome> {
  const req = host.engine.request(now());
  let bodyDone = body === null;
  let endSent = false;
  let pending: Promise<ReadResult> | undefined;
  let zeroWaits = 0;
  try {
    let action: Action = req.head(head.method, head.target, head.headers, now());
    // Each iteration consumes one event; the core's deadline bounds how many can occur.
    for (;;) {
      if (action.kind === 'respond') {
        if (!bodyDone) body?.cancel();
        return { response: action, bodyComplete: bodyDone, gone: departure?.gone === true };
      }
      if (action.kind === 'call') {
        action = await perform(req, action.instruction, departure, host.handlers);
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
      pending ??= (body as BodySource).read();
      const wait = req.timeoutMs(now());
      const event = wait > 0 ? await race(pending, wait, departure) : TIMEOUT;
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

/** Performs one outbound instruction and returns the core's next action. */
async function perform(req: CoreReq, instruction: Instruction, departure: Departure | undefined, runner: McpHandlerRunner | undefined): Promise<Action> {
  const started = now();
  const budget = numberField(instruction.timeoutMs);
  const controller = typeof AbortController === 'function' ? new AbortController() : undefined;
  let work: Promise<string>;
  const limit = Math.min(budget, req.timeoutMs(started));
  if (instruction.kind === 'handler') work = runHandler(instruction, runner, limit, controller?.signal);
  else if (instruction.kind === 'backend') work = runBackend(instruction, controller?.signal);
  else work = Promise.resolve('{"ok":false}');
  const abandon = (): void => {
    controller?.abort();
    // The abandoned work may still settle; its result is dropped.
    work.catch(() => undefined);
  };
  const failed = instruction.kind === 'backend' ? '{"ok":false,"reason":"timeout"}' : '{"ok":false}';
  // Timers may fire a little early; each wait re-checks both clocks rather than trusting the timer.
  for (;;) {
    const at = now();
    const coreLeft = req.timeoutMs(at);
    const ownLeft = budget - (at - started);
    if (coreLeft === 0) {
      // The end-to-end deadline passed: the core answers 408 itself.
      abandon();
      const action = req.tick(at);
      return action.kind === 'respond' ? action : req.resume(failed, at);
    }
    if (ownLeft <= 0) {
      abandon();
      return req.resume(failed, at);
    }
    const event = await race(work, Math.min(coreLeft, ownLeft), departure);
    if (event === TIMEOUT) continue;
    if (event === GONE) {
      abandon();
      return finalOf(req.abort(now()));
    }
    return req.resume(event, now());
  }
}

function numberField(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

async function runHandler(instruction: Instruction, runner: McpHandlerRunner | undefined, timeoutMs: number, signal: AbortSignal | undefined): Promise<string> {
  if (runner === undefined || typeof instruction.op !== 'string') return '{"ok":false}';
  try {
    const context = signal === undefined ? { timeoutMs } : { timeoutMs, signal };
    const outcome = await runner.run(instruction.op, instruction.input, context);
    if (outcome?.ok !== true) return '{"ok":false}';
    const text = JSON.stringify({ ok: true, output: outcome.output === undefined ? null : outcome.output });
    return typeof text === 'string' ? text : '{"ok":false}';
  } catch {
    return '{"ok":false}';
  }
}

/** Strict UTF-8 where the runtime supports `fatal` (built lazily: a throw here must not break loading). */
let strictUtf8: TextDecoder | undefined;
function decodeStrict(bytes: Uint8Array): string {
  if (strictUtf8 === undefined) {
    try {
      strictUtf8 = new TextDecoder('utf-8', { fatal: true });
    } catch {
      strictUtf8 = new TextDecoder();
    }
  }
  return strictUtf8.decode(bytes);
}

/** One governed HTTP call: no redirects, no retry, bounded body read. */
async function runBackend(instruction: Instruction, signal: AbortSignal | undefined): Promise<string> {
  const refused = '{"ok":false,"reason":"refused"}';
  const fetchFn = (globalThis as { fetch?: typeof fetch }).fetch;
  const { url, method, headers, body } = instruction;
  const maxBytes = numberField(instruction.maxBytes);
  if (fetchFn === undefined || typeof url !== 'string' || typeof method !== 'string') return refused;
  const headerList: [string, string][] = [];
  if (Array.isArray(headers)) {
    for (const pair of headers) {
      if (Array.isArray(pair) && typeof pair[0] === 'string' && typeof pair[1] === 'string') headerList.push([pair[0], pair[1]]);
    }
  }
  let response: Response;
  try {
    const init: RequestInit = { method, headers: headerList, redirect: 'manual' };
    // A GET/HEAD carries no body (fetch() rejects one); the core sends "" for input-less calls.
    if (typeof body === 'string' && method !== 'GET' && method !== 'HEAD') init.body = body;
    if (signal !== undefined) init.signal = signal;
    response = await fetchFn(url, init);
  } catch {
    return refused;
  }
  const read = await readBounded(response, maxBytes);
  if (read === 'oversized') return '{"ok":false,"reason":"oversized"}';
  if (read === 'failed') return refused;
  let text: string;
  try {
    text = decodeStrict(read);
  } catch {
    return refused;
  }
  return JSON.stringify({ ok: true, status: response.status, body: text });
}

async function readBounded(response: Response, maxBytes: number): Promise<Uint8Array | 'oversized' | 'failed'> {
  if (response.body === null) return new Uint8Array(0);
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        reader.cancel().catch(() => undefined);
        return 'oversized';
      }
      parts.push(value);
    }
  } catch {
    return 'failed';
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}
