/**
 * The TypeScript driver's own boundaries, the ones a scripted host cannot reach: the Fetch host's
 * bounded read of an HTTP effect's reply (exactly at the cap, one byte over, a sum of chunks that
 * crosses it), and the driver's guards against a core that breaks its contract (CONTINUE with no time
 * left, CONTINUE after the body's end), body polling, the client leaving and handler progress, run
 * against a scripted core that records every call.
 */
import { channel as diagnosticsChannel } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Cancellation } from '../../src/core/cancellation';
import { drive, fetchExchange, type BodySource, type Departure, type HostCore, type HttpResult, type ReadResult, type StreamSink } from '../../src/core/driver';
import { internalError, type Action, type Engine, type HttpEffect, type ProgressEvent, type RespondAction } from '../../src/core/engine';
import type { McpHandlerContext, McpHandlerRunner } from '../../src/options';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const CAP = 8;

const effect = (over: Partial<HttpEffect> = {}): HttpEffect => ({ kind: 'http', backend: 'b', method: 'GET', url: 'https://backend.example/x', headers: [['accept', 'application/json']], maxBytes: CAP, timeoutMs: 1000, ...over });

/** A reply whose body arrives in exactly these chunks, then ends (or fails, or stays open). */
function reply(chunks: readonly string[], after: 'end' | 'fail' | 'open', cancelled: string[]): Response {
  const queue = [...chunks];
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = queue.shift();
      if (next !== undefined) controller.enqueue(encoder.encode(next));
      else if (after === 'end') controller.close();
      else if (after === 'fail') controller.error(new Error('reset'));
      else return new Promise<void>(() => undefined);
      return undefined;
    },
    cancel() {
      cancelled.push('cancelled');
    },
  });
  return new Response(stream, { status: 200 });
}

type Exchanged = { status: number; body: string; bytes: number } | 'unreachable';
const shape = (r: Awaited<ReturnType<typeof fetchExchange>>): Exchanged => (r === 'unreachable' ? r : { status: r.status, body: decoder.decode(r.body), bytes: r.body.byteLength });

describe('fetchExchange: the bounded read of the reply (cap 8 bytes)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it.each([
    // name, chunks, how the stream ends, the result, whether the reader was cancelled
    ['exactly at the cap in one chunk', ['12345678'], 'end', { status: 200, body: '12345678', bytes: 8 }, false],
    ['exactly at the cap in two chunks', ['1234', '5678'], 'end', { status: 200, body: '12345678', bytes: 8 }, false],
    ['one byte over, the extra byte in its own chunk', ['12345678', '9', 'more'], 'open', { status: 200, body: '123456789', bytes: 9 }, true],
    ['three chunks whose sum crosses the cap', ['abc', 'def', 'ghi', 'more'], 'open', { status: 200, body: 'abcdefghi', bytes: 9 }, true],
    ['one chunk far over the cap', ['0123456789abcdef'], 'open', { status: 200, body: '0123456789abcdef', bytes: 16 }, true],
    ['an empty body', [], 'end', { status: 200, body: '', bytes: 0 }, false],
    ['a body that fails after its first chunk', ['1234'], 'fail', 'unreachable', false],
  ] as const)('%s', async (_, chunks, after, want, cancelledWant) => {
    const cancelled: string[] = [];
    vi.stubGlobal('fetch', () => Promise.resolve(reply(chunks, after, cancelled)));
    expect(shape(await fetchExchange(effect(), new Cancellation()))).toEqual(want);
    // A cancel reaches the source on a later turn.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(cancelled).toEqual(cancelledWant ? ['cancelled'] : []);
  });

  it('a reply without a body is an empty body', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(new Response(null, { status: 204 })));
    expect(shape(await fetchExchange(effect(), new Cancellation()))).toEqual({ status: 204, body: '', bytes: 0 });
  });

  it('no fetch in the runtime, or a fetch that throws, is unreachable', async () => {
    vi.stubGlobal('fetch', undefined);
    expect(await fetchExchange(effect(), new Cancellation())).toBe('unreachable');
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('refused')));
    expect(await fetchExchange(effect(), new Cancellation())).toBe('unreachable');
  });

  it.each([
    ['without a body: no body key', effect(), { method: 'GET', redirect: 'manual', hasBody: false, body: undefined }],
    ['with a body: exactly it', effect({ method: 'POST', body: '{"a":1}' }), { method: 'POST', redirect: 'manual', hasBody: true, body: '{"a":1}' }],
  ] as const)('the request init %s, with the cancellation signal', async (_, e, want) => {
    const seen: RequestInit[] = [];
    vi.stubGlobal('fetch', (_url: string, init: RequestInit) => {
      seen.push(init);
      return Promise.resolve(new Response('{}', { status: 200 }));
    });
    const cancellation = new Cancellation();
    await fetchExchange(e, cancellation);
    const init = seen[0]!;
    expect({ method: init.method, redirect: init.redirect, hasBody: 'body' in init, body: init.body }).toEqual(want);
    expect(init.signal).toBeInstanceOf(AbortSignal);
    cancellation.cancel();
    expect(init.signal!.aborted).toBe(true);
  });

  it('a runtime without AbortController: no signal key', async () => {
    const seen: RequestInit[] = [];
    vi.stubGlobal('AbortController', undefined);
    vi.stubGlobal('fetch', (_url: string, init: RequestInit) => (seen.push(init), Promise.resolve(new Response('{}', { status: 200 }))));
    expect(shape(await fetchExchange(effect(), new Cancellation()))).toEqual({ status: 200, body: '{}', bytes: 2 });
    expect('signal' in seen[0]!).toBe(false);
  });
});

