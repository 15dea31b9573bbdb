// The request events the hosts publish on `node:diagnostics_channel`, captured per test, and the
// one check every outcome row makes of its event.
import dc from 'node:diagnostics_channel';
import { expect } from 'vitest';
import { REQUEST_CHANNEL, type McpRequestEvent } from '../../src/index';
import type { OutcomeRow } from './outcomes';
import type { Observed } from './compare';

export interface EventTap {
  /** The events published since the last call. */
  take(): McpRequestEvent[];
  close(): void;
}

export function tapEvents(): EventTap {
  let seen: McpRequestEvent[] = [];
  const onEvent = (m: unknown) => seen.push(m as McpRequestEvent);
  dc.subscribe(REQUEST_CHANNEL, onEvent);
  return {
    take() {
      const out = seen;
      seen = [];
      return out;
    },
    close: () => dc.unsubscribe(REQUEST_CHANNEL, onEvent),
  };
}

const bodyBytes = (r: OutcomeRow['request']): number => {
  const parts = r.chunks ?? (r.body !== undefined ? [r.body] : []);
  return parts.reduce((n, p) => n + (typeof p === 'string' ? Buffer.byteLength(p) : p.byteLength), 0);
};

/** Which kind each error message was given, across rows: one message, one kind. */
const kinds = new Map<string, string>();

/** The one event of `row`'s exchange says what the reply said. */
export function expectRowEvent(row: OutcomeRow, observed: Observed, events: McpRequestEvent[]): void {
  expect(events.length, 'one event per request').toBe(1);
  const e = events[0];
  const text = Buffer.from(observed.body).toString('utf8');
  const reply = text.length > 0 && observed.headers['content-type'] === 'application/json' ? JSON.parse(text) : undefined;
  const code = reply?.error?.code ?? null;
  expect({ status: e.status, code: e.code, bytesOut: e.bytesOut }).toEqual({ status: observed.status, code: row.expected.code, bytesOut: observed.body.length });
  expect(code).toBe(e.code);
  const served = observed.status < 400 && e.code === null;
  if (served) expect(e.refusal).toBeNull();
  else expect(e.refusal).toMatch(/^[a-z][a-z0-9_]*$/);
  const message: string | undefined = reply?.error?.message ?? reply?.error_description;
  if (message !== undefined && e.refusal !== null) {
    const before = kinds.get(message);
    if (before === undefined) kinds.set(message, e.refusal);
    else expect(e.refusal, `the kind of "${message}"`).toBe(before);
  }
  const sent = bodyBytes(row.request);
  if (served) expect(e.bytesIn).toBe(sent);
  else expect(e.bytesIn).toBeLessThanOrEqual(sent);
  expect(e.totalMs).toBeGreaterThanOrEqual(0);
  expect(e.bodyMs + e.effectsMs + e.coreMs).toBeCloseTo(e.totalMs, 6);
  expect(e.target).toBe('node-javascript');
}
