// Self-check of the outcome table: spec/outcomes.json is what the authored rows write, and each row
// agrees with the reference JSON validator and the configured limits, so a wrong expectation is
// caught here rather than blamed on a host or on the core.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OUTCOMES, OUTCOME_PROFILES } from '../support/outcomes';
import { outcomesJson } from '../support/outcomes.data';
import { referenceVerdict } from '../support/reference-json';

const bodyBytes = (r: (typeof OUTCOMES)[number]['request']) => Buffer.concat(r.chunks ?? (r.body !== undefined ? [r.body] : []));

describe('outcome table is self-consistent', () => {
  it('spec/outcomes.json is current (npm run build:outcomes writes it)', () => {
    const committed = readFileSync(path.resolve(__dirname, '..', '..', 'spec', 'outcomes.json'), 'utf8');
    expect(committed === outcomesJson()).toBe(true);
  });

  it('has unique row names', () => {
    const names = OUTCOMES.map((r) => r.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it('names only known profiles', () => {
    expect(OUTCOMES.filter((r) => !(r.profile in OUTCOME_PROFILES)).map((r) => r.name)).toEqual([]);
  });

  for (const row of OUTCOMES) {
    const e = row.expected;
    const reachesBody = row.request.method === 'POST' && row.request.path === '/mcp' && ![403, 406, 415].includes(e.status);
    if (!reachesBody || row.request.stall || row.request.fail) continue;
    it(row.name, () => {
      const p = OUTCOME_PROFILES[row.profile] as { limits?: { requestBytes?: number; depth?: number } };
      const limit = p.limits?.requestBytes ?? 65536;
      const body = bodyBytes(row.request);
      if (e.status === 413) {
        expect(body.length).toBeGreaterThan(limit);
        return;
      }
      if (body.length > limit) {
        // Refused before the limit: the bytes within it are already invalid JSON.
        expect(e.code).toBe(-32700);
        expect(referenceVerdict(body.subarray(0, limit), p.limits?.depth ?? 32).ok).toBe(false);
        return;
      }
      const v = referenceVerdict(body, p.limits?.depth ?? 32);
      expect(v.ok, JSON.stringify(v)).toBe(e.code !== -32700);
    });
  }
});
