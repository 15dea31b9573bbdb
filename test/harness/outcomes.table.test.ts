// Self-check of the outcome table against the reference JSON validator and the configured limits, so
// a wrong expectation in the table is caught here rather than blamed on a host.
import { describe, expect, it } from 'vitest';
import { OUTCOMES } from '../support/outcomes.table';
import { PROFILES } from '../support/fixtures';
import { referenceVerdict } from '../support/reference-json';

const bodyBytes = (r: (typeof OUTCOMES)[number]['request']) => {
  const parts = r.chunks ?? (r.body !== undefined ? [r.body] : []);
  return Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));
};

describe('outcome table is self-consistent', () => {
  it('has unique row names', () => {
    const names = OUTCOMES.map((r) => r.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  for (const row of OUTCOMES) {
    const e = row.expected;
    const reachesBody = row.request.method === 'POST' && row.request.path === '/mcp' && ![403, 406, 415].includes(e.status);
    if (!reachesBody || row.request.stall || row.request.fail) continue;
    it(row.name, () => {
      const p = PROFILES[row.profile ?? 'default'] as { limits?: { requestBytes?: number; depth?: number } };
      const limit = p.limits?.requestBytes ?? 65536;
      const body = bodyBytes(row.request);
      if (e.status === 413) {
        expect(body.length).toBeGreaterThan(limit);
        return;
      }
      expect(body.length).toBeLessThanOrEqual(limit);
      const v = referenceVerdict(body, p.limits?.depth ?? 32);
      expect(v.ok, JSON.stringify(v)).toBe(e.code !== -32700);
    });
  }
});
