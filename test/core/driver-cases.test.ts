/**
 * Every case of spec/driver-cases.json run through the TypeScript driver (`drive()`) with a
 * scripted host, as native/core/tests/driver_cases.rs runs them through the Rust driver: body
 * events at given times, effects answered after given delays, a clock that moves only with the
 * host's timers (fake ones here) and where a body event says so, and the host-visible events
 * recorded.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { drive, type BodySource, type Departure, type HostCore, type HttpResult, type ReadResult } from '../../src/core/driver';
import { Engine, type RateAnswer } from '../../src/core/engine';
import type { McpHandlerOutcome, McpHandlerRunner } from '../../src/options';

interface BodyEvent {
  readonly at: number;
  readonly text?: string;
  readonly end?: true;
  readonly fail?: true;
  /** The host was held up right after the driver's first look at the clock: it then reads this. */
  readonly clockAfter?: number;
}

interface Expected {
  readonly status: number;
  readonly close: boolean;
  readonly body: string;
  readonly events: readonly string[];
  /** The driver saw the client leave (the TypeScript hosts' departure). */
  readonly gone?: boolean;
}

interface Case {
  readonly name: string;
  readonly head: { readonly method: string; readonly target: string; readonly headers: readonly (readonly [string, string])[] };
  readonly body: readonly BodyEvent[];
  readonly http?: { readonly after: number; readonly status?: number; readonly body?: string; readonly unreachable?: true };
  readonly handler?: { readonly after: number; readonly output?: string; readonly failed?: true };
  /** When the client goes away. */
  readonly gone?: number;
  /** Runs with the top-level `authorization` added to the configuration. */
  readonly authorized?: true;
  /** The host's introspection store holds this fresh value under whatever key the effect names. */
  readonly cached?: string;
  /** Runs with the top-level `rateLimit` added to the configuration. */
  readonly rateLimited?: true;
  /** The client's address the host reports. */
  readonly client?: string;
  /** The rate store's answers, in order. */
  readonly rate?: readonly ({ counted: number } | { boxed: true } | { penalized: true } | { failed: true })[];
  /** One expectation, or one per driver where they differ (with the reason in `why`). */
  readonly expect: Expected | { readonly rust: Expected; readonly ts: Expected; readonly why: string };
}

const spec = JSON.parse(readFileSync(path.resolve(__dirname, '../../spec/driver-cases.json'), 'utf8')) as { config: object; authorization: unknown; rateLimit: unknown; cases: Case[] };
const encoder = new TextEncoder();

/** Runs one case; the clock's origin is the fake timers' time at the start. */
async function run(engine: Engine, c: Case): Promise<{ status: number; close: boolean; body: Uint8Array; events: string[]; gone: boolean }> {
  const origin = Date.now();
  let offset = 0;
  let jump: number | undefined;
  const clock = (): number => Date.now() - origin + offset;
  const now = (): number => {
    const at = clock();
    if (jump !== undefined) {
      offset += jump - at;
      jump = undefined;
    }
    return at;
  };
  const later = <T>(atClock: number, value: T): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(value), Math.max(0, atClock - clock())));
  const events: string[] = [];

  const queue = [...c.body];
  const body: BodySource = {
    read(): Promise<ReadResult> {
      const next = queue.shift();
      if (next === undefined) return new Promise<never>(() => undefined);
      return later(next.at, next).then((e) => {
        jump = e.clockAfter;
        if (e.text !== undefined) return { done: false, chunk: encoder.encode(e.text) };
        return e.end === true ? { done: true } : { error: true };
      });
    },
    cancel: () => void events.push('body cancelled'),
  };

  let departed = false;
  const departure: Departure | undefined =
    c.gone === undefined
      ? undefined
      : {
          promise: later(c.gone, undefined).then(() => void (departed = true)),
          get gone() {
            return departed;
          },
        };

  const http = c.http;
  const handler = c.handler;
  const rates = [...(c.rate ?? [])];
  const handlers: McpHandlerRunner | undefined =
    handler === undefined
      ? undefined
      : {
          run(op): Promise<McpHandlerOutcome> {
            events.push(`handler ${op} at ${clock()}`);
            const outcome: McpHandlerOutcome = handler.output === undefined ? { ok: false } : { ok: true, output: JSON.parse(handler.output) };
            return later(clock() + handler.after, outcome);
          },
        };
  const host: HostCore = {
    engine,
    requestBytes: 1 << 20,
    handlers,
    now,
    exchange: (effect) => {
      events.push(`http ${effect.method} ${effect.url} at ${clock()}`);
      if (http === undefined) return new Promise<never>(() => undefined);
      const result: HttpResult = http.unreachable === true ? 'unreachable' : { status: http.status ?? 0, body: encoder.encode(http.body ?? '') };
      return later(clock() + http.after, result);
    },
    cache: {
      get: () => {
        if (c.cached !== undefined) events.push(`cache hit at ${clock()}`);
        return c.cached;
      },
      set: (entry) => void events.push(`cache store ${entry.value} for ${entry.ttlMs} ms`),
    },
    rates: {
      perform: (effect) => {
        const op = effect.op === 'count' ? `count ${effect.windowS} ${effect.charge ? 'charge' : 'peek'}` : `penalize ${effect.ttlS}`;
        events.push(`rate ${effect.rateCounter} ${effect.penaltyBox} ${effect.entry} ${op} at ${clock()}`);
        const a = rates.shift();
        expect(a, 'a rate answer for every rate effect').toBeDefined();
        const answer: RateAnswer = 'counted' in a! ? { kind: 'counted', count: a.counted } : 'boxed' in a! ? { kind: 'boxed' } : 'penalized' in a! ? { kind: 'penalized' } : { kind: 'failed' };
        return answer;
      },
    },
  };

  const flat = c.head.headers.flatMap(([name, value]) => [name, value]);
  let settled = false;
  const outcome = drive(host, { method: c.head.method, target: c.head.target, headers: flat, ...(c.client === undefined ? {} : { client: c.client }) }, body, departure).finally(() => {
    settled = true;
  });
  // Each step fires the next timer: a script has a handful, so this bound is never reached.
  for (let i = 0; i < 100 && !settled; i++) await vi.advanceTimersToNextTimerAsync();
  expect(settled, 'the driver settled').toBe(true);
  const { response, gone } = await outcome;
  return { status: response.status, close: response.close, body: response.body, events, gone };
}

describe('the driver cases (spec/driver-cases.json), through the TypeScript driver', () => {
  // Cases marked `authorized` run with the top-level `authorization`, `rateLimited` with its `rateLimit`.
  const engines = [false, true].flatMap((limited) =>
    [false, true].map((authorized) => Engine.create(JSON.stringify({ ...spec.config, ...(authorized ? { authorization: spec.authorization } : {}), ...(limited ? { rateLimit: spec.rateLimit } : {}) }))),
  );

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each(spec.cases.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const want = 'ts' in c.expect ? c.expect.ts : c.expect;
    const got = await run(engines[Number(c.authorized === true) + 2 * Number(c.rateLimited === true)]!, c);
    expect({ status: got.status, close: got.close, body: new TextDecoder().decode(got.body), events: got.events, gone: got.gone }).toEqual({
      status: want.status,
      close: want.close,
      body: want.body,
      events: want.events,
      gone: want.gone ?? false,
    });
    // The exact bytes, not only their decoding.
    expect(got.body).toEqual(encoder.encode(want.body));
  });
});