const respond = (status: number, text = ''): RespondAction => ({ kind: 'respond', status, headers: [], body: encoder.encode(text), close: false });
const CONTINUE: Action = { kind: 'continue' };

/** A core scripted by its callbacks; every call is recorded. Gives up with 599 after 20 ticks. */
function scriptedHost(script: {
  head?: () => Action;
  timeoutMs?: (call: number) => number;
  tick?: (n: number) => Action;
  body?: (text: string) => Action;
  end?: (n: number) => Action;
  abort?: () => Action;
  progress?: (n: number) => ProgressEvent;
  handlerOutput?: (json: string) => Action;
  handlers?: McpHandlerRunner;
  exchange?: HostCore['exchange'];
  now?: HostCore['now'];
  cache?: HostCore['cache'];
}): { host: HostCore; calls: string[]; nows: number[]; freed: () => number } {
  const calls: string[] = [];
  let ticks = 0;
  let ends = 0;
  let waits = 0;
  let reports = 0;
  const nows: number[] = [];
  const req = {
    head: (_m: string, _t: string, _h: readonly string[], now: number) => (calls.push('head'), nows.push(now), script.head?.() ?? CONTINUE),
    timeoutMs: () => script.timeoutMs?.(waits++) ?? 1000,
    tick: () => {
      calls.push('tick');
      ticks++;
      return ticks > 20 ? respond(599) : (script.tick?.(ticks) ?? CONTINUE);
    },
    body: (chunk: Uint8Array) => {
      const text = decoder.decode(chunk);
      calls.push(`body ${text}`);
      return script.body?.(text) ?? CONTINUE;
    },
    end: () => {
      calls.push('end');
      ends++;
      return ends > 5 ? respond(599) : (script.end?.(ends) ?? respond(200, 'done'));
    },
    abort: () => (calls.push('abort'), script.abort?.() ?? respond(499)),
    progress: () => script.progress?.(++reports),
    handlerOutput: (json: string) => (calls.push(`output ${json}`), script.handlerOutput?.(json) ?? respond(200, json)),
    handlerFailure: () => (calls.push('handler failed'), respond(502)),
    httpFailure: (kind: string) => (calls.push(`http failure ${kind}`), respond(502)),
    httpResponse: (status: number, body: Uint8Array) => (calls.push(`http response ${status} ${decoder.decode(body)}`), respond(200)),
    free: () => void freed++,
    cached: (value: string) => (calls.push(`cached ${value}`), respond(200)),
    cacheEntry: () => undefined,
    event: () => '{"outcome":"scripted"}',
  };
  let freed = 0;
  const engine = { request: () => req } as unknown as Engine;
  const exchange = script.exchange ?? ((): Promise<HttpResult> => Promise.resolve('unreachable'));
  const host: HostCore = { engine, requestBytes: 1 << 20, handlers: script.handlers, exchange, ...(script.now === undefined ? {} : { now: script.now }), ...(script.cache === undefined ? {} : { cache: script.cache }) };
  return { host, calls, nows, freed: () => freed };
}

