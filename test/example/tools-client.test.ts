/**
 * End to end: the official @modelcontextprotocol/client 2.4.0, pinned to 2026-07-28, over TCP
 * against the deployed context service (edge/context.mjs) on the static binding's Node listener.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server as deployed, serverInfo, tools as router } from '../../edge/context.mjs';
import corpus from '../../edge/corpus.json';
import { codec, EntityRouter, mcp } from '../../src/pulse';

let server: http.Server;
let client: Client;
let url: URL;

async function listen(handler: http.RequestListener): Promise<{ server: http.Server; url: URL }> {
  const s = http.createServer(handler);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return { server: s, url: new URL(`http://127.0.0.1:${(s.address() as AddressInfo).port}/mcp`) };
}

async function connect(at: URL): Promise<Client> {
  const c = new Client({ name: 'pulse-e2e', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await c.connect(new StreamableHTTPClientTransport(at));
  return c;
}

function close(s: http.Server): Promise<void> {
  return new Promise((resolve) => {
    s.closeAllConnections();
    s.close(() => resolve());
  });
}

beforeAll(async () => {
  ({ server, url } = await listen(deployed.nodeListener()));
  client = await connect(url);
});

afterAll(async () => {
  await client?.close();
  if (server) await close(server);
});

type ToolResult = { isError?: boolean; structuredContent?: any; content: { type: string; text: string }[] };
const call = (name: string, args?: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<ToolResult>;

function typed(r: ToolResult): any {
  expect(r.isError ?? false).toBe(false);
  // Typed completion carries the structured output and exactly its serialized text.
  expect(JSON.parse(r.content[0]!.text)).toEqual(r.structuredContent);
  return r.structuredContent;
}

describe('official client against the context server', () => {
  it('negotiates 2026-07-28 and lists the five tools', async () => {
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['starter_plan', 'search_docs', 'read_section', 'list_examples', 'explain_diagnostic']);
    for (const t of tools) {
      expect(t.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(t.outputSchema).toBeDefined();
    }
  });

  it('starter_plan finds the Fastly plan', async () => {
    const out = typed(await call('starter_plan', { query: 'deploy on fastly edge' }));
    expect(out.results[0].id).toBe('plan-deploy-fastly');
    expect(out.results.length).toBeLessThanOrEqual(5);
  });

  it('search_docs ranks documentation sections and honours limit', async () => {
    const out = typed(await call('search_docs', { query: 'outbound instructions CALL resume', limit: 2 }));
    expect(out.results).toHaveLength(2);
    for (const hit of out.results) expect(Object.keys(hit).sort()).toEqual(['collection', 'id', 'snippet', 'tags', 'title']);
  });

  it('read_section returns a whole section by id', async () => {
    const plan = corpus.corpora.plans.entries[0]!;
    const out = typed(await call('read_section', { id: plan.id }));
    expect(out).toMatchObject({ id: plan.id, collection: 'plans', truncated: false, text: plan.text });
  });

  it('list_examples lists every maintained example', async () => {
    const out = typed(await call('list_examples', {}));
    expect(out.entries.map((e: { id: string }) => e.id)).toEqual(corpus.corpora.examples.entries.map((e) => e.id));
    expect(out.truncated).toBe(false);
  });

  it('explain_diagnostic explains a code', async () => {
    const out = typed(await call('explain_diagnostic', { id: 'jsonrpc--32020' }));
    expect(out.title).toContain('-32020');
    expect(out.text).toMatch(/Mcp-Name/);
  });

  it.each([
    ['starter_plan', { query: '' }],
    ['search_docs', { query: 42 }],
    ['search_docs', { query: 'x', limit: 99 }],
    ['read_section', {}],
    ['explain_diagnostic', { id: 'http-999' }],
  ])('%s with bad input %j is an isError result', async (name, args) => {
    const r = await call(name, args);
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toMatch(/^Input validation failed at \$/);
  });

  it('an unknown section id is an isError result', async () => {
    const r = await call('read_section', { id: 'no-such-section' });
    expect(r.isError).toBe(true);
  });

  it('an unknown tool is a protocol error', async () => {
    await expect(call('no_such_tool', {})).rejects.toThrow();
  });
});

describe('official client against JavaScript handlers', () => {
  it('calls a typed JavaScript tool and sees a thrown handler as isError', async () => {
    const js = new EntityRouter('js')
      .operation('add', {
        input: codec.object({ a: codec.i32(), b: codec.i32() }),
        output: codec.object({ sum: codec.i32() }),
        handler: (_ctx, { a, b }) => ({ sum: a + b }),
      })
      .operation('fail', {
        handler: () => {
          throw new Error('hidden');
        },
      });
    const { server: s, url: u } = await listen(mcp({ router: js, serverInfo: { name: 'js', version: '1' } }).nodeListener());
    const c = await connect(u);
    try {
      const ok = (await c.callTool({ name: 'add', arguments: { a: 2, b: 40 } })) as ToolResult;
      expect(ok.structuredContent).toEqual({ sum: 42 });
      const overflow = (await c.callTool({ name: 'add', arguments: { a: 2147483647, b: 1 } })) as ToolResult;
      expect(overflow).toMatchObject({ isError: true, content: [{ text: 'Output validation failed' }] });
      const failed = (await c.callTool({ name: 'fail', arguments: {} })) as ToolResult;
      expect(failed).toMatchObject({ isError: true, content: [{ text: 'Tool execution failed' }] });
    } finally {
      await c.close();
      await close(s);
    }
  });
});

describe('official client on the legacy 2025-06-18 profile', () => {
  it('initializes, lists and calls when the profile is enabled', async () => {
    const { server: s, url: u } = await listen(mcp({ router, serverInfo, legacyProtocol: '2025-06-18' }).nodeListener());
    const c = new Client({ name: 'pulse-legacy', version: '1.0.0' }, { supportedProtocolVersions: ['2025-06-18'] });
    try {
      await c.connect(new StreamableHTTPClientTransport(u));
      expect(c.getNegotiatedProtocolVersion()).toBe('2025-06-18');
      const { tools } = await c.listTools();
      expect(tools).toHaveLength(5);
      const r = (await c.callTool({ name: 'explain_diagnostic', arguments: { id: 'http-405' } })) as ToolResult;
      expect(r.structuredContent.id).toBe('http-405');
    } finally {
      await c.close();
      await close(s);
    }
  });
});
