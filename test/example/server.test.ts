// `npm start` (examples/server.mjs) as a user runs it, against the built package: the deployed static
// binding (edge/context.mjs) on Node through its listener form, modern only by default and with the
// 2025-06-18 profile when LEGACY_PROTOCOL asks for it.
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, modernHeaders } from '../support/fixtures';

const ROOT = resolve(__dirname, '..', '..');

interface Started {
  readonly url: string;
  readonly lines: string[];
  stop(): Promise<void>;
}

function start(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, [join(ROOT, 'examples', 'server.mjs')], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => void stop().then(() => fail(new Error(`no listening line: ${out}${err}`))), 20_000);
    child.stdout.on('data', () => {
      const m = /Pulse MCP listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)\n$/.exec(out);
      if (m === null) return;
      clearTimeout(timer);
      ok({ url: m[1]!, lines: out.trimEnd().split('\n'), stop });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(Object.assign(new Error(`examples/server.mjs exited with ${code}`), { code, stderr: err }));
    });
  });
}

const discover = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { ...Object.fromEntries(modernHeaders('server/discover')), ...headers }, body: envelope('server/discover', 1), signal: AbortSignal.timeout(5000) });

describe('npm start', () => {
  let modern: Started;
  beforeAll(async () => {
    modern = await start({});
  }, 30_000);
  afterAll(() => modern?.stop());

  it('ends its start-up output with the listening line', () => {
    expect(modern.lines.at(-1)).toBe(`Pulse MCP listening on ${modern.url}`);
  });

  it('serves the deployed binding: its serverInfo, modern only', async () => {
    const res = await discover(modern.url);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.result.supportedVersions).toEqual(['2026-07-28']);
    expect(body.result._meta['io.modelcontextprotocol/serverInfo']).toEqual({ name: 'pulse-context', version: '0.1.0' });
  });

  it('has the static ceilings: any Origin refused, 32 KiB + 1 refused with 413', async () => {
    expect((await discover(modern.url, { origin: modern.url.replace(/\/mcp$/, '') })).status).toBe(403);
    const big = await fetch(modern.url, { method: 'POST', headers: Object.fromEntries(modernHeaders('server/discover')), body: 'x'.repeat(32769), signal: AbortSignal.timeout(5000) });
    expect(big.status).toBe(413);
    expect((await big.json()).error.code).toBe(-32600);
  });

  it('LEGACY_PROTOCOL=2025-06-18 binds the same router with the legacy profile', async () => {
    const legacy = await start({ LEGACY_PROTOCOL: '2025-06-18' });
    try {
      const res = await fetch(legacy.url, {
        method: 'POST',
        headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }),
        signal: AbortSignal.timeout(5000),
      });
      expect(res.status).toBe(200);
      expect((await res.json()).result).toMatchObject({ protocolVersion: '2025-06-18', serverInfo: { name: 'pulse-context', version: '0.1.0' } });
    } finally {
      await legacy.stop();
    }
  }, 30_000);

  it('any other LEGACY_PROTOCOL is refused at start-up, naming the option', async () => {
    const refused = await start({ LEGACY_PROTOCOL: '2024-11-05' }).then(
      (s) => s.stop().then(() => undefined),
      (e: { code?: number; stderr?: string }) => e,
    );
    expect(refused?.code).toBe(1);
    expect(refused?.stderr).toMatch(/PulseConfigError: legacyProtocol: must be null or "2025-06-18"/);
  }, 30_000);
});
