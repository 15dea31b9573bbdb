// Edge Rate Limiting (`fastly_erl`) in the Node Native host: the store on its own (erl.mjs), the
// hostcalls' argument checks from a guest, and the Native service configured with `rateLimit`
// answering real HTTP requests from distinct loopback addresses (Linux routes all of 127.0.0.0/8 to
// loopback) while the test moves the host's clock.
import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../src/cli/compute-host/host.mjs';
import { ErlInvalid, ErlStore } from '../../src/cli/compute-host/erl.mjs';
import { buildNative } from '../support/viceroy';
import { assemble } from '../support/wat';
import { rateEntry, rateLimitedConfig, toolCall } from '../support/rate-limited';

const dir = mkdtempSync(join(tmpdir(), 'pulse-host-erl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const TOML = join(dir, 'fastly.toml');
writeFileSync(TOML, 'manifest_version = 3\nname = "erl-test"\nlanguage = "other"\n');

/** A quarter second into a whole second. */
const T0 = Date.UTC(2026, 0, 1) + 250;

describe('the store', () => {
  const at = (start = T0) => {
    const clock = { now: start };
    return { clock, store: new ErlStore({ clock: () => clock.now }) };
  };

  it('counts per wall-clock second: a window is the current second and the ones before it', () => {
    const { clock, store } = at();
    store.ratecounterIncrement('rc', 'e', 2);
    clock.now = T0 + 5_650; // second 5, 0.9 s into it
    store.ratecounterIncrement('rc', 'e', 1);
    expect(store.ratecounterLookupCount('rc', 'e', 10)).toBe(3);
    clock.now = T0 + 9_749; // the last millisecond of second 9: still ten seconds from second 0
    expect(store.ratecounterLookupCount('rc', 'e', 10)).toBe(3);
    clock.now = T0 + 9_750; // second 10: second 0 has left the 10 s window, not the 20 s one
    expect(store.ratecounterLookupCount('rc', 'e', 10)).toBe(1);
    expect(store.ratecounterLookupCount('rc', 'e', 20)).toBe(3);
    clock.now = T0 + 65_000; // second 65: both increments are over a minute old
    expect(store.ratecounterLookupCount('rc', 'e', 60)).toBe(0);
    expect(store.sizes.counters).toBe(0);
  });

  it('counts an increment in its own second when the wall clock steps back', () => {
    const { clock, store } = at(T0 + 3_000);
    store.ratecounterIncrement('rc', 'e', 1);
    clock.now = T0 + 1_000;
    store.ratecounterIncrement('rc', 'e', 2);
    clock.now = T0;
    store.ratecounterIncrement('rc', 'e', 4);
    clock.now = T0 + 1_000;
    store.ratecounterIncrement('rc', 'e', 8);
    expect(store.ratecounterLookupCount('rc', 'e', 10)).toBe(14);
    clock.now = T0 + 3_000;
    expect(store.ratecounterLookupCount('rc', 'e', 10)).toBe(15);
    expect(store.sizes.buckets).toBe(3);
    clock.now = T0 + 10_000; // second 10: the 4 of second 0 have left the window
    expect(store.ratecounterLookupCount('rc', 'e', 10)).toBe(11);
  });

  it('answers a rate as the window sum per second, truncated', () => {
    const { clock, store } = at();
    store.ratecounterIncrement('rc', 'e', 25);
    expect([1, 10, 60].map((w) => store.ratecounterLookupRate('rc', 'e', w))).toEqual([25, 2, 0]);
    clock.now += 1000;
    expect([1, 10, 60].map((w) => store.ratecounterLookupRate('rc', 'e', w))).toEqual([0, 2, 0]);
  });

  it('keeps counters and boxes apart by name and entry', () => {
    const { store } = at();
    store.ratecounterIncrement('a', 'bc', 1);
    expect(store.ratecounterLookupCount('ab', 'c', 10)).toBe(0);
    expect(store.ratecounterLookupCount('a', 'bc', 10)).toBe(1);
    store.penaltyboxAdd('a', 'bc', 60);
    expect(store.penaltyboxHas('ab', 'c')).toBe(0);
    expect(store.penaltyboxHas('a', 'bc')).toBe(1);
  });

  it('refuses what Fastly refuses with ErlInvalid, before counting anything', () => {
    const { store } = at();
    const invalid = (f: () => unknown) => expect(f).toThrow(ErlInvalid);
    for (const d of [0, 1, 5, 15, 61, 70]) invalid(() => store.ratecounterLookupCount('rc', 'e', d));
    for (const d of [10, 20, 30, 40, 50, 60]) expect(store.ratecounterLookupCount('rc', 'e', d)).toBe(0);
    for (const w of [0, 2, 30, 59]) invalid(() => store.ratecounterLookupRate('rc', 'e', w));
    invalid(() => store.ratecounterIncrement('rc', 'e', 1001));
    store.ratecounterIncrement('rc', 'e', 1000);
    // 256 bytes, in two-byte characters, is the most an entry or a name may be.
    const max = 'é'.repeat(128);
    store.ratecounterIncrement(max, max, 1);
    expect(store.ratecounterLookupCount(max, max, 10)).toBe(1);
    invalid(() => store.ratecounterIncrement('rc', `${max}a`, 1));
    invalid(() => store.ratecounterIncrement(`${max}a`, 'e', 1));
    invalid(() => store.penaltyboxAdd('pb', `${max}a`, 60));
    invalid(() => store.penaltyboxHas(`${max}a`, 'e'));
    invalid(() => store.checkRate('rc', 'x', 1, 1, 9, 'pb', 60));
    invalid(() => store.checkRate('rc', 'x', 100_001, 1, 10, 'pb', 60));
    invalid(() => store.checkRate('rc', 'x', 1, 10, 10, 'pb', 59));
    expect(store.ratecounterLookupCount('rc', 'x', 60)).toBe(0);
    expect(store.ratecounterLookupCount('rc', 'e', 60)).toBe(1000);
    expect(() => store.hostcall('ratecounter_decrement' as never, [])).toThrow(/no such call/);
  });

  it('keeps a penalty for whole minutes, 1 to 60, the TTL truncated to the minute', () => {
    const { clock, store } = at();
    for (const ttl of [0, 59, 3660, 0xffffffff]) expect(() => store.penaltyboxAdd('pb', `t${ttl}`, ttl)).toThrow(ErlInvalid);
    store.penaltyboxAdd('pb', 'one', 119);
    store.penaltyboxAdd('pb', 'hour', 3659);
    clock.now = T0 + 59_999;
    expect(store.penaltyboxHas('pb', 'one')).toBe(1);
    clock.now = T0 + 60_000;
    expect(store.penaltyboxHas('pb', 'one')).toBe(0);
    clock.now = T0 + 3_599_999;
    expect(store.penaltyboxHas('pb', 'hour')).toBe(1);
    clock.now = T0 + 3_600_000;
    expect(store.penaltyboxHas('pb', 'hour')).toBe(0);
    expect(store.sizes).toEqual({ counters: 0, buckets: 0, boxed: 0, expiries: 0 });
  });

  it('replaces the TTL of an entry added again, shorter or longer', () => {
    const { clock, store } = at();
    store.penaltyboxAdd('pb', 'e', 600);
    store.penaltyboxAdd('pb', 'e', 60);
    clock.now = T0 + 60_000;
    expect(store.penaltyboxHas('pb', 'e')).toBe(0);
    store.penaltyboxAdd('pb', 'e', 60);
    store.penaltyboxAdd('pb', 'e', 120);
    clock.now += 119_999;
    expect(store.penaltyboxHas('pb', 'e')).toBe(1);
  });

  it('checks a rate: counts, boxes past the limit and answers whether the entry is boxed', () => {
    const { clock, store } = at();
    expect(store.checkRate('rc', 'e', 10, 1, 10, 'pb', 60)).toBe(0);
    expect(store.penaltyboxHas('pb', 'e')).toBe(0);
    expect(store.checkRate('rc', 'e', 1, 1, 10, 'pb', 60)).toBe(1);
    expect(store.penaltyboxHas('pb', 'e')).toBe(1);
    expect(store.ratecounterLookupCount('rc', 'e', 10)).toBe(11);
    clock.now += 1000;
    // Under the limit again, and still boxed.
    expect(store.checkRate('rc', 'e', 0, 1, 10, 'pb', 60)).toBe(1);
    clock.now = T0 + 60_000;
    expect(store.checkRate('rc', 'e', 0, 1, 10, 'pb', 60)).toBe(0);
  });

  it('evicts the smallest remaining TTL from a full box, the least recently incremented from a full counter', () => {
    const clock = { now: T0 };
    const store = new ErlStore({ clock: () => clock.now, boxCapacity: 3, counterCapacity: 2 });
    store.penaltyboxAdd('pb', 'three', 180);
    store.penaltyboxAdd('pb', 'one', 60);
    store.penaltyboxAdd('pb', 'two', 120);
    store.penaltyboxAdd('pb', 'one', 300); // now five minutes: `two` has the least left
    store.penaltyboxAdd('pb', 'four', 240);
    expect(['one', 'two', 'three', 'four'].map((e) => store.penaltyboxHas('pb', e))).toEqual([1, 0, 1, 1]);
    store.ratecounterIncrement('rc', 'x', 1);
    store.ratecounterIncrement('rc', 'y', 1);
    store.ratecounterLookupCount('rc', 'x', 10); // a lookup is no increment
    store.ratecounterIncrement('rc', 'x', 1);
    store.ratecounterIncrement('rc', 'z', 1);
    expect(['x', 'y', 'z'].map((e) => store.ratecounterLookupCount('rc', e, 10))).toEqual([2, 0, 1]);
    expect(store.sizes).toMatchObject({ counters: 2, boxed: 3 });
  });

  it('stays flat over a long soak and empties once idle', () => {
    const { clock, store } = at();
    const seen: (typeof store.sizes)[] = [];
    for (let s = 0; s < 3600; s++) {
      clock.now = T0 + s * 1000;
      for (let i = 0; i < 20; i++) {
        store.ratecounterIncrement('rc', `e${s}.${i}`, 1);
        if (i < 5) store.penaltyboxAdd('pb', `e${s}.${i}`, 60);
      }
      for (let i = 0; i < 5; i++) store.ratecounterIncrement('rc', 'hot', 1);
      store.penaltyboxAdd('pb', 'again', 60 * (1 + (s % 60)));
      if (s % 600 === 599) seen.push(store.sizes);
    }
    // A minute of entries: 60 seconds of 20 counted and 5 boxed, one bucket for each second of the
    // entry counted every second, and the one boxed again and again.
    for (const sizes of seen) expect(sizes).toMatchObject({ counters: 1201, buckets: 1260, boxed: 301 });
    for (const sizes of seen) expect(sizes.expiries).toBeLessThanOrEqual(2 * 301 + 1024);
    clock.now += 3_600_000;
    expect(store.sizes).toEqual({ counters: 0, buckets: 0, boxed: 0, expiries: 0 });
  });
});


/**
 * A guest answering 600 + 10 × the status of `call` + the u32 it wrote at 1000. Memory: "pb" at 200,
 * "rc" at 210, an invalid UTF-8 byte at 220, 256 "a" at 300 (257 from 299, whose byte is "a" too).
 */
const guest = (call: string) => `(module
  (import "fastly_erl" "check_rate" (func $check (param i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32) (result i32)))
  (import "fastly_erl" "ratecounter_increment" (func $inc (param i32 i32 i32 i32 i32) (result i32)))
  (import "fastly_erl" "ratecounter_lookup_rate" (func $rate (param i32 i32 i32 i32 i32 i32) (result i32)))
  (import "fastly_erl" "ratecounter_lookup_count" (func $count (param i32 i32 i32 i32 i32 i32) (result i32)))
  (import "fastly_erl" "penaltybox_add" (func $add (param i32 i32 i32 i32 i32) (result i32)))
  (import "fastly_erl" "penaltybox_has" (func $has (param i32 i32 i32 i32 i32) (result i32)))
  (import "fastly_http_req" "body_downstream_get" (func $dget (param i32 i32) (result i32)))
  (import "fastly_http_resp" "new" (func $rnew (param i32) (result i32)))
  (import "fastly_http_resp" "status_set" (func $sset (param i32 i32) (result i32)))
  (import "fastly_http_resp" "send_downstream" (func $send (param i32 i32 i32) (result i32)))
  (import "fastly_http_body" "new" (func $bnew (param i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 200) "pb")
  (data (i32.const 210) "rc")
  (data (i32.const 220) "\\ff")
  (data (i32.const 299) "${'a'.repeat(257)}")
  (func (export "_start") (local $code i32)
    (local.set $code (i32.add (i32.const 600) (i32.mul (i32.const 10) ${call})))
    (local.set $code (i32.add (local.get $code) (i32.load (i32.const 1000))))
    (drop (call $dget (i32.const 100) (i32.const 104)))
    (drop (call $rnew (i32.const 108)))
    (drop (call $sset (i32.load (i32.const 108)) (local.get $code)))
    (drop (call $bnew (i32.const 112)))
    (drop (call $send (i32.load (i32.const 108)) (i32.load (i32.const 112)) (i32.const 0)))))`;

describe('the hostcalls', () => {
  const clock = { now: T0 };
  /** The guest's status, and the store of the host that served it. */
  async function run(call: string): Promise<{ status: number; erl: ErlStore }> {
    const h = await startHost({ wasm: assemble(dir, guest(call)), toml: TOML, addr: '127.0.0.1:0', workers: 1, clock: () => clock.now });
    try {
      return { status: (await fetch(`${h.url}/`, { signal: AbortSignal.timeout(5000) })).status, erl: h.erl };
    } finally {
      await h.close();
    }
  }
  const statusOf = async (call: string) => (await run(call)).status;

  it('counts, looks up and boxes through the ABI', async () => {
    // check_rate: 11 in one second over a limit of 10 per second boxes "a" for a minute; blocked = 1.
    const checked = await run('(call $check (i32.const 210) (i32.const 2) (i32.const 300) (i32.const 1) (i32.const 11) (i32.const 1) (i32.const 10) (i32.const 200) (i32.const 2) (i32.const 60) (i32.const 1000))');
    expect(checked.status).toBe(601);
    expect([checked.erl.penaltyboxHas('pb', 'a'), checked.erl.ratecounterLookupCount('rc', 'a', 10)]).toEqual([1, 11]);
    const long = 'a'.repeat(256);
    const counted = await run('(call $inc (i32.const 210) (i32.const 2) (i32.const 300) (i32.const 256) (i32.const 7))');
    expect([counted.status, counted.erl.ratecounterLookupCount('rc', long, 60)]).toEqual([600, 7]);
    const inc = '(drop (call $inc (i32.const 210) (i32.const 2) (i32.const 300) (i32.const 256) (i32.const 7)))';
    expect(await statusOf(`(block (result i32) ${inc} (call $count (i32.const 210) (i32.const 2) (i32.const 300) (i32.const 256) (i32.const 60) (i32.const 1000)))`)).toBe(607);
    expect(await statusOf(`(block (result i32) ${inc} (call $rate (i32.const 210) (i32.const 2) (i32.const 300) (i32.const 256) (i32.const 1) (i32.const 1000)))`)).toBe(607);
    // An empty entry is an entry.
    const boxed = await run('(call $add (i32.const 200) (i32.const 2) (i32.const 220) (i32.const 0) (i32.const 120))');
    expect([boxed.status, boxed.erl.penaltyboxHas('pb', '')]).toEqual([600, 1]);
    expect(await statusOf('(block (result i32) (drop (call $add (i32.const 200) (i32.const 2) (i32.const 300) (i32.const 1) (i32.const 60))) (call $has (i32.const 200) (i32.const 2) (i32.const 300) (i32.const 1) (i32.const 1000)))')).toBe(601);
  });

  it('answers inval (2) for invalid UTF-8, 257 bytes, a duration, window or TTL Fastly does not take', async () => {
    const inval = 620;
    expect(await statusOf('(call $has (i32.const 200) (i32.const 2) (i32.const 220) (i32.const 1) (i32.const 1000))')).toBe(inval);
    expect(await statusOf('(call $inc (i32.const 220) (i32.const 1) (i32.const 300) (i32.const 1) (i32.const 1))')).toBe(inval);
    expect(await statusOf('(call $inc (i32.const 210) (i32.const 2) (i32.const 299) (i32.const 257) (i32.const 1))')).toBe(inval);
    expect(await statusOf('(call $count (i32.const 210) (i32.const 2) (i32.const 300) (i32.const 1) (i32.const 15) (i32.const 1000))')).toBe(inval);
    expect(await statusOf('(call $rate (i32.const 210) (i32.const 2) (i32.const 300) (i32.const 1) (i32.const 30) (i32.const 1000))')).toBe(inval);
    expect(await statusOf('(call $add (i32.const 200) (i32.const 2) (i32.const 300) (i32.const 1) (i32.const 59))')).toBe(inval);
    // A negative i32 is a large u32: past the hour.
    expect(await statusOf('(call $add (i32.const 200) (i32.const 2) (i32.const 300) (i32.const 1) (i32.const -60))')).toBe(inval);
  });
});

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** POST /mcp from the loopback address `from`, on a connection of its own. */
function post(host: RunningHost, from: string, { headers, body }: { headers: [string, string][]; body: string }): Promise<Reply> {
  return new Promise((ok, fail) => {
    const req = http.request({ host: '127.0.0.1', port: host.port, path: '/mcp', method: 'POST', localAddress: from, agent: false, headers: Object.fromEntries(headers), timeout: 5000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('timeout', () => req.destroy(new Error('no answer in 5 s')));
    req.on('error', fail);
    req.end(body);
  });
}

const statuses = async (host: RunningHost, from: string, n: number, name = 'hello') => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await post(host, from, toolCall(name, i + 1))).status);
  return out;
};

const limited = (id: string | number | null, retryAfterMs: number) =>
  JSON.stringify({ jsonrpc: '2.0', ...(id === null ? {} : { id }), error: { code: -32023, message: 'Rate limited', data: { retryAfterMs } } });

describe('the Native service with rateLimit.requests', () => {
  // Three requests per address in 10 s; the fourth boxes the address for a minute.
  const clock = { now: T0 };
  let host: RunningHost;
  beforeAll(async () => {
    const wasm = join(dir, 'requests.wasm');
    await buildNative(rateLimitedConfig({ requests: { limit: 3, window: 10, penaltyMinutes: 1 }, rateCounter: 'erl_requests', penaltyBox: 'erl_penalties' }), wasm);
    host = await startHost({ wasm, toml: TOML, addr: '127.0.0.1:0', workers: 2, clock: () => clock.now });
  }, 60_000);
  afterAll(() => host?.close());
  // Every test starts two hours after the last: nothing counted before is left.
  const fresh = () => (clock.now += 7_200_000);

  it('admits up to the limit and answers the next 429 with Retry-After and the JSON-RPC error', async () => {
    fresh();
    expect(await statuses(host, '127.0.0.2', 3)).toEqual([200, 200, 200]);
    const entry = rateEntry('r', '127.0.0.2');
    expect(host.erl.ratecounterLookupCount('erl_requests', entry, 10)).toBe(3);
    const r = await post(host, '127.0.0.2', toolCall('hello', 4));
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBe('60');
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers['content-type']).toBe('application/json');
    // Refused at the head, before the body was read: no id.
    expect(r.body).toBe(limited(null, 60_000));
    expect(host.erl.penaltyboxHas('erl_penalties', entry)).toBe(1);
    expect(host.erl.penaltyboxHas('pulse_mcp', entry)).toBe(0);
  });

  it('shares the count between the workers', async () => {
    fresh();
    // The two workers take requests in turn (each finished one goes to the back of the idle line):
    // these four alternate, and the fourth is refused only if both workers count in one store.
    expect(await statuses(host, '127.0.0.3', 4)).toEqual([200, 200, 200, 429]);
  });

  it('keeps a boxed address refused past the window, and admits it once the penalty is over', async () => {
    fresh();
    const boxedAt = clock.now;
    expect(await statuses(host, '127.0.0.4', 4)).toEqual([200, 200, 200, 429]);
    clock.now = boxedAt + 30_000; // the window has rolled over; the box still holds
    expect(host.erl.ratecounterLookupCount('erl_requests', rateEntry('r', '127.0.0.4'), 10)).toBe(0);
    expect(await statuses(host, '127.0.0.4', 1)).toEqual([429]);
    clock.now = boxedAt + 59_999;
    expect(await statuses(host, '127.0.0.4', 1)).toEqual([429]);
    clock.now = boxedAt + 60_000;
    expect(await statuses(host, '127.0.0.4', 4)).toEqual([200, 200, 200, 429]);
  });

  it('counts a window of the current second and the nine before it', async () => {
    const start = fresh();
    expect(await statuses(host, '127.0.0.5', 3)).toEqual([200, 200, 200]);
    clock.now = start + 9_700; // the tenth second: the first three still count
    expect(await statuses(host, '127.0.0.5', 1)).toEqual([429]);
    const again = fresh();
    expect(await statuses(host, '127.0.0.6', 3)).toEqual([200, 200, 200]);
    clock.now = again + 10_000; // the eleventh second: they have rolled out
    expect(await statuses(host, '127.0.0.6', 4)).toEqual([200, 200, 200, 429]);
  });

  it('counts two client addresses apart', async () => {
    fresh();
    expect(await statuses(host, '127.0.0.7', 4)).toEqual([200, 200, 200, 429]);
    expect(await statuses(host, '127.0.0.8', 3)).toEqual([200, 200, 200]);
    expect(await statuses(host, '127.0.0.7', 1)).toEqual([429]);
  });
});

