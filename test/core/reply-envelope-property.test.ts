// Property test of the envelope rules for a catalog backend's reply, through the real core and the
// TypeScript driver: one `tools/call` of an rpc-backed tool, whose one HTTP exchange answers with a
// generated reply. The three valid replies (a result at 200, an execution failure at 200, invalid
// params at 400) are accepted whatever their member order and spelling (escapes decode to the same
// text); a reply that differs from one of them in one place (the id's type or value, the jsonrpc
// value, result and error both or neither, a foreign member) is refused as the same 502, and the
// backend's words never reach the client.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drive, type BodySource } from '../../src/core/driver';
import { Engine } from '../../src/core/engine';

const SEED = Number(process.env.PULSE_PROPERTY_SEED ?? 20261204) || undefined;
const CODEC = [['string', 0, 8], ['i32', -10, 10], ['object', 0, [['s', 0, 0], ['n', 1, 1]]]];
const engine = Engine.create(
  JSON.stringify({
    tools: {
      formatVersion: 1,
      routerId: 't',
      catalogHash: 'sha256:0',
      deadlineMs: 3000,
      list: JSON.stringify([{ name: 'remote', inputSchema: { type: 'object' } }]),
      tools: [{ name: 'remote', input: CODEC, output: CODEC, handler: { kind: 'rpc', backend: 'api', url: 'https://api.example/rpc', maxBytes: 1000 } }],
      corpora: {},
    },
  }),
);
const CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: {
    name: 'remote',
    arguments: { s: 'a' },
    _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
  },
});
const HEADERS = ['accept', 'application/json, text/event-stream', 'content-type', 'application/json', 'mcp-protocol-version', '2026-07-28', 'mcp-method', 'tools/call', 'mcp-name', 'remote'];
const META = '"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"pulse-mcp","version":"1.0.0-beta.10"}}';
const failedWith = (text: string) => `{"jsonrpc":"2.0","id":7,"result":{"resultType":"complete","content":[{"type":"text","text":"${text}"}],"isError":true,${META}}}`;
const REFUSED = { status: 502, body: '{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"Backend request failed"}}' };
const CANARY = 'zq7canary';

/** A reply as members of raw JSON text, so that spellings and member order stay under control. */
interface Reply {
  readonly status: number;
  readonly members: readonly (readonly [name: string, value: string])[];
}
interface Valid extends Reply {
  readonly want: { readonly status: number; readonly body: string };
}

const VALID: readonly Valid[] = [
  {
    status: 200,
    members: [['jsonrpc', '"2.0"'], ['id', '1'], ['result', '{"s":"b","n":3}']],
    want: { status: 200, body: `{"jsonrpc":"2.0","id":7,"result":{"resultType":"complete","content":[{"type":"text","text":"{\\"s\\":\\"b\\",\\"n\\":3}"}],"structuredContent":{"s":"b","n":3},"isError":false,${META}}}` },
  },
  {
    status: 200,
    members: [['jsonrpc', '"2.0"'], ['id', '1'], ['error', `{"code":-32000,"message":"${CANARY}"}`]],
    want: { status: 200, body: failedWith('Tool execution failed') },
  },
  {
    status: 400,
    members: [['jsonrpc', '"2.0"'], ['id', '1'], ['error', `{"code":-32602,"message":"Invalid params","data":{"path":"$.s","reason":"${CANARY}"}}`]],
    want: { status: 200, body: failedWith('Input validation failed') },
  },
];

/** Another spelling of the same string: some characters as `\uXXXX` escapes. */
const respell = (text: string, mask: readonly boolean[]) =>
  `"${[...text].map((c, i) => (mask[i % mask.length] ? escaped(c) : JSON.stringify(c).slice(1, -1))).join('')}"`;
const escaped = (c: string) => Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');
const spelling = fc.array(fc.boolean(), { minLength: 1, maxLength: 8 });
/** A permutation of the members, and per member the escapes of its name (and of the jsonrpc value). */
const layout = fc.record({ order: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }), masks: fc.array(spelling, { minLength: 8, maxLength: 8 }) });
type Layout = { order: number[]; masks: boolean[][] };

function text(r: Reply, l: Layout): string {
  const ranked = r.members.map((m, i) => ({ m, rank: l.order[i % l.order.length], i }));
  ranked.sort((a, b) => a.rank - b.rank || a.i - b.i);
  const spelt = (name: string, value: string, mask: boolean[]) => (name === 'jsonrpc' && value === '"2.0"' ? respell('2.0', mask) : value);
  return `{${ranked.map(({ m: [name, value], i }) => `${respell(name, l.masks[i % l.masks.length])}:${spelt(name, value, l.masks[(i + 1) % l.masks.length])}`).join(',')}}`;
}

