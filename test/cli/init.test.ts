// `pulse-mcp init [dir]`: the starter project, written into an empty or absent directory only, pinned
// to the package that wrote it; its service builds into a Compute binary that Viceroy serves, and
// its serve.mjs serves the same answers on Node (run against the built package, dist/, through a
// node_modules link, as an installed starter runs it).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readToml } from '../../src/cli/compute-host/toml.mjs';
import { npmName } from '../../src/cli/init';
import { cli } from '../support/cli';
import { WIZER_VERSION } from '../../src/cli/native-service';
import { envelope, META, modernHeaders } from '../support/fixtures';
import { freePort } from '../support/ports';
import { serveViceroy, type ServedViceroy } from '../support/viceroy';

const ROOT = resolve(__dirname, '..', '..');
const OWN = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; devDependencies: Record<string, string> };
const STARTER = ['.gitignore', 'README.md', 'fastly.toml', 'package.json', 'serve.mjs', 'service.mjs'];

const dir = mkdtempSync(join(tmpdir(), 'pulse-init-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('pulse-mcp init writes the starter', () => {
  it('writes exactly the starter files into an absent directory, named from it, pinned to this package', async () => {
    const target = join(dir, 'nested', 'My Service!');
    const r = await cli(['init', target]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(readdirSync(target).sort()).toEqual(STARTER);
    const pkg = JSON.parse(readFileSync(join(target, 'package.json'), 'utf8'));
    expect(pkg).toEqual({
      name: 'my-service',
      version: '0.1.0',
      private: true,
      type: 'module',
      scripts: {
        start: 'node serve.mjs',
        build: 'pulse-mcp build service.mjs --target fastly-native --wasm bin/main.wasm',
        diff: 'pulse-mcp diff service.mjs',
      },
      dependencies: { [OWN.name]: OWN.version },
      devDependencies: { '@bytecodealliance/wizer': WIZER_VERSION, typescript: OWN.devDependencies.typescript },
    });
    expect(readToml(join(target, 'fastly.toml'))).toMatchObject({ manifest_version: 3, name: 'my-service', language: 'other', scripts: { build: 'npm run build' } });
    expect(readFileSync(join(target, '.gitignore'), 'utf8').split('\n').filter(Boolean)).toEqual(['node_modules/', 'bin/', 'pkg/']);
    // What was written, then the next commands, starting in the new directory.
    expect(r.out).toContain(`wrote the project my-service in ${target}: package.json, service.mjs, serve.mjs, fastly.toml, README.md, .gitignore\n`);
    expect(r.out).toContain(`  cd '${target}'\n  npm install\n  npm start`);
  });

  it('writes into the current directory when none is named, and says no cd', async () => {
    const target = join(dir, 'here');
    mkdirSync(target);
    const cwd = process.cwd();
    process.chdir(target);
    try {
      const r = await cli(['init']);
      expect(r.code).toBe(0);
      expect(r.out).not.toContain('cd ');
    } finally {
      process.chdir(cwd);
    }
    expect(readdirSync(target).sort()).toEqual(STARTER);
    expect(JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')).name).toBe('here');
  });

  it('refuses a non-empty directory, naming it, and writes nothing', async () => {
    const target = join(dir, 'taken');
    mkdirSync(target);
    writeFileSync(join(target, 'notes.txt'), 'mine');
    const r = await cli(['init', target]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`pulse-mcp: ${target} is not empty (1 entry); pulse-mcp init writes a new project into an empty or absent directory\n`);
    expect(readdirSync(target)).toEqual(['notes.txt']);
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    expect((await cli(['init', file])).err).toBe(`pulse-mcp: ${file} exists and is not a directory; pulse-mcp init writes a new project into an empty or absent directory\n`);
  });

  it('takes one directory and no options', async () => {
    expect((await cli(['init', join(dir, 'x'), join(dir, 'y')])).code).toBe(2);
    expect((await cli(['init', '--force'])).code).toBe(2);
    expect(existsSync(join(dir, 'x'))).toBe(false);
  });

  it.each([
    ['My Service!', 'my-service'],
    ['.hidden_dir', 'hidden_dir'],
    ['__x__', 'x__'],
    ['node_modules', 'mcp-service'],
    ['日本', 'mcp-service'],
    ['a'.repeat(200), 'a'.repeat(128)],
    ['v1.2~beta', 'v1.2~beta'],
  ])('names the package of directory %j %j', (dirName, name) => {
    expect(npmName(dirName)).toBe(name);
  });
});

/** Reads `child`'s stdout until a line matches `pattern` (10 s at most). */
function lineOf(child: ChildProcess, pattern: RegExp): Promise<{ line: string; stdout: string }> {
  return new Promise((ok, fail) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => fail(new Error(`no line ${pattern} in 10 s:\n${stdout}${stderr}`)), 10_000);
    child.stderr!.on('data', (d) => (stderr += d));
    child.stdout!.on('data', (d) => {
      stdout += d;
      const line = stdout.split('\n').find((l) => pattern.test(l));
      if (line !== undefined) {
        clearTimeout(timer);
        ok({ line, stdout });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`exited with ${code}:\n${stdout}${stderr}`));
    });
  });
}

