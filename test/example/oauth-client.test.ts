// `npm run example:oauth` run as a user runs it: the commands it prints get a token and revoke it,
// and the official client (2.4.0, pinned to 2026-07-28), given that token, sees only what its scopes
// permit. Without a token it is challenged; after revocation it is refused; a refused call never
// reaches the backend.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExample, type RunningExample } from '../support/example';

const ROOT = path.resolve(__dirname, '..', '..');
let example: RunningExample;

beforeAll(async () => {
  example = await startExample('examples/oauth/run.mjs', 60_000);
}, 70_000);
afterAll(() => example.stop());

/** Runs one of the printed commands (`node <script> …`), its shell quoting undone. */
function runPrinted(line: string, replace: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  let command = line;
  for (const [k, v] of Object.entries(replace)) command = command.replace(k, v);
  const words = [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
  expect(words[0]).toBe('node');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, words.slice(1), { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

const printed = (label: string) => new RegExp(`^${label}\\s+(node .*)$`, 'm').exec(example.output())![1]!;
const backendLines = () => example.output().split('\n').filter((l) => l.startsWith('backend: POST'));

/** Backend requests since `before`, once its log has caught up (bounded wait), then a settle. */
async function backendCallsSince(before: number, expected: number): Promise<number> {
  for (let waited = 0; backendLines().length - before < expected && waited < 5_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 200));
  return backendLines().length - before;
}

async function connect(token?: string): Promise<Client> {
  const client = new Client({ name: 'pulse-oauth-client', version: '0.0.1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(example.url, token === undefined ? {} : { authProvider: { token: async () => token } }));
  return client;
}

describe('the official client against the OAuth example', () => {
  it('prints the token commands, then the host listening line last', () => {
    const lines = example.output().trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/^Pulse MCP \(oauth\) listening on http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(printed('get a token:')).toContain(`--resource ${example.url.href}`);
    expect(printed('revoke it:')).toContain('--token=<token>');
  });

  it('the printed revoke command takes a token that begins with a dash', async () => {
    // Tokens are base64url: one in 64 begins with `-`. Revoking an unknown token succeeds (RFC 7009).
    const revoked = await runPrinted(printed('revoke it:'), { '<token>': `-${'a'.repeat(42)}` });
    expect([revoked.code, revoked.out.trim()]).toEqual([0, 'revoked']);
  });

  it('without a token the client is challenged and nothing reaches the backend', async () => {
    const before = backendLines().length;
    await expect(connect()).rejects.toThrow();
    const r = await fetch(example.url, { method: 'POST', headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' }, body: '{}' });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${new URL('/.well-known/oauth-protected-resource/mcp', example.url).href}", scope="mcp:access"`);
    expect(await backendCallsSince(before, 0)).toBe(0);
  });

  it('a minted reader token lists and calls what reading permits; revoked, it is refused', async () => {
    const minted = await runPrinted(printed('get a token:'));
    expect(minted.code).toBe(0);
    const token = minted.out.trim();
    expect(token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const client = await connect(token);
    const before = backendLines().length;
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['notes_read', 'notes_status']);
      const read = await client.callTool({ name: 'notes_read', arguments: { id: 'n1' } });
      expect(read.structuredContent).toEqual({ id: 'n1', text: null });
      // Writing needs notes:write: refused by the host, the backend never asked.
      await expect(client.callTool({ name: 'notes_write', arguments: { id: 'n1', text: 'x' } })).rejects.toThrow();
      expect(await backendCallsSince(before, 1)).toBe(1);
    } finally {
      await client.close();
    }
    const revoked = await runPrinted(printed('revoke it:'), { '<token>': token });
    expect([revoked.code, revoked.out.trim()]).toEqual([0, 'revoked']);
    await expect(connect(token)).rejects.toThrow();
  }, 30_000);
});