/** A body source: `poll` answers from `polled` (one answer per call), `read` from `read`. */
function source(polled: (ReadResult | undefined)[] | undefined, read: () => Promise<ReadResult>, log: string[]): BodySource {
  const s: BodySource = {
    read: () => (log.push('read'), read()),
    cancel: () => void log.push('cancel'),
  };
  if (polled !== undefined) s.poll = () => (log.push('poll'), polled.shift());
  return s;
}
const never = (): Promise<ReadResult> => new Promise<never>(() => undefined);
const chunk = (text: string): ReadResult => ({ done: false, chunk: encoder.encode(text) });
const HEAD = { method: 'POST', target: '/mcp', headers: [] };

const summary = (o: Awaited<ReturnType<typeof drive>>) => ({ status: o.response.status, body: decoder.decode(o.response.body), close: o.response.close, streamed: o.streamed, bodyComplete: o.bodyComplete, gone: o.gone });

describe('drive against a scripted core: the guard against CONTINUE with no time left', () => {
  const INTERNAL = { status: 500, body: decoder.decode(internalError().body), close: true, streamed: false, bodyComplete: false, gone: false };

  it.each([
    // name, the body waits' budgets in order, the tick that answers (or none), the outcome, the calls
    ['always no time left: an internal error on the third zero wait in a row', [], undefined, INTERNAL, ['head', 'tick', 'tick', 'tick']],
    ['the core answers on the third zero wait: its answer', [], 3, { ...INTERNAL, status: 408, body: '', close: false }, ['head', 'tick', 'tick', 'tick']],
    [
      'a real wait between zero waits resets the count',
      [0, 0, 1, 0, 0],
      6,
      { ...INTERNAL, status: 408, body: '', close: false },
      ['head', 'tick', 'tick', 'tick', 'tick', 'tick', 'tick'],
    ],
  ] as const)('%s', async (_, budgets, answersAt, want, calls) => {
    const { host, calls: seen } = scriptedHost({ timeoutMs: (i) => budgets[i] ?? 0, tick: (n) => (n === answersAt ? respond(408) : CONTINUE) });
    const log: string[] = [];
    const o = await drive(host, HEAD, source(undefined, never, log), undefined);
    expect(summary(o)).toEqual(want);
    expect(seen).toEqual(calls);
    expect(log).toEqual(['read', 'cancel']);
  });

  it('with no time left a body the runtime already delivered is not read: the core ticks', async () => {
    const { host, calls } = scriptedHost({ timeoutMs: () => 0, tick: () => respond(408) });
    const log: string[] = [];
    const o = await drive(host, HEAD, source(undefined, () => Promise.resolve(chunk('x')), log), undefined);
    expect(summary(o)).toEqual({ status: 408, body: '', close: false, streamed: false, bodyComplete: false, gone: false });
    expect(calls).toEqual(['head', 'tick']);
  });
});

