// `pulse-mcp build <module> --target fastly-javascript --wasm <file>`: a static binding with JavaScript
// handlers compiled by js-compute (the pinned optional peer) into a Compute binary that Viceroy
// serves. The project links the built package (dist/, npm run build) as npm install does, so
// js-compute's bundler resolves it through the package's exports as an installed project does.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JS_COMPUTE_VERSION, NO_DEADLINE_NOTE } from '../../src/cli/javascript-service';
import { cli } from '../support/cli';
import { envelope, META, modernHeaders } from '../support/fixtures';
import { serveViceroy, type ServedViceroy } from '../support/viceroy';

const ROOT = resolve(__dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'pulse-js-build-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A project directory holding `files`, the built package linked into its node_modules. */
function project(name: string, files: Record<string, string>): string {
  const root = join(dir, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  mkdirSync(join(root, 'node_modules', '@pulse-compute'), { recursive: true });
  symlinkSync(ROOT, join(root, 'node_modules', '@pulse-compute', 'mcp'), 'dir');
  return root;
}

const SERVICE = [
  "import { EntityRouter, codec, handlers, mcp } from '@pulse-compute/mcp/pulse';",
  "import { greet } from './greet.mjs';",
  "export const tools = new EntityRouter('hello')",
  "  .operation('greet', { input: codec.object({ name: codec.string({ maxLength: 32 }) }), output: codec.object({ greeting: codec.string({ maxLength: 64 }) }), handler: (ctx, input) => ({ greeting: greet(input.name) }) })",
  "  .operation('version', { output: codec.string({ maxLength: 8 }), handler: handlers.static('1.0.0') });",
  "export const server = mcp({ router: tools, serverInfo: { name: 'hello-js', version: '1.0.0' } });",
].join('\n');
const GREET = 'export const greet = (name) => `hello ${name.split("").reverse().join("")}`;\n';
const TOML = 'manifest_version = 3\nname = "hello-js"\nlanguage = "other"\n';

describe('a static binding with JavaScript handlers built for Fastly JavaScript', () => {
  let viceroy: ServedViceroy | undefined;
  const root = project('served', { 'service.mjs': SERVICE, 'greet.mjs': GREET, 'fastly.toml': TOML });
  const wasm = join(root, 'bin', 'main.wasm');
  let built: { code: number; out: string; err: string };

  beforeAll(async () => {
    expect(existsSync(join(ROOT, 'dist', 'esm', 'pulse.mjs')), 'dist/ built (npm run build)').toBe(true);
    built = await cli(['build', join(root, 'service.mjs'), '--target', 'fastly-javascript', '--wasm', wasm]);
    expect(built.err, built.out).toBe(`pulse-mcp: note: ${NO_DEADLINE_NOTE}\n`);
    expect(built.code).toBe(0);
    viceroy = await serveViceroy(join(root, 'fastly.toml'), wasm);
  }, 240_000);
  afterAll(() => viceroy?.stop());

  it('says what it wrote, and the limit of the runtime', () => {
    expect(built.out).toMatch(
      new RegExp(`^wrote \\S+main\\.wasm \\(\\d+ bytes\\): the Fastly JavaScript service of \\S+service\\.mjs \\(@fastly/js-compute ${JS_COMPUTE_VERSION.replaceAll('.', '\\.')}\\), imports fastly_\\w+(, fastly_\\w+)*, wasi_snapshot_preview1\\n$`),
    );
    expect(NO_DEADLINE_NOTE).toContain('no CPU deadline');
    expect(NO_DEADLINE_NOTE).toContain('5 s');
    // Nothing of the build is left beside the binary or in the project.
    expect(readdirSync(join(root, 'bin'))).toEqual(['main.wasm']);
    expect(readdirSync(root).sort()).toEqual(['bin', 'fastly.toml', 'greet.mjs', 'node_modules', 'service.mjs']);
  });

  it('answers discovery, a JavaScript tool and a static tool on Viceroy', async () => {
    const post = (method: string, body: string, name?: string) =>
      fetch(`http://127.0.0.1:${viceroy!.port}/mcp`, { method: 'POST', headers: modernHeaders(method, name), body, signal: AbortSignal.timeout(20_000) });
    const discovered = await post('server/discover', envelope('server/discover', 1));
    expect(discovered.status).toBe(200);
    expect((await discovered.json()).result._meta['io.modelcontextprotocol/serverInfo']).toEqual({ name: 'hello-js', version: '1.0.0' });
    const greeted = await post('tools/call', envelope('tools/call', 2, { name: 'greet', arguments: { name: 'ecaf' }, _meta: META }), 'greet');
    expect(greeted.status).toBe(200);
    expect((await greeted.json()).result).toMatchObject({ isError: false, structuredContent: { greeting: 'hello face' } });
    const version = await post('tools/call', envelope('tools/call', 3, { name: 'version', _meta: META }), 'version');
    expect((await version.json()).result.structuredContent).toBe('1.0.0');
    const refused = await post('tools/call', envelope('tools/call', 4, { name: 'greet', arguments: { name: 'x'.repeat(33) }, _meta: META }), 'greet');
    expect((await refused.json()).result.isError).toBe(true);
  });
});

describe('refusals', () => {
  it('refuses another js-compute version installed in the project, naming the pinned one', async () => {
    const root = project('other-version', {
      'service.mjs': SERVICE,
      'greet.mjs': GREET,
      'node_modules/@fastly/js-compute/package.json': JSON.stringify({ name: '@fastly/js-compute', version: '3.45.0', bin: { 'js-compute-runtime': 'cli.js' } }),
    });
    const r = await cli(['build', join(root, 'service.mjs'), '--target', 'fastly-javascript', '--wasm', join(root, 'bin', 'main.wasm')]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `pulse-mcp: @fastly/js-compute 3.45.0 is installed (${join(root, 'node_modules', '@fastly', 'js-compute')}); the Fastly JavaScript build uses ${JS_COMPUTE_VERSION}: npm install --save-dev --save-exact @fastly/js-compute@${JS_COMPUTE_VERSION}\n`,
    );
    expect(existsSync(join(root, 'bin'))).toBe(false);
  });

  it("reports js-compute's reason when the bundle fails, and leaves no binary", async () => {
    const root = project('unresolved', { 'service.mjs': SERVICE.replace('./greet.mjs', './missing.mjs') });
    const wasm = join(root, 'bin', 'main.wasm');
    const r = await cli(['build', join(root, 'service.mjs'), '--target', 'fastly-javascript', '--wasm', wasm]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^pulse-mcp: js-compute-runtime could not build \S+service\.mjs:\n/);
    expect(r.err).toContain('Could not resolve "./missing.mjs"');
    expect(readdirSync(join(root, 'bin'))).toEqual([]);
  }, 120_000);

  it('reports a module that throws when js-compute initialises it, and leaves no binary', async () => {
    // The lowerer reads the declarations without running the module; js-compute runs it at build time.
    const root = project('throws', { 'service.mjs': `${SERVICE}\nthrow new Error('thrown at initialisation');\n`, 'greet.mjs': GREET });
    const wasm = join(root, 'bin', 'main.wasm');
    const r = await cli(['build', join(root, 'service.mjs'), '--target', 'fastly-javascript', '--wasm', wasm]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^pulse-mcp: js-compute-runtime could not build \S+service\.mjs:\n/);
    expect(r.err).toContain('Error: thrown at initialisation');
    expect(readdirSync(join(root, 'bin'))).toEqual([]);
  }, 120_000);
});
