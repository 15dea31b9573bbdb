// `fastly compute serve --viceroy-path=…` with real HTTP requests, twice: on Fastly's Viceroy (the
// pinned build in .tools/viceroy, made by scripts/viceroy.mjs when missing) and on the Node Native
// host's Viceroy-compatible launcher. The edge artifact (bin/main.wasm) answers MCP on both. Builds
// bin/main.wasm first when it is missing.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureViceroy } from '../../scripts/viceroy.mjs';
import { envelope, modernHeaders, SERVER_INFO } from '../support/fixtures';
import { freePort } from '../support/ports';

const ROOT = resolve(__dirname, '..', '..');
const FASTLY = join(ROOT, 'node_modules', '@fastly', 'cli-linux-x64', 'fastly');
const LAUNCHER = join(ROOT, 'src', 'cli', 'compute-host', 'viceroy');

for (const [runtime, viceroyPath] of [
  ['Viceroy', () => ensureViceroy()],
  ['the Node Native host', () => LAUNCHER],
] as const) {
  describe(`fastly compute serve on ${runtime}`, () => {
    let child: ChildProcess | undefined;
    let port = 0;
    let home = '';
    let output = '';


    async function waitForPort(deadlineMs: number): Promise<void> {
      const until = Date.now() + deadlineMs;
      while (Date.now() < until) {
        try {
          await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(500) });
          return;
        } catch {
          await new Promise((r) => setTimeout(r, 150));
        }
      }
      throw new Error(`fastly compute serve did not listen within ${deadlineMs} ms:\n${output.slice(-2000)}`);
    }

    beforeAll(async () => {
      if (!existsSync(join(ROOT, 'bin', 'main.wasm'))) {
        // The whole pipeline (pack, validate, import check), as a clean clone in CI needs it.
        const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'edge-build.mjs')], { encoding: 'utf8', timeout: 240_000 });
        if (r.status !== 0) throw new Error(`edge build failed:\n${r.stderr}`);
      }
      port = await freePort();
      home = mkdtempSync(join(tmpdir(), 'pulse-fastly-home-'));
      child = spawn(FASTLY, ['compute', 'serve', '--skip-build', `--viceroy-path=${viceroyPath()}`, '--addr', `127.0.0.1:${port}`, '--non-interactive'], {
        cwd: ROOT,
        env: { ...process.env, HOME: home },
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (d) => (output += d));
      child.stderr!.on('data', (d) => (output += d));
      await waitForPort(20_000);
    }, 300_000);

    afterAll(async () => {
      // The CLI and the host it started form one process group: TERM, then KILL after 3 s.
      const pid = child?.pid;
      if (pid && child!.exitCode === null) {
        const exited = new Promise<void>((ok) => child!.once('exit', () => ok()));
        const signal = (s: NodeJS.Signals) => {
          try {
            process.kill(-pid, s);
          } catch {
            /* already gone */
          }
        };
        signal('SIGTERM');
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([exited, new Promise<void>((ok) => (timer = setTimeout(ok, 3000)))]);
        clearTimeout(timer);
        signal('SIGKILL');
      }
      if (home) rmSync(home, { recursive: true, force: true });
    });

    const post = (method: string, body: string, name?: string) =>
      fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers: modernHeaders(method, name), body, signal: AbortSignal.timeout(5000) });

    it('answers server/discover with the deployed router', async () => {
      const res = await post('server/discover', envelope('server/discover', 1));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const body = await res.json();
      expect(body.id).toBe(1);
      expect(body.result.resultType).toBe('complete');
      expect(body.result.supportedVersions).toEqual(['2026-07-28']);
      expect(body.result._meta['io.modelcontextprotocol/serverInfo'].name).not.toBe(SERVER_INFO.name);
    });

    it('refuses GET with 405 and Allow: POST', async () => {
      const res = await fetch(`http://127.0.0.1:${port}/mcp`, { signal: AbortSignal.timeout(5000) });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect((await res.arrayBuffer()).byteLength).toBe(0);
    });

    it('lists and calls a native corpus tool', async () => {
      const list = await (await post('tools/list', envelope('tools/list', 2))).json();
      const names = list.result.tools.map((t: { name: string }) => t.name);
      expect(names).toContain('search_docs');
      const meta = JSON.parse(envelope('x', 0)).params;
      const call = await post('tools/call', envelope('tools/call', 3, { name: 'search_docs', arguments: { query: 'fastly' }, ...meta }), 'search_docs');
      expect(call.status).toBe(200);
      const r = (await call.json()).result;
      expect(r.isError).toBe(false);
      expect(Array.isArray(r.structuredContent.results)).toBe(true);
    });

    it('answers 404 off the endpoint path and 413 over the request budget', async () => {
      const other = await fetch(`http://127.0.0.1:${port}/other`, { method: 'POST', headers: modernHeaders('server/discover'), body: envelope('server/discover', 1), signal: AbortSignal.timeout(5000) });
      expect(other.status).toBe(404);
      const big = await post('server/discover', envelope('server/discover', 1) + ' '.repeat(70_000));
      expect(big.status).toBe(413);
    });
  });
}