describe('drive against a scripted core: body polling, the end, the client leaving', () => {
  const DONE = { status: 200, body: 'done', close: false, streamed: false, bodyComplete: true, gone: false };

  it.each([
    ['a body the runtime holds: polled, never read', [chunk('ab'), { done: true }] as ReadResult[], undefined, ['poll', 'poll'], ['head', 'body ab', 'end']],
    ['a body handed over after one yield: polled again, never read', [undefined, chunk('ab'), { done: true }] as ReadResult[], undefined, ['poll', 'poll', 'poll'], ['head', 'body ab', 'end']],
    [
      'a body not yet there: one yield, then one read',
      [undefined, undefined] as (ReadResult | undefined)[],
      chunk('cd'),
      ['poll', 'poll', 'read', 'poll'],
      ['head', 'body cd', 'end'],
    ],
  ] as const)('%s', async (_, polled, read, log, calls) => {
    const { host, calls: seen } = scriptedHost({});
    const seenLog: string[] = [];
    const queue = [...polled];
    let reads = 0;
    const src = source(queue, () => Promise.resolve(reads++ === 0 && read !== undefined ? read : { done: true }), seenLog);
    // After the read, the end is what the runtime holds.
    if (read !== undefined) queue.push({ done: true });
    const o = await drive(host, HEAD, src, undefined);
    expect(summary(o)).toEqual(DONE);
    expect(seenLog).toEqual(log);
    expect(seen).toEqual(calls);
  });

  it('a body wait that ends without the body: the pending read is waited on again, not polled', async () => {
    // Each wait has 5 ms; the core answers on the second tick.
    const { host, calls } = scriptedHost({ timeoutMs: () => 5, tick: (n) => (n === 2 ? respond(408) : CONTINUE) });
    const log: string[] = [];
    const o = await drive(host, HEAD, source([undefined, undefined, chunk('late')], never, log), undefined);
    expect(summary(o)).toEqual({ status: 408, body: '', close: false, streamed: false, bodyComplete: false, gone: false });
    expect(calls).toEqual(['head', 'tick', 'tick']);
    expect(log).toEqual(['poll', 'poll', 'read', 'cancel']);
  });

  it('a source that cannot be polled is read at once, without a yield', async () => {
    const { host } = scriptedHost({});
    const log: string[] = [];
    const outcome = drive(host, HEAD, source(undefined, () => Promise.resolve({ done: true }), log), undefined);
    expect(log).toEqual(['read']);
    expect(summary(await outcome)).toEqual(DONE);
    expect(log).toEqual(['read']);
  });

  it('no body: the core gets the end at once', async () => {
    const { host, calls } = scriptedHost({});
    expect(summary(await drive(host, HEAD, null, undefined))).toEqual(DONE);
    expect(calls).toEqual(['head', 'end']);
  });

  it('CONTINUE after the end is an internal error, without a second end', async () => {
    const { host, calls } = scriptedHost({ end: () => CONTINUE });
    const o = await drive(host, HEAD, null, undefined);
    expect(summary(o)).toEqual({ status: 500, body: decoder.decode(internalError().body), close: true, streamed: false, bodyComplete: true, gone: false });
    expect(calls).toEqual(['head', 'end']);
  });

  it('a client already gone: abort, the body never read', async () => {
    const { host, calls } = scriptedHost({});
    const log: string[] = [];
    const departure: Departure = { promise: Promise.resolve(), gone: true };
    const o = await drive(host, HEAD, source(undefined, never, log), departure);
    expect(summary(o)).toEqual({ status: 499, body: '', close: false, streamed: false, bodyComplete: false, gone: true });
    expect(calls).toEqual(['head', 'abort']);
    expect(log).toEqual(['cancel']);
  });

  it('a client leaving during a body wait: abort, the body cancelled', async () => {
    const { host, calls } = scriptedHost({});
    const log: string[] = [];
    let gone = false;
    let leave!: () => void;
    const departure: Departure = {
      promise: new Promise<void>((resolve) => (leave = resolve)),
      get gone() {
        return gone;
      },
    };
    const outcome = drive(host, HEAD, source(undefined, never, log), departure);
    await new Promise((resolve) => setTimeout(resolve, 5));
    leave();
    const o = await outcome;
    gone = true;
    expect(summary(o)).toEqual({ status: 499, body: '', close: false, streamed: false, bodyComplete: false, gone: false });
    expect(calls).toEqual(['head', 'abort']);
    expect(log).toEqual(['read', 'cancel']);
  });
});

describe('drive against a scripted core: a handler effect, its context and its progress', () => {
  const handlerHead = (over: object = {}): (() => Action) => () => ({ kind: 'perform', effect: { kind: 'handler', op: 'op', input: { a: 1 }, timeoutMs: 100, ...over } });
  const first = respond(200, 'head');

  it.each([
    // name, effect fields, whether the host streams, the context's keys, the sink's record, streamed
    ['progress asked, a sink: reports reach it', { progress: true }, true, ['progress'], ['start 200', 'write e3'], true],
    ['progress asked, no sink: no progress function', { progress: true }, false, [], [], false],
    ['progress not asked: no progress function', {}, true, [], [], false],
    ['input responses given: in the context', { inputResponses: { k: 'v' } }, true, ['inputResponses'], [], false],
  ] as const)('%s', async (_, over, streams, keys, record, streamed) => {
    const contexts: McpHandlerContext[] = [];
    const handlers: McpHandlerRunner = {
      run(_op, _input, ctx) {
        contexts.push(ctx);
        ctx.progress?.(1);
        ctx.progress?.(2);
        ctx.progress?.(3);
        return { ok: true, output: { r: 1 } };
      },
    };
    // The first report is dropped, the second opens the stream, the third follows it.
    const events: ProgressEvent[] = [undefined, { kind: 'first', head: first }, { kind: 'next', bytes: encoder.encode('e3') }];
    const { host } = scriptedHost({ head: handlerHead(over), handlers, progress: (n) => events[n - 1] });
    const sunk: string[] = [];
    const sink: StreamSink = { start: (h) => void sunk.push(`start ${h.status}`), write: (b) => void sunk.push(`write ${decoder.decode(b)}`) };
    const o = await drive(host, HEAD, null, undefined, streams ? sink : undefined);
    expect(summary(o)).toEqual({ status: 200, body: '{"r":1}', close: false, streamed, bodyComplete: true, gone: false });
    const ctx = contexts[0]!;
    expect(Object.keys(ctx).filter((k) => k === 'progress' || k === 'inputResponses')).toEqual(keys);
    expect('inputResponses' in ctx ? ctx.inputResponses : undefined).toEqual('inputResponses' in over ? over.inputResponses : undefined);
    expect(sunk).toEqual(record);
  });
});

