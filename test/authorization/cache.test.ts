// The opt-in introspection cache (`authorization.cache`) through the TypeScript driver and the
// Node/Fetch hosts' store: a scripted issuer, a host clock and a wall clock the rows move together.
// Each step asserts the reply's status and whether the issuer was asked.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHostCore, drive, type HttpResult } from '../../src/core/driver';
import { bodyOf } from '../support/body';
import { IntrospectionStore } from '../../src/core/introspection-store';
import { resolveOptions } from '../../src/options';
import { statusBehindIssuer } from '../support/authorization';
import { META, modernHeaders } from '../support/fixtures';

const RESOURCE = 'https://mcp.pulse.test/mcp';
const ISSUER = 'https://id.pulse.test';
const NOW_S = 1_780_000_000;

function options(cache: Record<string, number> | undefined) {
  return statusBehindIssuer({ resource: RESOURCE, issuer: ISSUER, endpoint: 'https://api.pulse.test/rpc', ...(cache === undefined ? {} : { extra: { cache } }) });
}

const claims = (extra: Record<string, unknown> = {}) => JSON.stringify({ active: true, iss: ISSUER, aud: RESOURCE, exp: NOW_S + 60, sub: 'u1', scope: 'mcp:access', ...extra });
const ACTIVE = claims();
const INACTIVE = '{"active":false}';
const EXPIRING = claims({ exp: NOW_S + 5 });
const LATER = claims({ nbf: NOW_S + 2 });

/** [at ms, token, the issuer's status and body, the reply's status, introspected] */
type Step = [number, string, [number, string], number, boolean];
interface Row {
  name: string;
  cache?: Record<string, number>;
  steps: Step[];
}

const rows: Row[] = [
  {
    name: 'a revoked token works until maxAgeMs has passed',
    steps: [
      [0, 'tok-a', [200, ACTIVE], 200, true],
      [9_999, 'tok-a', [200, INACTIVE], 200, false],
      [10_000, 'tok-a', [200, INACTIVE], 401, true],
    ],
  },
  {
    name: 'a token that expires inside maxAgeMs is refused at its exp',
    steps: [
      [0, 'tok-a', [200, EXPIRING], 200, true],
      [4_999, 'tok-a', [200, EXPIRING], 200, false],
      [5_000, 'tok-a', [200, EXPIRING], 401, true],
    ],
  },
  {
    name: "a kept result's nbf is judged at every use",
    steps: [
      [0, 'tok-a', [200, LATER], 401, true],
      [1_999, 'tok-a', [200, LATER], 401, false],
      [2_000, 'tok-a', [200, LATER], 200, false],
    ],
  },
  {
    name: 'two tokens never share an entry',
    steps: [
      [0, 'tok-a', [200, ACTIVE], 200, true],
      [1, 'tok-b', [200, INACTIVE], 401, true],
      [2, 'tok-a', [200, INACTIVE], 200, false],
      [3, 'tok-b', [200, ACTIVE], 401, false],
    ],
  },
  {
    name: 'a verifier failure is never kept',
    steps: [
      [0, 'tok-a', [500, ACTIVE], 503, true],
      [1, 'tok-a', [200, 'not json'], 503, true],
      [2, 'tok-a', [0, 'unreachable'], 503, true],
      [3, 'tok-a', [200, ACTIVE], 200, true],
      [4, 'tok-a', [500, ACTIVE], 200, false],
    ],
  },
  {
    name: 'an inactive result is kept briefly',
    steps: [
      [0, 'tok-a', [200, INACTIVE], 401, true],
      [4_999, 'tok-a', [200, ACTIVE], 401, false],
      [5_000, 'tok-a', [200, ACTIVE], 200, true],
    ],
  },
  {
    name: 'the store keeps at most maxEntries, the least recently used evicted',
    cache: { maxAgeMs: 10_000, maxEntries: 2 },
    steps: [
      [0, 'tok-a', [200, ACTIVE], 200, true],
      [1, 'tok-b', [200, ACTIVE], 200, true],
      [2, 'tok-a', [200, ACTIVE], 200, false],
      [3, 'tok-c', [200, ACTIVE], 200, true],
      [4, 'tok-a', [200, ACTIVE], 200, false],
      [5, 'tok-b', [200, ACTIVE], 200, true],
    ],
  },
  {
    name: 'without the option nothing is kept',
    cache: undefined,
    steps: [
      [0, 'tok-a', [200, ACTIVE], 200, true],
      [1, 'tok-a', [200, ACTIVE], 200, true],
    ],
  },
];

const encoder = new TextEncoder();
const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } });


beforeAll(() => void vi.useFakeTimers({ toFake: ['Date'] }));
afterAll(() => void vi.useRealTimers());

describe('authorization.cache', () => {
  it.each(rows)('$name', async (row) => {
    let clock = 0;
    let issuer: [number, string] = [0, ''];
    let asked = 0;
    const exchange = async (): Promise<HttpResult> => {
      asked++;
      return issuer[0] === 0 ? 'unreachable' : { status: issuer[0], body: encoder.encode(issuer[1]) };
    };
    const cache = 'cache' in row ? row.cache : { maxAgeMs: 10_000 };
    const host = createHostCore(resolveOptions(options(cache)), { exchange, now: () => clock });
    const got: [number, boolean][] = [];
    for (const [at, token, answer] of row.steps) {
      clock = at;
      vi.setSystemTime(NOW_S * 1000 + at);
      issuer = answer;
      const before = asked;
      const headers = [...modernHeaders('tools/list'), ['authorization', `Bearer ${token}`]].flat();
      const outcome = await drive(host, { method: 'POST', target: '/mcp', headers }, bodyOf(LIST), undefined);
      got.push([outcome.response.status, asked > before]);
    }
    expect(got).toEqual(row.steps.map(([, , , status, introspected]) => [status, introspected]));
  });

  it('the store stays within maxEntries and maxBytes, evicting the least recently used', () => {
    let now = 0;
    const store = new IntrospectionStore(3, 25, () => now);
    const put = (key: string, value: string, ttlMs = 100) => store.set({ key, value, ttlMs });
    put('a', '123456789');
    put('b', '123456789');
    expect(store.get('a')).toBe('123456789');
    put('c', '123456789'); // 30 bytes > 25: b, the least recently used, goes
    expect([store.get('b'), store.size]).toEqual([undefined, { entries: 2, bytes: 20 }]);
    put('d', '1');
    put('e', '1'); // a fourth entry: a, now the least recently used, goes
    expect([store.get('a'), store.get('c'), store.size]).toEqual([undefined, '123456789', { entries: 3, bytes: 14 }]);
    put('big', 'x'.repeat(25)); // larger than the whole store: never kept
    expect([store.get('big'), store.size.entries]).toEqual([undefined, 3]);
    now = 100;
    expect([store.get('c'), store.size]).toEqual([undefined, { entries: 2, bytes: 4 }]);
  });

  it('the option is checked where it is written', () => {
    for (const [cache, message] of [
      [{ maxAgeMs: 0 }, 'authorization.cache.maxAgeMs: must be an integer from 1 to 60000'],
      [{ maxAgeMs: 60_001 }, 'authorization.cache.maxAgeMs: must be an integer from 1 to 60000'],
      [{ maxAgeMs: 1, maxEntries: 0 }, 'authorization.cache.maxEntries: must be an integer from 1 to 1000000'],
      [{ maxAgeMs: 1, maxBytes: 1 }, 'authorization.cache.maxBytes: must be an integer from 65536 to 1073741824'],
    ] as const) {
      expect(() => createHostCore(resolveOptions(options(cache)))).toThrow(message);
    }
  });
});
