// Catalog-backed tools, every outcome row: a host built from the emitted artifacts alone, in front
// of a real backend on a loopback socket that answers as each row asks (well, slowly, oversized,
// redirecting, with a wrong id or shape, refusing, disconnecting). Both hosts (the Node host over
// TCP, the Fetch host in process), both profiles. Each row asserts status, code and body, and how
// many requests the backend received: exactly one per valid call, none for a refused one.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileRouter } from '../../src/compiler';
import { codec, EntityRouter } from '../../src/pulse';
import { routerDefinition } from '../../src/router/router';
import { CANARY, META, modernHeaders, ACCEPT, CT } from '../support/fixtures';
import { fetchHandler, startNode, type RunningServer } from '../support/hosts';

const TOKEN = 'svc-token.Backend_1';
const LIMITS = { requestBytes: 4096, responseBytes: 8192, deadlineMs: 1000 };
const TOO_BIG = 5000; // fits the backend read cap (8192) but not twice in the MCP reply

const MODES = [
  'ok', 'wrong_shape', 'exec_failed', 'invalid_params', 'unknown_method', 'wrong_id', 'not_json', 'not_envelope',
  'redirect', 'refusing', 'server_error', 'oversized', 'disconnect', 'slow', 'too_big', 'deep',
] as const;
type Mode = (typeof MODES)[number];

const router = new EntityRouter('probe')
  .operation('probe', {
    title: 'Probe',
    description: 'Asks the test backend to answer in one way',
    input: codec.object({ mode: codec.enum([...MODES]), note: codec.optional(codec.string({ maxLength: 64 })) }),
    output: codec.object({ ok: codec.boolean(), text: codec.optional(codec.string({ maxLength: 8192 })) }),
    hints: { readOnlyHint: true },
    handler: () => ({ ok: true }),
  })
  .operation('status', { description: 'No input, no output', handler: () => undefined });
const { catalog, schemaRegistry } = compileRouter(routerDefinition(router));

interface Hit {
  headers: http.IncomingHttpHeaders;
  body: string;
  aborted: boolean;
}
let backend: http.Server;
let trap: http.Server;
let endpoint: string;
const hits: Hit[] = [];
let trapHits = 0;

function rpcReply(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));
}