describe('drive against a scripted core: what a handler gave, and waits that end without it', () => {
  const perform = (timeoutMs: number): (() => Action) => () => ({ kind: 'perform', effect: { kind: 'handler', op: 'op', input: {}, timeoutMs } });

  const gives: [string, () => unknown, string[]][] = [
    // name, what the runner gives, the core calls after the head
    ['an output', () => ({ ok: true, output: { r: 1 } }), ['output {"r":1}']],
    ['an output promised', () => Promise.resolve({ ok: true, output: [2] }), ['output [2]']],
    ['ok without an output: null', () => ({ ok: true }), ['output null']],
    ['a failure', () => ({ ok: false }), ['handler failed']],
    ['nothing at all', () => undefined, ['handler failed']],
    ['an output JSON cannot hold', () => ({ ok: true, output: () => 1 }), ['handler failed']],
    ['an output that cannot be serialized', () => ({ ok: true, output: 1n }), ['handler failed']],
    ['a runner that throws', () => { throw new Error('x'); }, ['handler failed']],
    ['a promise that rejects', () => Promise.reject(new Error('x')), ['handler failed']],
  ];
  it.each(gives)('%s', async (_, give, calls) => {
    const handlers = { run: give } as unknown as McpHandlerRunner;
    const { host, calls: seen } = scriptedHost({ head: perform(100), handlers, end: () => respond(299) });
    await drive(host, HEAD, null, undefined);
    expect(seen).toEqual(['head', ...calls]);
  });

  it('a value given at once is taken at once: no wait, though no time is left after it', async () => {
    const handlers: McpHandlerRunner = { run: () => ({ ok: true, output: 1 }) };
    const { host, calls } = scriptedHost({ head: perform(100), handlers, timeoutMs: (i) => (i === 0 ? 1000 : 0), end: () => respond(299) });
    await drive(host, HEAD, null, undefined);
    expect(calls).toEqual(['head', 'output 1']);
  });

  it.each([
    ['the effect budget is the smaller', 100, 1000, 100],
    ['the deadline is the smaller', 100, 40, 40],
  ] as const)('the handler is told its time: %s', async (_, budget, left, want) => {
    const told: number[] = [];
    const handlers: McpHandlerRunner = { run: (_op, _input, ctx) => (told.push(ctx.timeoutMs), { ok: true, output: 1 }) };
    const { host } = scriptedHost({ head: perform(budget), handlers, timeoutMs: () => left });
    await drive(host, HEAD, null, undefined);
    expect(told).toEqual([want]);
  });

  const pendingRunner: McpHandlerRunner = { run: () => new Promise<never>(() => undefined) };

  it('the request deadline passes during the handler: the core ticks and answers', async () => {
    // The start sees time left, the first wait 5 ms, then none.
    const { host, calls } = scriptedHost({ head: perform(1000), handlers: pendingRunner, timeoutMs: (i) => [1000, 5][i] ?? 0, tick: () => respond(408) });
    const o = await drive(host, HEAD, null, undefined);
    expect(summary(o)).toEqual({ status: 408, body: '', close: false, streamed: false, bodyComplete: true, gone: false });
    expect(calls).toEqual(['head', 'tick']);
  });

  it('the handler outlasts its own budget: a handler failure, its signal aborted', async () => {
    const signals: (AbortSignal | undefined)[] = [];
    const handlers: McpHandlerRunner = { run: (_op, _input, ctx) => (signals.push(ctx.signal), new Promise<never>(() => undefined)) };
    const { host, calls } = scriptedHost({ head: perform(5), handlers });
    const o = await drive(host, HEAD, null, undefined);
    expect(summary(o)).toEqual({ status: 502, body: '', close: false, streamed: false, bodyComplete: true, gone: false });
    expect(calls).toEqual(['head', 'handler failed']);
    expect(signals.map((signal) => signal?.aborted)).toEqual([true]);
  });

  it('the client leaves during the handler: the core aborts and answers', async () => {
    const { host, calls } = scriptedHost({ head: perform(1000), handlers: pendingRunner });
    let leave!: () => void;
    const departure: Departure = { promise: new Promise<void>((resolve) => (leave = resolve)), gone: false };
    setTimeout(() => leave(), 5);
    const o = await drive(host, HEAD, null, departure);
    expect(summary(o)).toEqual({ status: 499, body: '', close: false, streamed: false, bodyComplete: true, gone: false });
    expect(calls).toEqual(['head', 'abort']);
  });
});

