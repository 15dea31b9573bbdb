/**
 * A real browser (headless Chromium) runs the official @modelcontextprotocol/client 2.4.0, bundled
 * for the browser, from a page on a loopback origin against servers with `cors: true`: the listed
 * origin discovers, lists and calls a tool and reads the 401 challenge; the same page from another
 * origin cannot connect. Needs /usr/bin/chromium (scripts/setup.sh installs it).
 */
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpNodeHandler } from '../support/hosts';
import { EntityRouter, codec, mcp } from '../../src/pulse';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = path.resolve(__dirname, '..', '..');

/** The page's script: the official client over Streamable HTTP, and a plain fetch of a challenge. */
const PAGE_SCRIPT = `
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
window.mcpSession = async (url) => {
  const client = new Client({ name: 'pulse-browser', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const version = client.getNegotiatedProtocolVersion();
  const { tools } = await client.listTools();
  const called = await client.callTool({ name: 'shout', arguments: { text: 'hello' } });
  await client.close();
  return { version, tools: tools.map((t) => t.name), called: called.structuredContent };
};
window.challenge = async (url) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
    body: '{}',
  });
  return { status: res.status, challenge: res.headers.get('www-authenticate') };
};
`;

const servers: http.Server[] = [];
let browser: Browser | undefined;
let bundle = '';
let pagePort = 0;
let mcpUrl = '';
let authUrl = '';

async function listen(handler?: http.RequestListener): Promise<http.Server> {
  const s = http.createServer(handler);
  servers.push(s);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return s;
}
const portOf = (s: http.Server) => (s.address() as AddressInfo).port;

beforeAll(async () => {
  const out = await build({
    stdin: { contents: PAGE_SCRIPT, resolveDir: ROOT, loader: 'js' },
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    logLevel: 'silent',
  });
  bundle = out.outputFiles[0]!.text;
  // One page server, reached as two origins: http://127.0.0.1:<port> (listed) and
  // http://localhost:<port> (not listed).
  const page = await listen((req, res) => {
    if (req.url === '/client.mjs') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    } else {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><script type="module" src="/client.mjs"></script>');
    }
  });
  pagePort = portOf(page);
  const allowedOrigins = [`http://127.0.0.1:${pagePort}`];

  const router = new EntityRouter('browser').operation('shout', {
    input: codec.object({ text: codec.string({ maxLength: 64 }) }),
    output: codec.object({ text: codec.string() }),
    handler: (_ctx, input) => ({ text: input.text.toUpperCase() }),
  });
  const served = mcp({ router, serverInfo: { name: 'browser-test', version: '1' }, allowedOrigins, cors: true });
  mcpUrl = `http://127.0.0.1:${portOf(await listen(served.nodeListener()))}/mcp`;

  // Authorization refuses a request without a token at its head, before any introspection: the
  // issuer is never contacted.
  const guarded = await listen();
  authUrl = `http://127.0.0.1:${portOf(guarded)}/mcp`;
  const issuer = 'http://127.0.0.1:9';
  guarded.on(
    'request',
    createMcpNodeHandler({
      serverInfo: { name: 'browser-auth', version: '1' },
      allowedOrigins,
      cors: true,
      authorization: {
        resource: authUrl,
        issuer,
        introspectionEndpoint: `${issuer}/introspect`,
        clientId: 'pulse-rs',
        clientSecret: 'browser-test-secret',
        scopes: ['mcp:access'],
        allowInsecureLoopback: true,
      },
    }),
  );

  browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
});

afterAll(async () => {
  await browser?.close();
  await Promise.all(
    servers.map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  );
});

/** Opens the page from `origin`, runs `fn` in it; with the browser's console errors. */
async function inPage<T>(origin: string, fn: (url: string) => Promise<T>, url: string): Promise<{ result: T; errors: string[] }> {
  const page = await browser!.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  try {
    await page.goto(`${origin}/`, { waitUntil: 'load' });
    await page.waitForFunction(() => 'mcpSession' in window);
    return { result: await page.evaluate(fn, url), errors };
  } finally {
    await page.close();
  }
}

type PageWindow = Window & {
  mcpSession(url: string): Promise<{ version: string; tools: string[]; called: unknown }>;
  challenge(url: string): Promise<{ status: number; challenge: string | null }>;
};

describe('a browser client of a cors: true server', () => {
  it('from the listed origin: discovers, lists and calls a tool with the official client', async () => {
    const { result, errors } = await inPage(`http://127.0.0.1:${pagePort}`, (url) => (window as unknown as PageWindow).mcpSession(url), mcpUrl);
    expect(result).toEqual({ version: '2026-07-28', tools: ['shout'], called: { text: 'HELLO' } });
    expect(errors).toEqual([]);
  });

  it('from the listed origin: reads the 401 challenge', async () => {
    const { result } = await inPage(`http://127.0.0.1:${pagePort}`, (url) => (window as unknown as PageWindow).challenge(url), authUrl);
    expect(result).toEqual({
      status: 401,
      challenge: `Bearer resource_metadata="http://127.0.0.1:${new URL(authUrl).port}/.well-known/oauth-protected-resource/mcp", scope="mcp:access"`,
    });
  });

  it('from another origin: the client cannot connect and the challenge is unreadable', async () => {
    const other = `http://localhost:${pagePort}`;
    const blocked = (errors: string[]) => errors.some((e) => e.includes(`from origin '${other}' has been blocked by CORS policy`));
    const session = await inPage(other, (url) => (window as unknown as PageWindow).mcpSession(url).then(() => 'connected', () => 'refused'), mcpUrl);
    expect(session.result).toBe('refused');
    expect(blocked(session.errors)).toBe(true);
    const challenge = await inPage(other, (url) => (window as unknown as PageWindow).challenge(url).then(() => 'read', (e: Error) => `refused: ${e.message}`), authUrl);
    expect(challenge.result).toBe('refused: Failed to fetch');
    expect(blocked(challenge.errors)).toBe(true);
  });
});
