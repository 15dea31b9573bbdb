// The rate limits of the Fastly Native service on Fastly's Viceroy: Viceroy 0.22.0 answers every
// `fastly_erl` call with a stub (nothing counted, nothing boxed), so what can be checked here is
// that the service makes the calls Edge Rate Limiting needs, in order, with the configured windows
// and the configured names' lengths. Viceroy's hostcall trace (tracing at TRACE, through RUST_LOG)
// shows each call's integers and, for a string, its guest pointer and length, never its text: the
// names themselves are checked on the Node Native host (compute-host-erl.test.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNative, serveViceroy, type ServedViceroy } from '../support/viceroy';
import { rateLimitedConfig, toolCall } from '../support/rate-limited';

const RATE_COUNTER = 'erl_count_rc';
const PENALTY_BOX = 'erl_box';
/** Every entry is a scope tag, a colon and 22 base64url characters. */
const ENTRY_BYTES = 24;

const dir = mkdtempSync(join(tmpdir(), 'pulse-viceroy-erl-'));
let viceroy: ServedViceroy | undefined;

beforeAll(async () => {
  const wasm = join(dir, 'main.wasm');
  // Limits of one: on Fastly the second request would be refused; Viceroy's stubs never count.
  const rateLimit = { requests: { limit: 1, window: 10 }, toolCalls: { limit: 1, window: 20, tools: { costly: { limit: 1, window: 30, penaltyMinutes: 2 } } }, rateCounter: RATE_COUNTER, penaltyBox: PENALTY_BOX };
  await buildNative(rateLimitedConfig(rateLimit), wasm);
  writeFileSync(join(dir, 'fastly.toml'), 'manifest_version = 3\nname = "erl-viceroy"\nlanguage = "rust"\n');
  // Viceroy takes its log filter from RUST_LOG when given; the child inherits it at spawn.
  const before = process.env.RUST_LOG;
  process.env.RUST_LOG = 'viceroy_lib=info,viceroy_lib::wiggle_abi::fastly_erl=trace,viceroy_lib::wiggle_abi::fastly_http_downstream=trace';
  try {
    viceroy = await serveViceroy(join(dir, 'fastly.toml'), wasm);
  } finally {
    if (before === undefined) delete process.env.RUST_LOG;
    else process.env.RUST_LOG = before;
  }
}, 60_000);

afterAll(async () => {
  await viceroy?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The traced hostcalls of each POST /mcp Viceroy handled, in order, strings shown by length. */
function tracedCalls(output: string): string[][] {
  const calls = new Map<string, string[]>();
  for (const line of output.split('\n')) {
    // Viceroy's readiness probe (GET /) is no MCP request: only POST /mcp is followed.
    const head = /request\{id=(\d+)\}: handling request POST http:\/\/[^/]+\/mcp$/.exec(line);
    if (head) calls.set(head[1], []);
    const m = /request\{id=(\d+)\}:wiggle abi\{module="(\w+)" function="(\w+)"\}: (.*)$/.exec(line);
    if (!m || m[4].startsWith('result=') || !calls.has(m[1])) continue;
    const [, id, module, fn, args] = m;
    const shown = module === 'fastly_erl' ? [...args.matchAll(/(\w+)=(?:\*guest 0x[0-9a-f]+\/(\d+)|(\S+))/g)].map(([, k, len, v]) => `${k}=${len ?? v}`) : [];
    calls.get(id)!.push([fn, ...shown].join(' '));
  }
  return [...calls.values()];
}

async function post(name: string, id?: number): Promise<number> {
  const { headers, body } = toolCall(name, id);
  const res = await fetch(`http://127.0.0.1:${viceroy!.port}/mcp`, { method: 'POST', headers, body, signal: AbortSignal.timeout(5000) });
  await res.arrayBuffer();
  return res.status;
}

describe('fastly_erl on Viceroy', () => {
  it('checks the penalty box, then counts and looks up, for each budget a request is charged to', async () => {
    // Past every limit of one, and nothing refused: Viceroy counts nothing.
    expect([await post('hello', 1), await post('costly', 2), await post('costly', 3), await post('hello')]).toEqual([200, 200, 200, 202]);
    const has = `penaltybox_has pb=${PENALTY_BOX.length} entry=${ENTRY_BYTES}`;
    const charge = (window: number) => [`ratecounter_increment rc=${RATE_COUNTER.length} entry=${ENTRY_BYTES} delta=1`, `ratecounter_lookup_count rc=${RATE_COUNTER.length} entry=${ENTRY_BYTES} duration=${window}`];
    // The client's address first (the `requests` budget counts per address), then each budget.
    const requests = ['downstream_client_ip_addr', has, ...charge(10)];
    expect(tracedCalls(viceroy!.output)).toEqual([
      [...requests, has, ...charge(20)],
      [...requests, has, ...charge(30)],
      [...requests, has, ...charge(30)],
      // A notification is never charged to the tool calls: only the penalty box is asked.
      [...requests, has],
    ]);
    expect(viceroy!.output).not.toMatch(/function="penaltybox_add"/);
    expect(viceroy!.output.match(/function="ratecounter_lookup_count"\}: result=Ok\(0\)/g)).toHaveLength(7);
  });
});