describe('drive against a scripted core: an HTTP effect', () => {
  const perform = (timeoutMs: number): (() => Action) => () => ({ kind: 'perform', effect: effect({ timeoutMs }) });
  const pending = (): Promise<HttpResult> => new Promise<never>(() => undefined);

  it.each([
    // name, the exchange, the effect's budget, the core's budgets in order, the core calls after the head
    ['a reply', () => Promise.resolve({ status: 201, body: encoder.encode('{}') }), 1000, [], ['http response 201 {}']],
    ['unreachable', () => Promise.resolve('unreachable' as const), 1000, [], ['http failure unreachable']],
    ['past its own budget', pending, 5, [], ['http failure timedOut']],
    ['past the request deadline: the core ticks', pending, 1000, [1000, 5], ['tick']],
  ] as const)('%s', async (_, exchange, budget, budgets, calls) => {
    const { host, calls: seen } = scriptedHost({ head: perform(budget), exchange, timeoutMs: (i) => (budgets.length === 0 ? 1000 : (budgets[i] ?? 0)), tick: () => respond(408) });
    await drive(host, HEAD, null, undefined);
    expect(seen).toEqual(['head', ...calls]);
  });

  it('the client leaves during the exchange: the core aborts and answers', async () => {
    const { host, calls } = scriptedHost({ head: perform(1000), exchange: pending });
    let leave!: () => void;
    const departure: Departure = { promise: new Promise<void>((resolve) => (leave = resolve)), gone: false };
    setTimeout(() => leave(), 5);
    expect(summary(await drive(host, HEAD, null, departure)).status).toBe(499);
    expect(calls).toEqual(['head', 'abort']);
  });

  it.each([
    // name, whether the effect names a cache key, whether the host keeps a store, the core calls after the head
    ['a key and a store: answered from the store', true, true, ['cached kept']],
    ['a key, no store: performed', true, false, ['http failure unreachable']],
    ['no key, a store: performed, the store not asked', false, true, ['http failure unreachable']],
  ] as const)('the introspection store: %s', async (_, keyed, stored, calls) => {
    const asked: string[] = [];
    const cache = { get: (key: string) => (asked.push(key), 'kept'), set: () => undefined };
    const head = (): Action => ({ kind: 'perform', effect: effect(keyed ? { cacheKey: 'k' } : {}) });
    const { host, calls: seen, freed } = scriptedHost({ head, ...(stored ? { cache } : {}) });
    await drive(host, HEAD, null, undefined);
    expect(seen).toEqual(['head', ...calls]);
    expect(asked).toEqual(keyed && stored ? ['k'] : []);
    expect(freed()).toBe(1);
  });

  it('a core that does not answer an abort: an internal error', async () => {
    const { host, calls } = scriptedHost({ abort: () => CONTINUE });
    const o = await drive(host, HEAD, source(undefined, never, []), { promise: Promise.resolve(), gone: true });
    expect(summary(o)).toEqual({ status: 500, body: decoder.decode(internalError().body), close: true, streamed: false, bodyComplete: false, gone: true });
    expect(calls).toEqual(['head', 'abort']);
  });
});

