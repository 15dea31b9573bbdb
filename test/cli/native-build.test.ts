// `pulse-mcp build <module> --target fastly-native --wasm <file>`: the package's prebuilt Native service
// configured by Wizer into a Compute binary that Viceroy serves; every backend, secret store and log
// endpoint the service names checked against the service's fastly.toml first, a missing one refused
// with its name, the option naming it and the file, before anything is written.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli';
import { compileRouter } from '../../src/compiler';
import { EntityRouter, codec } from '../../src/pulse';
import { routerDefinition } from '../../src/router/router';
import { envelope, META, modernHeaders } from '../support/fixtures';
import { serveViceroy, type ServedViceroy } from '../support/viceroy';

const dir = mkdtempSync(join(tmpdir(), 'pulse-native-build-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A project directory holding `files`. */
function project(name: string, files: Record<string, string>): string {
  const root = join(dir, name);
  mkdirSync(root, { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  return root;
}

const IMPORT = "import { EntityRouter, codec, handlers, mcp } from '@pulse-compute/mcp/pulse';";
const SERVICE = [
  IMPORT,
  "export const tools = new EntityRouter('hello')",
  "  .operation('hello', { output: codec.object({ greeting: codec.string({ maxLength: 32 }) }), handler: handlers.static({ greeting: 'hello from the edge' }) });",
  "export const server = mcp({ router: tools, serverInfo: { name: 'hello', version: '1.0.0' } });",
].join('\n');
const TOML = 'manifest_version = 3\nname = "hello"\nlanguage = "other"\n';

describe('a static binding built into a Compute binary', () => {
  let viceroy: ServedViceroy | undefined;
  const root = project('static', { 'service.mjs': SERVICE, 'fastly.toml': TOML });
  const wasm = join(root, 'bin', 'main.wasm');

  beforeAll(async () => {
    const r = await cli(['build', join(root, 'service.mjs'), '--target', 'fastly-native', '--wasm', wasm]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^wrote \S+main\.wasm \(\d+ bytes\): the Fastly Native service of \S+service\.mjs \(static binding\), imports fastly_abi, .*wasi_snapshot_preview1\n$/);
    viceroy = await serveViceroy(join(root, 'fastly.toml'), wasm);
  }, 60_000);
  afterAll(() => viceroy?.stop());

  it('answers discovery and calls the tool on Viceroy', async () => {
    const post = (method: string, body: string, name?: string) =>
      fetch(`http://127.0.0.1:${viceroy!.port}/mcp`, { method: 'POST', headers: modernHeaders(method, name), body, signal: AbortSignal.timeout(10_000) });
    const discovered = await post('server/discover', envelope('server/discover', 1));
    expect(discovered.status).toBe(200);
    expect((await discovered.json()).result._meta['io.modelcontextprotocol/serverInfo']).toEqual({ name: 'hello', version: '1.0.0' });
    const called = await post('tools/call', envelope('tools/call', 2, { name: 'hello', _meta: META }), 'hello');
    expect(called.status).toBe(200);
    expect((await called.json()).result.structuredContent).toEqual({ greeting: 'hello from the edge' });
  });
});

describe('the names the service uses are checked against fastly.toml', () => {
  const BACKEND_SERVICE = [
    IMPORT,
    "export const tools = new EntityRouter('api', { backends: { api: 'https://api.example' } })",
    "  .operation('lookup', { output: codec.boolean(), handler: handlers.backend({ backend: 'api', method: 'GET', path: '/x', maxBytes: 1024, timeoutMs: 1000 }) })",
    "  .operation('status', { output: codec.boolean(), handler: handlers.backend({ backend: 'api', method: 'GET', path: '/s', maxBytes: 1024, timeoutMs: 1000 }) });",
    "export const server = mcp({ router: tools, serverInfo: { name: 'api', version: '1' }, fastlyLogEndpoint: 'events' });",
  ].join('\n');

  async function refused(name: string, files: Record<string, string>, args: string[] = []): Promise<string> {
    const root = project(name, files);
    const wasm = join(root, 'bin', 'main.wasm');
    const r = await cli(['build', join(root, 'service.mjs'), '--target', 'fastly-native', '--wasm', wasm, ...args]);
    expect(r.code).toBe(1);
    expect(existsSync(wasm)).toBe(false);
    expect(existsSync(join(root, 'bin'))).toBe(false);
    return r.err.replaceAll(root, '<project>');
  }

  it('refuses a missing backend and log endpoint, naming each, the option and the file', async () => {
    expect(await refused('undeclared', { 'service.mjs': BACKEND_SERVICE, 'fastly.toml': TOML })).toBe(
      'pulse-mcp: <project>/fastly.toml does not declare what the service uses:\n' +
        '  backend "api" (named by tools: operation "lookup", tools: operation "status"): add [setup.backends.api] to publish and [local_server.backends.api] to serve it locally\n' +
        '  log endpoint "events" (named by fastlyLogEndpoint): add [setup.log_endpoints.events]\n',
    );
  });

  it('takes a backend declared for publishing or for serving, and the manifest named by --fastly-toml', async () => {
    const declared = `${TOML}\n[setup.backends.api]\naddress = "api.example"\n\n[setup.log_endpoints.events]\nprovider = "BigQuery"\n`;
    const root = project('declared', { 'service.mjs': BACKEND_SERVICE, 'config/fastly.toml': declared });
    const r = await cli(['build', join(root, 'service.mjs'), '--target', 'fastly-native', '--wasm', join(root, 'main.wasm'), '--fastly-toml', join(root, 'config', 'fastly.toml')]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    // Without the flag, the manifest beside the module is read, and there is none.
    expect(await refused('absent', { 'service.mjs': BACKEND_SERVICE })).toBe(
      "pulse-mcp: <project>/fastly.toml does not exist: the Native build checks the backends, secret stores and log endpoints the service names against the project's fastly.toml; write one beside the module or name it with --fastly-toml\n",
    );
  }, 30_000);

  it("refuses a facade's undeclared issuer backend (named by default) and secret stores", async () => {
    const r = new EntityRouter('remote')
      .operation('lookup', { output: codec.boolean(), handler: () => true })
      .operation('status', { output: codec.boolean(), handler: () => true });
    const { catalog, schemaRegistry } = compileRouter(routerDefinition(r));
    const facade = `export const options = ${JSON.stringify({
      tools: { catalog, schemas: schemaRegistry, routerId: 'remote', target: 'node-javascript', endpoint: 'https://rpc.example/', backend: 'rpc', backendBearerToken: { secretStore: 'edge', key: 'backend-token' } },
      authorization: {
        resource: 'https://mcp.example/mcp',
        issuer: 'https://id.example',
        introspectionEndpoint: 'https://id.example/introspect',
        clientId: 'rs',
        clientSecret: { secretStore: 'idp', key: 'introspection' },
        scopes: ['mcp:access'],
        operations: { lookup: [], status: [] },
      },
    })};`;
    expect(await refused('facade', { 'service.mjs': facade, 'fastly.toml': TOML })).toBe(
      'pulse-mcp: <project>/fastly.toml does not declare what the service uses:\n' +
        '  backend "rpc" (named by tools.backend): add [setup.backends.rpc] to publish and [local_server.backends.rpc] to serve it locally\n' +
        '  backend "issuer" (named by authorization.backend): add [setup.backends.issuer] to publish and [local_server.backends.issuer] to serve it locally\n' +
        '  secret store "edge" (named by tools.backendBearerToken, key "backend-token"): add [setup.secret_stores.edge] to publish and [local_server.secret_stores.edge] to serve it locally\n' +
        '  secret store "idp" (named by authorization.clientSecret, key "introspection"): add [setup.secret_stores.idp] to publish and [local_server.secret_stores.idp] to serve it locally\n',
    );
  });

  it('refuses a malformed fastly.toml with its line', async () => {
    expect(await refused('malformed', { 'service.mjs': SERVICE, 'fastly.toml': `${TOML}[local_server\n` })).toMatch(/^pulse-mcp: <project>\/fastly\.toml: fastly\.toml line 4: /);
  });
});

describe('Wizer, the optional peer', () => {
  it('must be the pinned version when the project installs one', async () => {
    const root = project('old-wizer', {
      'service.mjs': SERVICE,
      'fastly.toml': TOML,
      'package.json': '{ "name": "old-wizer", "private": true }',
      'node_modules/@bytecodealliance/wizer/package.json': '{ "name": "@bytecodealliance/wizer", "version": "6.0.0", "main": "index.js" }',
    });
    const r = await cli(['build', join(root, 'service.mjs'), '--target', 'fastly-native', '--wasm', join(root, 'main.wasm')]);
    expect(r).toMatchObject({ code: 1, err: 'pulse-mcp: @bytecodealliance/wizer 6.0.0 is installed; the Native build pre-initialises with 7.0.5: npm install --save-dev --save-exact @bytecodealliance/wizer@7.0.5\n' });
    expect(existsSync(join(root, 'main.wasm'))).toBe(false);
  });
});

describe('TypeScript, the optional peer that parses the module', () => {
  it('must have the compiler API (TypeScript 7, a native compiler, has none)', async () => {
    const root = project('typescript-7', {
      'service.mjs': SERVICE,
      'fastly.toml': TOML,
      'package.json': '{ "name": "typescript-7", "private": true }',
      'node_modules/typescript/package.json': '{ "name": "typescript", "version": "7.0.2", "main": "index.js" }',
      'node_modules/typescript/index.js': "module.exports = { version: '7.0.2' };\n",
    });
    const r = await cli(['build', join(root, 'service.mjs'), '--target', 'fastly-native', '--wasm', join(root, 'main.wasm')]);
    expect(r).toMatchObject({ code: 1, err: "pulse-mcp: pulse-mcp build reads the module with the TypeScript compiler's API, which typescript 7.0.2 does not have (TypeScript 5 does): npm install --save-dev typescript@5\n" });
    expect(existsSync(join(root, 'main.wasm'))).toBe(false);
  });
});
