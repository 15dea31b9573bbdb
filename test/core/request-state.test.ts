// The core's SHA-256 and HMAC-SHA256 (native/core/src/hmac.rs, no crates) checked against Node's
// crypto through the public surface: every `requestState` the core issues is
// base64url(payload) "." base64url(HMAC-SHA256(key, first part)), and the payload binds the state to
// SHA-256("tools/call" 0 name 0 canonical input). Random keys cover short, block-sized and hashed
// (over 64 bytes) keys; random inputs cover the digest.
import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codec, EntityRouter, handlers } from '../../src/pulse';
import { staticFetch, type FetchHandler } from '../support/hosts';
import { META, modernHeaders, SERVER_INFO } from '../support/fixtures';

const SEED = Number(process.env.PULSE_PROPERTY_SEED ?? 20261203) || undefined;
const RUNS = Number(process.env.PULSE_PROPERTY_RUNS ?? 150);

const ASK = { user_name: { method: 'elicitation/create', params: { mode: 'form', message: 'Name?', requestedSchema: { type: 'object' } } } } as const;

/** A content tool with one round of input, served by the static binding sealed with `key`. */
function sealedServer(key: string): FetchHandler {
  const router = new EntityRouter('r').operation('ask', {
    input: codec.object({ q: codec.string() }),
    content: true,
    inputs: [ASK],
    handler: handlers.static([{ type: 'text', text: 'done' }]),
  });
  return staticFetch({ router, serverInfo: SERVER_INFO, contentBlocks: true, requestStateKey: key });
}

async function call(handler: FetchHandler, params: Record<string, unknown>): Promise<{ status: number; body: any }> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask', ...params, _meta: { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } } } });
  const res = await handler.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: modernHeaders('tools/call', 'ask'), body }));
  return { status: res.status, body: await res.json() };
}

describe('requestState sealing agrees with Node crypto', () => {
  it('the MAC is HMAC-SHA256 of the first part and the binding is SHA-256 of method, name and input', async () => {
    const keyArb = fc.oneof(
      fc.string({ minLength: 32, maxLength: 64, unit: 'grapheme-ascii' }),
      fc.uint8Array({ minLength: 32, maxLength: 160 }).map((b) => Buffer.from(b).toString('latin1')),
    );
    await fc.assert(
      fc.asyncProperty(keyArb, fc.string({ maxLength: 300 }), async (key, q) => {
        fc.pre(Buffer.byteLength(key, 'utf8') >= 32);
        const handler = sealedServer(key);
        const first = await call(handler, { arguments: { q } });
        expect(first.status).toBe(200);
        expect(first.body.result.resultType).toBe('input_required');
        const state: string = first.body.result.requestState;
        const [payload, tag] = state.split('.');
        expect(tag).toBe(createHmac('sha256', Buffer.from(key, 'utf8')).update(payload).digest('base64url'));
        const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
        const bind = createHash('sha256').update(`tools/call\0ask\0${JSON.stringify({ q })}`, 'utf8').digest('base64url');
        expect(decoded).toMatchObject({ v: 1, bind, round: 0, responses: {} });
        // The state completes the call; any change to it is refused before the tool runs.
        const answers = { user_name: { action: 'accept', content: { name: 'a' } } };
        const done = await call(handler, { arguments: { q }, inputResponses: answers, requestState: state });
        expect(done.body.result?.resultType).toBe('complete');
        const flipped = `${payload}.${tag.startsWith('A') ? 'B' : 'A'}${tag.slice(1)}`;
        const refused = await call(handler, { arguments: { q }, inputResponses: answers, requestState: flipped });
        expect([refused.status, refused.body.error?.code]).toEqual([400, -32602]);
      }),
      { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}) },
    );
  }, 120_000);

  it('a key shorter than 32 bytes is refused without being shown', () => {
    const key = 'k'.repeat(31);
    expect(() => sealedServer(key)).toThrow(
      /^requestStateKey: must be a string of 32 to 1024 bytes/,
    );
    try {
      sealedServer(key);
    } catch (e) {
      expect(String((e as Error).message)).not.toContain(key);
    }
  });
});