describe('drive: timers and clocks', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('a body wait that the body ends leaves no timer behind', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { host } = scriptedHost({});
    let reads = 0;
    const o = await drive(host, HEAD, source(undefined, () => Promise.resolve(reads++ === 0 ? chunk('a') : { done: true }), []), undefined);
    expect(summary(o).status).toBe(200);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a runtime without diagnostics_channel: no request event, the same outcome', async () => {
    vi.resetModules();
    vi.doMock('../../src/telemetry/channel', async (original) => ({ ...(await original<object>()), requestChannel: undefined }));
    try {
      const fresh = await import('../../src/core/driver');
      const { host, calls } = scriptedHost({});
      expect(summary(await fresh.drive(host, HEAD, null, undefined)).status).toBe(200);
      expect(calls).toEqual(['head', 'end']);
    } finally {
      vi.doUnmock('../../src/telemetry/channel');
    }
  });

  it('the host clock, when given, is the one the core reads', async () => {
    const { host, nows } = scriptedHost({ now: () => 12345 });
    await drive(host, HEAD, null, undefined);
    expect(nows).toEqual([12345]);
  });

  it.each([
    ['with performance: its monotonic clock', true],
    ['without performance: the wall clock', false],
  ] as const)('without a host clock, the runtime one %s', async (_, hasPerformance) => {
    if (!hasPerformance) vi.stubGlobal('performance', undefined);
    vi.resetModules();
    const fresh = await import('../../src/core/driver');
    const { host, nows } = scriptedHost({});
    const before = hasPerformance ? performance.now() : Date.now();
    await fresh.drive(host, HEAD, null, undefined);
    const after = hasPerformance ? performance.now() : Date.now();
    expect(nows).toHaveLength(1);
    expect(nows[0]).toBeGreaterThanOrEqual(before);
    expect(nows[0]).toBeLessThanOrEqual(after);
  });
});

describe('drive: the request event\'s timings, on a clock the test moves', () => {
  // The clock starts at 1000 and moves only where a row says: in the core's head, during the body
  // wait, during the effect.
  type Moves = { head?: number; body?: number; effect?: number };
  const run = async (moves: Moves, effectful: boolean, listened: boolean) => {
    let t = 1000;
    let reads = 0;
    const now = () => (reads++, t);
    const exchange = (): Promise<HttpResult> => ((t += moves.effect ?? 0), Promise.resolve('unreachable'));
    const head = (): Action => ((t += moves.head ?? 0), effectful ? { kind: 'perform', effect: effect() } : CONTINUE);
    const { host } = scriptedHost({ head, exchange, now });
    const body = effectful ? null : source(undefined, () => new Promise((resolve) => setTimeout(() => ((t += moves.body ?? 0), resolve({ done: true })), 0)), []);
    const events: unknown[] = [];
    const listen = (e: unknown) => events.push(e);
    const ch = diagnosticsChannel('pulse-mcp:request');
    if (listened) ch.subscribe(listen);
    try {
      await drive(host, HEAD, body, undefined);
    } finally {
      if (listened) ch.unsubscribe(listen);
    }
    const timings = events.map((e) => {
      const { bodyMs, effectsMs, coreMs, totalMs } = e as Record<string, number>;
      return { bodyMs, effectsMs, coreMs, totalMs };
    });
    return { timings, reads };
  };

  it.each([
    // name, clock moves, an effect (else a body), the one event's timings
    ['a body wait', { body: 30 }, false, { bodyMs: 30, effectsMs: 0, coreMs: 0, totalMs: 30 }],
    ['an effect', { effect: 40 }, true, { bodyMs: 0, effectsMs: 40, coreMs: 0, totalMs: 40 }],
    ['the core and a body wait', { head: 5, body: 30 }, false, { bodyMs: 30, effectsMs: 0, coreMs: 5, totalMs: 35 }],
    ['the core and an effect', { head: 5, effect: 40 }, true, { bodyMs: 0, effectsMs: 40, coreMs: 5, totalMs: 45 }],
  ] as const)('%s', async (_, moves, effectful, want) => {
    expect((await run(moves, effectful, true)).timings).toEqual([want]);
  });

  it.each([
    // name, an effect (else a body), the clock reads with and without a listener
    ['a body wait', false, [8, 4]],
    ['an effect', true, [10, 6]],
  ] as const)('nobody listening: the clock is read for the core alone (%s)', async (_, effectful, want) => {
    const listened = await run({}, effectful, true);
    const alone = await run({}, effectful, false);
    expect([listened.reads, alone.reads]).toEqual(want);
    expect(alone.timings).toEqual([]);
  });
});
