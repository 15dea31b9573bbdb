// Construction-time options: exported constants, limits that may only be lowered, the 512-byte
// response headroom, messages naming the option (never echoing the value), snapshots at construction.
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, PROTOCOL_VERSION } from '../../src/index';
import { DISCOVER_RESULT, envelope, modernHeaders, SERVER_INFO } from '../support/fixtures';
import { createMcpHttpHandler, createMcpNodeHandler } from '../support/hosts';

const factories = { fetch: createMcpHttpHandler, node: createMcpNodeHandler } as const;
const discover = (id: number) =>
  new Request('http://127.0.0.1/mcp', { method: 'POST', headers: new Headers(modernHeaders('server/discover')), body: envelope('server/discover', id) });

describe('exports', () => {
  it('PROTOCOL_VERSION is 2026-07-28', () => {
    expect(PROTOCOL_VERSION).toBe('2026-07-28');
  });
  it('DEFAULT_LIMITS are 64 KiB, 1 MiB, 32 levels, 10 s', () => {
    expect(DEFAULT_LIMITS).toMatchObject({ requestBytes: 65536, responseBytes: 1048576, depth: 32, deadlineMs: 10000 });
  });
  it('both factories work without options', () => {
    expect(typeof createMcpHttpHandler().fetch).toBe('function');
    expect(typeof createMcpNodeHandler()).toBe('function');
  });
});

// A distinctive value: messages must name the option and must not echo the value.
const V = 987654321;
const violations: [string, Record<string, unknown>, RegExp][] = [
  ['requestBytes above 65536', { requestBytes: 65537 }, /requestBytes/],
  ['requestBytes far above', { requestBytes: V }, /requestBytes/],
  ['responseBytes above 1 MiB', { responseBytes: 1048577 }, /responseBytes/],
  ['responseBytes far above', { responseBytes: V }, /responseBytes/],
  ['depth above 32', { depth: 33 }, /depth/],
  ['deadlineMs above 10000', { deadlineMs: 10001 }, /deadlineMs/],
  ['deadlineMs far above', { deadlineMs: V }, /deadlineMs/],
  ['responseBytes < requestBytes + 512', { requestBytes: 1024, responseBytes: 1535 }, /responseBytes|requestBytes/],
  ['responseBytes lowered below the default request budget + 512', { responseBytes: 66047 }, /responseBytes|requestBytes/],
  // Not "lowering" in any meaningful sense; fail closed (inferred from "limits may only be lowered").
  ['negative requestBytes', { requestBytes: -1 }, /requestBytes/],
  ['NaN depth', { depth: Number.NaN }, /depth/],
  ['string deadlineMs', { deadlineMs: '300' }, /deadlineMs/],
];

describe('limits may only be lowered; violations throw at construction naming the option', () => {
  for (const [host, make] of Object.entries(factories)) {
    for (const [name, limits, re] of violations) {
      it(`${host}: ${name}`, () => {
        let message = '';
        expect(() => {
          try {
            make({ limits } as never);
          } catch (e) {
            message = (e as Error).message;
            throw e;
          }
        }).toThrow();
        expect(message).toMatch(re);
        expect(message).not.toContain(String(V));
      });
    }
    it(`${host}: lowered limits within the rules are accepted`, () => {
      expect(() => make({ limits: { requestBytes: 1024, responseBytes: 1536, depth: 1, deadlineMs: 1 } } as never)).not.toThrow();
      expect(() => make({ limits: { responseBytes: 66048 } } as never)).not.toThrow();
      expect(() => make({ limits: { ...DEFAULT_LIMITS } } as never)).not.toThrow();
    });
  }
});

describe('options are snapshotted at construction', () => {
  it('mutating serverInfo and allowedOrigins afterwards changes nothing', async () => {
    const serverInfo = { ...SERVER_INFO };
    const allowedOrigins = ['https://app.example'];
    const h = createMcpHttpHandler({ serverInfo, allowedOrigins });
    serverInfo.name = 'mutated';
    allowedOrigins.push('https://late.example');
    const res = await h.fetch(discover(1));
    expect(res.status).toBe(200);
    expect((await res.json()).result).toEqual(DISCOVER_RESULT);
    const headers = new Headers(modernHeaders('server/discover'));
    headers.set('origin', 'https://late.example');
    const late = await h.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: envelope('server/discover', 2) }));
    expect(late.status).toBe(403);
  });

  it('a configured path replaces /mcp', async () => {
    const h = createMcpHttpHandler({ path: '/rpc', serverInfo: SERVER_INFO });
    const headers = new Headers(modernHeaders('server/discover'));
    const at = (p: string) => h.fetch(new Request(`http://127.0.0.1${p}`, { method: 'POST', headers, body: envelope('server/discover', 3) }));
    expect((await at('/rpc')).status).toBe(200);
    expect((await at('/mcp')).status).toBe(404);
  });
});