function answer(mode: Mode | 'status', res: http.ServerResponse, req: http.IncomingMessage): void {
  const result = (r: unknown) => rpcReply(res, 200, { jsonrpc: '2.0', id: 1, result: r });
  switch (mode) {
    case 'status':
      return result(null);
    case 'ok':
      return result({ ok: true });
    case 'wrong_shape':
      return result({ ok: 'yes' });
    case 'exec_failed':
      return rpcReply(res, 200, { jsonrpc: '2.0', id: 1, error: { code: -32000, message: CANARY } });
    case 'invalid_params':
      return rpcReply(res, 400, { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid params', data: { path: '$.mode', reason: CANARY } } });
    case 'unknown_method':
      return rpcReply(res, 404, { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } });
    case 'wrong_id':
      return rpcReply(res, 200, { jsonrpc: '2.0', id: 2, result: { ok: true } });
    case 'not_json':
      return rpcReply(res, 200, `<html>${CANARY}</html>`);
    case 'not_envelope':
      return rpcReply(res, 200, { ok: true });
    case 'redirect':
      res.writeHead(307, { location: `http://127.0.0.1:${(trap.address() as AddressInfo).port}/` }).end();
      return;
    case 'refusing':
      return rpcReply(res, 401, { error: CANARY });
    case 'server_error':
      return rpcReply(res, 500, { jsonrpc: '2.0', id: 1, error: { code: -32603, message: CANARY } });
    case 'oversized':
      return result({ ok: true, text: 'x'.repeat(LIMITS.responseBytes + 100) });
    case 'disconnect':
      req.socket.destroy();
      return;
    case 'slow':
      setTimeout(() => result({ ok: true }), LIMITS.deadlineMs + 1500).unref();
      return;
    case 'too_big':
      return result({ ok: true, text: 'x'.repeat(TOO_BIG) });
    case 'deep':
      // Small in bytes, nested past the depth limit (32): the reply is not parsed.
      return rpcReply(res, 200, `{"jsonrpc":"2.0","id":1,"result":{"ok":true,"text":${'['.repeat(40)}${']'.repeat(40)}}}`);
  }
}

beforeAll(async () => {
  trap = http.createServer((_, res) => {
    trapHits++;
    res.end();
  });
  backend = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const hit: Hit = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), aborted: false };
      hits.push(hit);
      res.on('close', () => {
        if (!res.writableFinished) hit.aborted = true;
      });
      const rpc = JSON.parse(hit.body) as { method: string; params?: { mode: Mode } };
      answer(rpc.method === 'status' ? 'status' : rpc.params!.mode, res, req);
    });
  });
  for (const s of [trap, backend]) await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  endpoint = `http://127.0.0.1:${(backend.address() as AddressInfo).port}/rpc`;
});
afterAll(async () => {
  for (const s of [trap, backend]) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

const options = (legacy: boolean) => ({
  limits: LIMITS,
  ...(legacy ? { legacyProtocol: '2025-06-18' } : {}),
  tools: { catalog, schemas: schemaRegistry, routerId: 'probe', target: 'node-javascript', endpoint, backendBearerToken: TOKEN },
});

interface Row {
  name: string;
  tool?: string;
  args: unknown;
  status: number;
  /** JSON-RPC error code, or a tool result (isError, first text). */
  code?: number;
  message?: string;
  isError?: boolean;
  text?: string | RegExp;
  structured?: unknown;
  backendCalls: 0 | 1;
}

const BACKEND_FAILED = 'Backend request failed';
const ROWS: Row[] = [
  { name: 'a result: structuredContent and its text', args: { mode: 'ok' }, status: 200, isError: false, text: '{"ok":true}', structured: { ok: true }, backendCalls: 1 },
  { name: 'no input and no output: {} sends no params, completes with text null', tool: 'status', args: {}, status: 200, isError: false, text: 'null', backendCalls: 1 },
  { name: 'an output of the wrong shape is a tool error', args: { mode: 'wrong_shape' }, status: 200, isError: true, text: 'Output validation failed', backendCalls: 1 },
  { name: 'a governed execution failure is a tool error, its message not forwarded', args: { mode: 'exec_failed' }, status: 200, isError: true, text: 'Tool execution failed', backendCalls: 1 },
  { name: 'a governed input refusal is a tool error, its data not forwarded', args: { mode: 'invalid_params' }, status: 200, isError: true, text: 'Input validation failed', backendCalls: 1 },
  { name: 'the backend does not know the operation (catalog mismatch): 502', args: { mode: 'unknown_method' }, status: 502, code: -32603, message: BACKEND_FAILED, backendCalls: 1 },
  { name: 'a reply with another id: 502', args: { mode: 'wrong_id' }, status: 502, code: -32603, message: BACKEND_FAILED, backendCalls: 1 },
  { name: 'a reply that is not JSON: 502', args: { mode: 'not_json' }, status: 502, code: -32603, message: BACKEND_FAILED, backendCalls: 1 },
  { name: 'a reply that is not a JSON-RPC envelope: 502', args: { mode: 'not_envelope' }, status: 502, code: -32603, message: BACKEND_FAILED, backendCalls: 1 },
  { name: 'a redirect is a failure, never followed: 502', args: { mode: 'redirect' }, status: 502, code: -32603, message: BACKEND_FAILED, backendCalls: 1 },
  { name: 'the backend refuses the service credential: 502', args: { mode: 'refusing' }, status: 502, code: -32603, message: BACKEND_FAILED, backendCalls: 1 },
  { name: 'a backend server error: 502', args: { mode: 'server_error' }, status: 502, code: -32603, message: BACKEND_FAILED, backendCalls: 1 },
  { name: 'a reply over the response budget is not read: 502', args: { mode: 'oversized' }, status: 502, code: -32603, message: BACKEND_FAILED, backendCalls: 1 },
  { name: 'the backend drops the connection: 502', args: { mode: 'disconnect' }, status: 502, code: -32603, message: BACKEND_FAILED, backendCalls: 1 },
  { name: 'the deadline passes while the backend works: 408, id echoed', args: { mode: 'slow' }, status: 408, code: -32603, message: 'Request interrupted', backendCalls: 1 },
  { name: 'a reply nested past the depth limit: 502', args: { mode: 'deep' }, status: 502, code: -32603, message: BACKEND_FAILED, backendCalls: 1 },
  { name: 'a result whose MCP reply exceeds the response budget: 500', args: { mode: 'too_big' }, status: 500, code: -32603, message: 'Tool result too large', backendCalls: 1 },
  { name: 'an unknown tool: 400 -32602, no backend call', tool: 'nope', args: {}, status: 400, code: -32602, backendCalls: 0 },
  { name: 'arguments that are not an object: 400 -32602, no backend call', args: 'mode=ok', status: 400, code: -32602, backendCalls: 0 },
  { name: 'input of the wrong structure is a tool error, no backend call', args: { mode: 'other' }, status: 200, isError: true, text: /^Input validation failed at \$\.mode: /, backendCalls: 0 },
  { name: 'a tool without input given input is a tool error, no backend call', tool: 'status', args: { a: 1 }, status: 200, isError: true, text: /^Input validation failed/, backendCalls: 0 },
];

type Send = (body: string, headers: [string, string][]) => Promise<{ status: number; text: string }>;

function callBody(legacy: boolean, id: number, tool: string, args: unknown): string {
  const params: Record<string, unknown> = { name: tool, arguments: args };
  if (!legacy) params._meta = META;
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params });
}
function headersFor(legacy: boolean, tool: string): [string, string][] {
  const client: [string, string][] = [['authorization', `Bearer client-${CANARY}`], ['cookie', `sid=${CANARY}`]];
  return legacy ? [ACCEPT, CT, ['mcp-protocol-version', '2025-06-18'], ...client] : [...modernHeaders('tools/call', tool), ...client];
}

