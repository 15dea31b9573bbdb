// The opt-in 2025-06-18 profile through the Fetch host, with a real router: one row, one
// case, asserting status, JSON-RPC code and body shape. The same rows run in `cargo test` on the core.
import { describe, expect, it } from 'vitest';
import { EntityRouter, codec, handlers } from '../../src/pulse';
import { createMcpHttpHandler, staticFetch } from '../support/hosts';
import { ACCEPT, CT, META, PROTOCOL, SERVER_INFO } from '../support/fixtures';

const router = new EntityRouter('legacy-test').operation('add', {
  input: codec.object({ a: codec.i32(), b: codec.i32() }),
  output: codec.object({ sum: codec.i32() }),
  handler: (_ctx: unknown, input: { a: number; b: number }) => ({ sum: input.a + input.b }),
}).operation('fixed', { output: codec.boolean(), handler: handlers.static(true) });
const legacy = staticFetch({ router, serverInfo: SERVER_INFO, legacyProtocol: '2025-06-18' });
const modernOnly = staticFetch({ router, serverInfo: SERVER_INFO });

const LEGACY = '2025-06-18';
type Row = {
  name: string;
  handler?: typeof legacy;
  version?: string | null;
  extra?: [string, string][];
  body: unknown;
  status: number;
  code?: number;
  check?: (body: any) => void;
};

const rows: Row[] = [
  {
    name: 'initialize (Codex) answers 2025-06-18 with serverInfo and capabilities',
    version: null,
    body: { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'c', version: '1' } } },
    status: 200,
    check: (b) => expect(b.result).toEqual({ protocolVersion: LEGACY, capabilities: { tools: { listChanged: false } }, serverInfo: SERVER_INFO }),
  },
  {
    name: 'initialize offering another revision still answers 2025-06-18',
    version: null,
    body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } },
    status: 200,
    check: (b) => expect(b.result.protocolVersion).toBe(LEGACY),
  },
  { name: 'ping', body: { jsonrpc: '2.0', id: 'p', method: 'ping' }, status: 200, check: (b) => expect(b).toEqual({ jsonrpc: '2.0', id: 'p', result: {} }) },
  {
    name: 'tools/list has no resultType or cache fields',
    body: { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: { progressToken: 0 } } },
    status: 200,
    check: (b) => {
      expect(b.result.tools.map((t: { name: string }) => t.name)).toEqual(['add', 'fixed']);
      expect(Object.keys(b.result)).toEqual(['tools']);
    },
  },
  {
    name: 'tools/call: legacy envelope, object structuredContent',
    body: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { _meta: { threadId: 't', progressToken: 1 }, name: 'add', arguments: { a: 2, b: 3 } } },
    status: 200,
    check: (b) => expect(b.result).toEqual({ content: [{ type: 'text', text: '{"sum":5}' }], structuredContent: { sum: 5 }, isError: false }),
  },
  {
    name: 'tools/call: a non-object result travels as text only',
    body: { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'fixed', arguments: {} } },
    status: 200,
    check: (b) => expect(b.result).toEqual({ content: [{ type: 'text', text: 'true' }], isError: false }),
  },
  {
    name: 'tools/call: bad input is a tool error',
    body: { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'add', arguments: { a: 'x', b: 1 } } },
    status: 200,
    check: (b) => expect(b.result.isError).toBe(true),
  },
  { name: 'missing MCP-Protocol-Version header is refused (no 2025-03-26 fallback)', version: null, body: { jsonrpc: '2.0', id: 6, method: 'tools/list' }, status: 400, code: -32600 },
  {
    name: 'another legacy revision is refused with both supported revisions',
    version: '2025-03-26',
    body: { jsonrpc: '2.0', id: 7, method: 'tools/list' },
    status: 400,
    code: -32022,
    check: (b) => expect(b.error.data).toEqual({ supported: [PROTOCOL, LEGACY], requested: '2025-03-26' }),
  },
  { name: 'resources/list probe: method not found, 404 as on the modern profile', body: { jsonrpc: '2.0', id: 8, method: 'resources/list', params: { _meta: { progressToken: 1 } } }, status: 404, code: -32601 },
  { name: 'notifications/initialized: 202, empty', body: { jsonrpc: '2.0', method: 'notifications/initialized' }, status: 202 },
  { name: 'notifications/cancelled: 202, empty', body: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }, status: 202 },
  {
    name: 'a modern Mcp-Method header is never downgraded',
    extra: [['mcp-method', 'initialize']],
    version: LEGACY,
    body: { jsonrpc: '2.0', id: 9, method: 'initialize', params: { protocolVersion: LEGACY } },
    // The modern path: headers present, then its _meta is missing.
    status: 400,
    code: -32602,
  },
  {
    name: 'modern _meta is never downgraded',
    body: { jsonrpc: '2.0', id: 10, method: 'ping', params: { _meta: META } },
    // The modern path: Mcp-Method is missing.
    status: 400,
    code: -32020,
  },
  {
    name: 'modern-only profile refuses legacy initialize with -32022',
    handler: modernOnly,
    version: null,
    body: { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LEGACY } },
    status: 400,
    code: -32022,
    check: (b) => expect(b.error.data).toEqual({ supported: [PROTOCOL], requested: LEGACY }),
  },
];

describe('legacy 2025-06-18 profile', () => {
  for (const row of rows) {
    it(row.name, async () => {
      const headers: [string, string][] = [ACCEPT, CT, ...(row.extra ?? [])];
      const version = row.version === undefined ? LEGACY : row.version;
      if (version !== null) headers.push(['mcp-protocol-version', version]);
      headers.push(['mcp-session-id', 'ignored'], ['last-event-id', 'ignored']);
      const res = await (row.handler ?? legacy).fetch(
        new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: JSON.stringify(row.body) }),
      );
      expect(res.status).toBe(row.status);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('mcp-session-id')).toBeNull();
      const text = await res.text();
      if (row.status === 202) {
        expect(text).toBe('');
        return;
      }
      const body = JSON.parse(text);
      if (row.code !== undefined) expect(body.error?.code).toBe(row.code);
      else if (row.status >= 400) expect(body.error).toBeDefined();
      row.check?.(body);
    });
  }

  it('GET and DELETE stay 405 with Allow: POST', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await legacy.fetch(new Request('http://127.0.0.1/mcp', { method, headers: [['mcp-protocol-version', LEGACY]] }));
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('option values other than "2025-06-18" fail configuration, naming the option', () => {
    for (const value of [true, false, '2025-03-26', '2025-11-25', '2026-07-28', 1]) {
      expect(() => createMcpHttpHandler({ legacyProtocol: value as never })).toThrow(/^legacyProtocol: /);
      expect(() => staticFetch({ router, serverInfo: SERVER_INFO, legacyProtocol: value as never })).toThrow(/^legacyProtocol: /);
    }
  });
});