describe('the starter serves', () => {
  const project = join(dir, 'starter');
  const wasm = join(project, 'bin', 'main.wasm');
  let viceroy: ServedViceroy | undefined;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    expect((await cli(['init', project])).code).toBe(0);
    const r = await cli(['build', join(project, 'service.mjs'), '--target', 'fastly-native', '--wasm', wasm]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    viceroy = await serveViceroy(join(project, 'fastly.toml'), wasm);
    // serve.mjs imports the package by name: the built package, linked as npm install links it.
    expect(existsSync(join(ROOT, 'dist', 'cjs', 'pulse.js')), 'dist/ built (npm run build)').toBe(true);
    mkdirSync(join(project, 'node_modules', '@pulse-compute'), { recursive: true });
    symlinkSync(ROOT, join(project, 'node_modules', '@pulse-compute', 'mcp'), 'dir');
  }, 90_000);
  afterAll(async () => {
    await viceroy?.stop();
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
  });

  function serve(env: Record<string, string>): ChildProcess {
    const { HOST: _h, PORT: _p, ...rest } = process.env;
    const child = spawn(process.execPath, ['serve.mjs'], { cwd: project, env: { ...rest, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    return child;
  }

  const calls: [string, string, string | undefined][] = [
    ['server/discover', envelope('server/discover', 1), undefined],
    ['tools/call', envelope('tools/call', 2, { name: 'about', _meta: META }), 'about'],
    ['tools/call', envelope('tools/call', 3, { name: 'search_notes', arguments: { query: 'deploy on Fastly' }, _meta: META }), 'search_notes'],
  ];
  const post = (url: string, [method, body, name]: (typeof calls)[number]) =>
    fetch(url, { method: 'POST', headers: modernHeaders(method, name), body, signal: AbortSignal.timeout(10_000) });

  it('on Viceroy: discovery, the static tool and the corpus tool', async () => {
    const url = `http://127.0.0.1:${viceroy!.port}/mcp`;
    const [discovered, about, searched] = await Promise.all(calls.map((c) => post(url, c)));
    expect(discovered.status).toBe(200);
    expect((await discovered.json()).result._meta['io.modelcontextprotocol/serverInfo']).toEqual({ name: 'starter', version: '0.1.0' });
    expect(about.status).toBe(200);
    expect((await about.json()).result.structuredContent.name).toBe('starter');
    expect(searched.status).toBe(200);
    const { result } = await searched.json();
    expect(result.isError).toBe(false);
    expect(result.structuredContent.results.map((h: { id: string }) => h.id)).toContain('deploy');
  });

  it('on Node (npm start): the same answers, at the address it prints last', async () => {
    const port = await freePort();
    const child = serve({ PORT: String(port) });
    const { line, stdout } = await lineOf(child, /listening on /);
    expect(line).toBe(`starter listening on http://127.0.0.1:${port}/mcp`);
    expect(stdout.trimEnd().split('\n').at(-1)).toBe(line);
    for (const c of calls) {
      const [node, edge] = await Promise.all([post(`http://127.0.0.1:${port}/mcp`, c), post(`http://127.0.0.1:${viceroy!.port}/mcp`, c)]);
      expect(node.status).toBe(edge.status);
      expect(await node.text()).toBe(await edge.text());
    }
  });

  it('honours HOST on loopback (PORT=0 takes a free port)', async () => {
    const { line } = await lineOf(serve({ HOST: '::1', PORT: '0' }), /listening on /);
    const url = /^starter listening on (http:\/\/\[::1\]:[1-9][0-9]*\/mcp)$/.exec(line)?.[1];
    expect(url, line).toBeDefined();
    expect((await post(url!, calls[0]!)).status).toBe(200);
  });

  it.each([
    [{ HOST: '0.0.0.0' }, 'serve.mjs: HOST=0.0.0.0 is not a loopback address (127.0.0.1, ::1, localhost); put a proxy with authentication in front to serve others\n'],
    [{ HOST: '10.1.2.3' }, 'serve.mjs: HOST=10.1.2.3 is not a loopback address (127.0.0.1, ::1, localhost); put a proxy with authentication in front to serve others\n'],
    [{ PORT: '70000' }, 'serve.mjs: PORT=70000 is not a port number (0 to 65535)\n'],
    [{ PORT: '3000x' }, 'serve.mjs: PORT=3000x is not a port number (0 to 65535)\n'],
  ])('refuses %j, naming it', async (env, message) => {
    const child = serve(env);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    const code = await new Promise((ok) => child.once('exit', ok));
    expect({ code, stdout, stderr }).toEqual({ code: 1, stdout: '', stderr: message });
  });
});