const without = (r: Reply, name: string): Reply['members'] => r.members.filter(([n]) => n !== name);
const replacing = (r: Reply, name: string, value: string | undefined): Reply['members'] =>
  value === undefined ? without(r, name) : r.members.map(([n, v]) => [n, n === name ? value : v] as const);

/** Every id but the request's `1` spelt as the request spelt it. */
const wrongId = fc.oneof(
  fc.constantFrom(undefined, 'null', 'true', 'false', '"1"', '""', '[1]', '{}', '{"id":1}', '1.0', '1e0', '10e-1', '1.5', '0', '-0', '-1', '2', '9007199254740993'),
  fc.integer().filter((n) => n !== 1).map(String),
  fc.string({ unit: 'grapheme', maxLength: 6 }).map((s) => JSON.stringify(s)),
);
/** Every jsonrpc but "2.0". */
const wrongVersion = fc.oneof(
  fc.constantFrom(undefined, 'null', '2', '2.0', 'true', '["2.0"]', '"2"', '"1.0"', '"2.00"', '" 2.0"', '"2.0 "', '"2.0\\u0000"', '"3.0"', '""'),
  fc
    .string({ unit: 'grapheme', maxLength: 6 })
    .filter((s) => s !== '2.0')
    .map((s) => JSON.stringify(s)),
);
/** A member the reply envelope does not have (a decoded name other than the four). */
const foreignName = fc.oneof(
  fc.constantFrom('Id', 'ID', 'Result', 'errors', 'method', 'params', 'data', 'code', 'message', 'jsonrpc ', ' id', ''),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
).filter((n) => !['jsonrpc', 'id', 'result', 'error'].includes(n));

/** A reply one place away from `VALID[base]`. */
const broken: fc.Arbitrary<{ reply: Reply; place: string }> = fc.nat({ max: VALID.length - 1 }).chain((base) => {
  const v = VALID[base];
  const isResult = v.members.some(([n]) => n === 'result');
  return fc.oneof(
    wrongId.map((id) => ({ reply: { status: v.status, members: replacing(v, 'id', id) }, place: `id ${id ?? 'absent'}` })),
    wrongVersion.map((j) => ({ reply: { status: v.status, members: replacing(v, 'jsonrpc', j) }, place: `jsonrpc ${j ?? 'absent'}` })),
    fc.constant({
      reply: { status: v.status, members: [...v.members, isResult ? (['error', '{"code":-32000,"message":"x"}'] as const) : (['result', '{"s":"b"}'] as const)] },
      place: 'result and error',
    }),
    fc.constant({ reply: { status: v.status, members: without(v, isResult ? 'result' : 'error') }, place: 'neither result nor error' }),
    fc.tuple(foreignName, fc.jsonValue({ maxDepth: 2 })).map(([name, value]) => ({
      reply: { status: v.status, members: [...v.members, [name, JSON.stringify(value) ?? 'null'] as const] },
      place: `member ${JSON.stringify(name)}`,
    })),
  );
});

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The call through the core; the backend answers `status` with `body`. */
async function call(status: number, body: string): Promise<{ status: number; body: string; exchanges: number }> {
  let sent = false;
  const source: BodySource = {
    read: () => Promise.resolve(sent ? { done: true } : ((sent = true), { done: false, chunk: encoder.encode(CALL) })),
    cancel: () => undefined,
  };
  let exchanges = 0;
  const exchange = () => {
    exchanges++;
    return Promise.resolve({ status, body: encoder.encode(body) });
  };
  const { response } = await drive({ engine, requestBytes: 1 << 20, handlers: undefined, exchange }, { method: 'POST', target: '/mcp', headers: HEADERS }, source, undefined);
  return { status: response.status, body: decoder.decode(response.body), exchanges };
}

describe('a catalog backend reply envelope', () => {
  it('is accepted in any member order and spelling when it is one of the three valid replies', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: VALID.length - 1 }), layout, async (base, l) => {
        const v = VALID[base];
        const body = text(v, l);
        expect(await call(v.status, body), body).toEqual({ ...v.want, exchanges: 1 });
      }),
      { seed: SEED, numRuns: 150 },
    );
  });

  it('is refused as 502 when it differs from a valid reply in one place', async () => {
    await fc.assert(
      fc.asyncProperty(broken, layout, async ({ reply, place }, l) => {
        const body = text(reply, l);
        expect(await call(reply.status, body), `${place}: ${body}`).toEqual({ ...REFUSED, exchanges: 1 });
      }),
      { seed: SEED, numRuns: 400 },
    );
  });
});
