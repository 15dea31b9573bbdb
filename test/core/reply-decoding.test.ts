// Reply records decoded from the core's memory: a head decoded once is reused while the bytes repeat,
// so heads of the same length that differ in one byte must still read as themselves.
import { describe, expect, it } from 'vitest';
import { Engine, type HostFault } from '../../src/core/engine';

const FAULTS: readonly [HostFault | 'internal', number][] = [
  ['bodyInterrupted', 408],
  ['malformedFraming', 400],
  ['headTooLarge', 431],
  ['internal', 500],
];

describe('reply heads', () => {
  it('read as their own bytes in any order, including same-length heads one byte apart', () => {
    const engine = Engine.create('{}');
    const first = new Map(FAULTS.map(([kind]) => [kind, engine.fault(kind)]));
    for (let round = 0; round < 3; round++) {
      for (const [kind, status] of round % 2 === 0 ? FAULTS : [...FAULTS].reverse()) {
        const reply = engine.fault(kind);
        expect(reply.status).toBe(status);
        expect(reply).toEqual(first.get(kind));
        // 408 and 400 heads have the same length and differ in their status bytes only.
        expect(reply.headers.some(([name]) => name === 'content-type')).toBe(status !== 431);
      }
    }
  });

  it('are shared read-only: a host cannot change what the next reply says', () => {
    const engine = Engine.create('{}');
    const reply = engine.fault('malformedFraming');
    expect(() => (reply.headers as [string, string][]).push(['x-injected', '1'])).toThrow(TypeError);
    expect(() => ((reply.headers[0] as unknown as string[])[1] = 'text/html')).toThrow(TypeError);
    expect(engine.fault('malformedFraming').headers).toEqual(reply.headers);
    expect(engine.fault('malformedFraming').headers.some(([name]) => name === 'x-injected')).toBe(false);
  });
});