for (const host of ['node', 'fetch'] as const) {
  for (const legacy of [false, true]) {
    describe(`catalog-backed tools on the ${host} host, ${legacy ? '2025-06-18' : '2026-07-28'} profile`, () => {
      let send: Send;
      let server: RunningServer | undefined;
      beforeAll(async () => {
        if (host === 'node') {
          server = await startNode(options(legacy));
          const url = `http://127.0.0.1:${server.port}/mcp`;
          send = async (body, headers) => {
            const r = await fetch(url, { method: 'POST', headers, body });
            return { status: r.status, text: await r.text() };
          };
        } else {
          const h = fetchHandler(options(legacy));
          send = async (body, headers) => {
            const r = await h.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body }));
            return { status: r.status, text: await r.text() };
          };
        }
      });
      afterAll(async () => server?.close());

      ROWS.forEach((row, i) => {
        it(row.name, async () => {
          const tool = row.tool ?? 'probe';
          const id = 100 + i;
          const before = hits.length;
          const trapBefore = trapHits;
          const r = await send(callBody(legacy, id, tool, row.args), headersFor(legacy, tool));
          expect(r.status).toBe(row.status);
          const body = JSON.parse(r.text);
          expect(body.id).toBe(id);
          if (row.code !== undefined) {
            expect(body.error.code).toBe(row.code);
            if (row.message !== undefined) expect(body.error.message).toBe(row.message);
            expect(body.error.data).toBeUndefined();
          } else {
            expect(body.result.isError).toBe(row.isError);
            const text = body.result.content[0].text;
            if (row.text instanceof RegExp) expect(text).toMatch(row.text);
            else expect(text).toBe(row.text);
            if (row.structured !== undefined) expect(body.result.structuredContent).toEqual(row.structured);
            else expect(body.result.structuredContent).toBeUndefined();
          }
          // Nothing the backend or the client said travels on: no backend message, no client secret.
          expect(r.text).not.toContain(CANARY);
          // The redirect's target is never contacted.
          expect(trapHits).toBe(trapBefore);
          await new Promise((res) => setTimeout(res, 20));
          const calls = hits.slice(before);
          expect(calls.length).toBe(row.backendCalls);
          for (const c of calls) {
            // Exactly the request the core built: the backend's own bearer, never the client's.
            expect(c.headers.authorization).toBe(`Bearer ${TOKEN}`);
            expect(c.headers.cookie).toBeUndefined();
            expect(c.headers['content-type']).toBe('application/json');
            expect(JSON.stringify(c.headers)).not.toContain(CANARY);
            const args = row.args as Record<string, unknown>;
            expect(c.body).toBe(tool === 'status' ? '{"jsonrpc":"2.0","id":1,"method":"status"}' : `{"jsonrpc":"2.0","id":1,"method":"probe","params":{"mode":"${String(args.mode)}"}}`);
          }
        });
      });
    });
  }
}