describe('the Native service with rateLimit.toolCalls', () => {
  // Two calls per caller in 10 s; `costly` one in 20 s on its own budget, boxing for two minutes.
  const clock = { now: T0 };
  let host: RunningHost;
  beforeAll(async () => {
    const wasm = join(dir, 'calls.wasm');
    await buildNative(rateLimitedConfig({ toolCalls: { limit: 2, window: 10, tools: { costly: { limit: 1, window: 20, penaltyMinutes: 2 } } }, rateCounter: 'erl_calls', penaltyBox: 'erl_box' }), wasm);
    host = await startHost({ wasm, toml: TOML, addr: '127.0.0.1:0', workers: 2, clock: () => clock.now });
  }, 60_000);
  afterAll(() => host?.close());

  it("counts a tool's own budget apart, and answers with the call's id", async () => {
    expect((await post(host, '127.0.0.2', toolCall('costly', 1))).status).toBe(200);
    const r = await post(host, '127.0.0.2', toolCall('costly', 2));
    expect([r.status, r.headers['retry-after'], r.headers['cache-control'], r.body]).toEqual([429, '120', 'no-store', limited(2, 120_000)]);
    expect(host.erl.penaltyboxHas('erl_box', rateEntry('t', '127.0.0.2', 'costly'))).toBe(1);
    expect(await statuses(host, '127.0.0.2', 2)).toEqual([200, 200]);
    const over = await post(host, '127.0.0.2', toolCall('hello', 'third'));
    expect([over.status, over.headers['retry-after'], over.body]).toEqual([429, '60', limited('third', 60_000)]);
  });

  it('never charges a notification, and refuses one with 429 and no body while the caller is boxed', async () => {
    for (let i = 0; i < 3; i++) expect((await post(host, '127.0.0.3', toolCall('hello'))).status).toBe(202);
    expect(host.erl.ratecounterLookupCount('erl_calls', rateEntry('c', '127.0.0.3'), 10)).toBe(0);
    expect(await statuses(host, '127.0.0.3', 3)).toEqual([200, 200, 429]);
    const r = await post(host, '127.0.0.3', toolCall('hello'));
    expect([r.status, r.headers['retry-after'], r.headers['cache-control'], r.body]).toEqual([429, '60', 'no-store', '']);
  });
});
