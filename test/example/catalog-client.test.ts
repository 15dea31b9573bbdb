// The official MCP client (2.4.0, pinned to 2026-07-28) against `npm run example:catalog` run as a
// user runs it: the host serves the notes backend from its emitted artifacts alone. It lists every
// catalog tool and calls each one; the backend logs exactly one request per call that reached it,
// and refuses a request that bypasses the host without the service token.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExample, type RunningExample } from '../support/example';

let example: RunningExample;
let url: URL;
let backendUrl: string;

beforeAll(async () => {
  example = await startExample('examples/catalog/run.mjs');
  url = example.url;
  backendUrl = /^backend listening on (\S+)$/m.exec(example.output())![1]!;
}, 30_000);

afterAll(() => example.stop());

const backendLines = () => example.output().split('\n').filter((l) => l.startsWith('backend: '));

describe('the official client against the catalog example', () => {
  it('prints the host listening line last, after the backend', () => {
    expect(example.output().trimEnd().split('\n').at(-1)).toMatch(/^Pulse MCP \(catalog\) listening on http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(backendUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it('lists every catalog tool and calls each one, one backend request per call', async () => {
    const client = new Client({ name: 'pulse-catalog-client', version: '0.0.1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(url));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['notes_read', 'notes_write', 'notes_status', 'notes_clear']);
      expect(tools.find((t) => t.name === 'notes_write')!.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false });
      const before = backendLines().length;
      const calls: [string, Record<string, unknown>, (r: Record<string, unknown>) => void][] = [
        ['notes_status', {}, (r) => expect(r.structuredContent).toEqual({ ok: true })],
        ['notes_write', { id: 'n1', text: 'héllo' }, (r) => expect(r.structuredContent).toEqual({ id: 'n1', bytes: 6 })],
        ['notes_read', { id: 'n1' }, (r) => expect(r.structuredContent).toEqual({ id: 'n1', text: 'héllo' })],
        ['notes_clear', { id: 'n1' }, (r) => expect(r.content).toEqual([{ type: 'text', text: 'null' }])],
        ['notes_read', { id: 'n1' }, (r) => expect(r.structuredContent).toEqual({ id: 'n1', text: null })],
      ];
      for (const [name, args, check] of calls) {
        const r = (await client.callTool({ name, arguments: args })) as Record<string, unknown>;
        check(r);
      }
      // Input the host refuses by structure never reaches the backend.
      const bad = await client.callTool({ name: 'notes_read', arguments: { id: '' } });
      expect(bad.isError).toBe(true);
      await new Promise((r) => setTimeout(r, 100));
      const lines = backendLines().slice(before);
      expect(lines).toEqual(Array(calls.length).fill('backend: POST / admitted'));
    } finally {
      await client.close();
    }
  });

  it('the backend refuses a request that bypasses the host', async () => {
    const before = backendLines().length;
    const r = await fetch(backendUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"notes_status"}' });
    expect(r.status).toBe(401);
    await new Promise((res) => setTimeout(res, 100));
    expect(backendLines().slice(before)).toEqual(['backend: POST / refused (no service token)']);
  });
});