describe('catalog-backed tools: the list and the client going away', () => {
  it('lists exactly the catalog: title, description, the four hints and the registry schemas', async () => {
    const h = fetchHandler(options(false));
    const r = await h.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: modernHeaders('tools/list'), body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } }) }));
    expect(r.status).toBe(200);
    const { tools } = (await r.json()).result;
    const schema = (id: string) => schemaRegistry.schemas.find((s) => s.id === id)!.schema;
    expect(tools).toEqual([
      { name: 'probe', title: 'Probe', description: 'Asks the test backend to answer in one way', inputSchema: schema('probe#input'), outputSchema: schema('probe#output'), annotations: { readOnlyHint: true } },
      { name: 'status', description: 'No input, no output', inputSchema: schema('status#input') },
    ]);
    // Closed inputs admit extra members (they are dropped), so the projection does not close them.
    expect(tools[0].inputSchema.additionalProperties).toBeUndefined();
    expect(tools[1].inputSchema).toEqual({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', additionalProperties: false });
  });

  // host, then one call that the client abandons once the backend holds it: the call's settled value.
  const DEPARTURES: [string, (signal: AbortSignal) => Promise<{ settled: unknown; close(): Promise<void> }>][] = [
    ['node', async (signal) => {
      const server = await startNode(options(false));
      const settled = fetch(`http://127.0.0.1:${server.port}/mcp`, { method: 'POST', headers: modernHeaders('tools/call', 'probe'), body: callBody(false, 1, 'probe', { mode: 'slow' }), signal }).catch((e: Error) => e.name);
      return { settled, close: () => server.close() };
    }],
    ['fetch', async (signal) => {
      const h = fetchHandler(options(false));
      // The handler settles with the core's answer to a departed client, which nobody reads.
      const settled = h.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: modernHeaders('tools/call', 'probe'), body: callBody(false, 1, 'probe', { mode: 'slow' }), signal })).then(async (r) => [r.status, (await r.json()).error.code]);
      return { settled, close: async () => undefined };
    }],
  ];
  const SETTLED: Record<string, unknown> = { node: 'AbortError', fetch: [408, -32603] };
  for (const [host, call] of DEPARTURES) {
    it(`a client that disconnects aborts the backend request (${host} host)`, async () => {
      const before = hits.length;
      const ac = new AbortController();
      const { settled, close } = await call(ac.signal);
      try {
        // The backend holds the call (it answers after the deadline, 1 s, plus 1.5 s): only the
        // departure can close its socket within the bound below.
        const deadline = Date.now() + 900;
        while (hits.length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        expect(hits.length - before).toBe(1);
        ac.abort();
        const gone = Date.now() + 500;
        while (!hits[before]!.aborted && Date.now() < gone) await new Promise((r) => setTimeout(r, 5));
        expect(hits[before]!.aborted).toBe(true);
        expect(await Promise.race([settled, new Promise((r) => setTimeout(() => r('unsettled'), 500))])).toEqual(SETTLED[host]);
      } finally {
        await close();
      }
    });
  }
});
