// pulse-mcp diff on the host facade: a module exporting host options with catalog-backed tools, its
// backend token a secret-store reference. The Node reference reads that secret from the fastly.toml's
// [local_server.secret_stores], as the Native service does when served locally; a secret the file does
// not hold, and a facade with authorization (no token to send), are refused by name.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main';

const SERVICE = resolve(__dirname, '..', 'fixtures', 'diff', 'service.mjs');
const TOKEN = 'backend-secret-7f3a9e';
const dir = mkdtempSync(join(tmpdir(), 'pulse-diff-facade-'));
let origin: Server;
let base: string;
/** The Authorization header of every call the backend received. */
const seen: (string | undefined)[] = [];

/** The backend's result per method: what each operation's output schema admits. */
const RESULTS: Record<string, unknown> = {
  version: '1.0.0',
  notes_search: { results: [] },
  notes_read: { id: 'a', title: 'Alpha', collection: 'notes', tags: [], text: 'alpha', truncated: false },
  shape: { ok: true },
};

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
  // No Viceroy from PATH: this run compares node-native only.
  const path = process.env.PATH;
  process.env.PATH = '';
  try {
    return { code: await main(argv), out: out.join(''), err: err.join('') };
  } finally {
    process.env.PATH = path;
    vi.restoreAllMocks();
  }
}

function facade(name: string, extra = ''): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    `import { readFileSync } from 'node:fs';
const read = (f) => JSON.parse(readFileSync(new URL(f, import.meta.url), 'utf8'));
export const options = {
  serverInfo: { name: 'facade', version: '1.0.0' },
  tools: { catalog: read('./entities-catalog.json'), schemas: read('./schema-json-registry.json'), routerId: 'diff_sample', target: 'fastly-native', endpoint: '${base}/rpc', backend: 'origin', backendBearerToken: { secretStore: 'diff', key: 'backend-token' } },${extra}
};
`,
  );
  return file;
}

const toml = (secrets: string) => `manifest_version = 3\nname = "facade"\nlanguage = "other"\n\n[local_server.backends.origin]\nurl = "${base}"\n${secrets}`;

beforeAll(async () => {
  origin = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/rpc') return void res.writeHead(404).end();
      seen.push(req.headers.authorization);
      const msg = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number; method: string };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: RESULTS[msg.method] }));
    });
  });
  await new Promise<void>((ok) => origin.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  // The catalog artifacts of the fixture router, as pulse-mcp build writes them.
  expect((await run(['build', SERVICE, '--out', dir])).code).toBe(0);
});

afterAll(async () => {
  origin.closeAllConnections();
  await new Promise((ok) => origin.close(ok));
  rmSync(dir, { recursive: true, force: true });
});

it('compares the facade on Node and as its Native binary, the backend token read from the secret store on both', async () => {
  writeFileSync(join(dir, 'fastly.toml'), toml(`\n[[local_server.secret_stores.diff]]\nkey = "backend-token"\ndata = "${TOKEN}"\n`));
  const r = await run(['diff', facade('facade.mjs'), '--report', join(dir, 'evidence.json')]);
  expect([r.code, r.err]).toEqual([0, '']);
  expect(r.out).toContain('(4 operations, facade profile)');
  expect(r.out).toContain('  node-javascript  the reference: createMcpNodeHandler(options) on 127.0.0.1:');
  // The facade's own limits are the defaults: the admission cases are built at them.
  expect(r.out).toContain('a body 1 byte over the request limit (65537 bytes)');
  expect(r.out).not.toContain('  ✗ ');
  // Every valid call reached the backend with the token, from the reference and from the Native binary.
  const validCalls = r.out.split('\n').filter((l) => / tools\/call \w+: (valid|no arguments)/.test(l)).length;
  expect(seen.length).toBe(2 * validCalls);
  expect(new Set(seen)).toEqual(new Set([`Bearer ${TOKEN}`]));
});

it('refuses a secret the fastly.toml does not hold, naming the option, store and key', async () => {
  writeFileSync(join(dir, 'fastly.toml'), toml(''));
  const r = await run(['diff', facade('facade.mjs'), '--report', join(dir, 'evidence.json')]);
  expect(r.code).toBe(1);
  expect(r.err).toBe(
    `pulse-mcp: tools.backendBearerToken names the secret "backend-token" of the secret store "diff", which ${join(dir, 'fastly.toml')} does not hold: the Node reference reads it from [local_server.secret_stores.diff] as the Native service does when served locally\n`,
  );
});

it('refuses a facade with authorization: no token to send', async () => {
  const file = facade('authorized.mjs', `\n  authorization: { resource: 'https://mcp.example/mcp', issuer: 'https://id.example', introspectionEndpoint: 'https://id.example/introspect', clientId: 'c', clientSecret: { secretStore: 'diff', key: 'client' }, scopes: ['s'] },`);
  const r = await run(['diff', file]);
  expect(r.code).toBe(1);
  expect(r.err).toMatch(/^pulse-mcp: \S+authorized\.mjs exports host options with authorization: pulse-mcp diff sends no access token/);
});
