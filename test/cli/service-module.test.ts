// The service a module declares, as `pulse-mcp build --target fastly-native` reads it
// (src/cli/service-module.ts): the profile chosen by what the module exports, never by a fallback; the
// static binding read without running the module, under the static ceilings; the facade's options
// evaluated, secrets as secret-store references.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serviceConfig } from '../../src/cli/service-module';
import { STATIC_LIMITS } from '../../src/pulse';
import { Engine } from '../../src/core/engine';

const ROOT = resolve(__dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'pulse-service-module-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const configOf = async (mod: string, overrides?: Record<string, unknown>) => (await serviceConfig(mod, overrides)).configJson;

/** An edge module in the test directory: the declaration API imported as a package user's module imports it. */
function edgeModule(name: string, lines: string[]): string {
  const mod = join(dir, name);
  writeFileSync(mod, ["import { EntityRouter, codec, handlers, mcp } from '@pulse-compute/mcp/pulse';", ...lines].join('\n'));
  return mod;
}

const PING = "export const tools = new EntityRouter('ping').operation('ping', { output: codec.string({ maxLength: 8 }), handler: handlers.static('pong') });";

describe('the static profile: a module exporting server = mcp({...})', () => {
  it('fails closed for a router with a JavaScript handler, with a clear message', async () => {
    const mod = edgeModule('js-router.mjs', [
      "export const tools = new EntityRouter('jsrouter').operation('hello', { output: codec.string({ maxLength: 16 }), handler: () => 'hi' });",
      "export const server = mcp({ router: tools, serverInfo: { name: 'js', version: '1.0.0' } });",
    ]);
    await expect(configOf(mod)).rejects.toMatchObject({
      code: 'PULSE_ERR_MANIFEST',
      message: `${mod}: hello has a JavaScript handler, which target fastly-native does not run; the Native service runs static, corpus and backend handlers only: build a router with JavaScript handlers for Fastly with --target fastly-javascript`,
    });
  }, 60_000);

  it('builds from the declarations alone: a module whose top level throws after them still builds', async () => {
    const declared = [PING, "export const server = mcp({ router: tools, serverInfo: { name: 'ping', version: '1' } });"];
    const plain = edgeModule('ping.mjs', declared);
    const throws = edgeModule('ping-throws.mjs', [...declared, "throw new Error('evaluated');"]);
    // Run, the module throws; read, it is the same service as without the throw.
    await expect(import(throws)).rejects.toThrow('evaluated');
    const service = await serviceConfig(throws);
    expect(service.profile).toBe('static');
    expect(service.configJson).toBe(await configOf(plain));
    expect(() => Engine.create(service.configJson)).not.toThrow();
  }, 60_000);

  it('lowers the ceilings by the declared limits, a lowered reply budget lowering the tool-result one', async () => {
    const mod = edgeModule('lowered.mjs', [PING, "export const server = mcp({ router: tools, serverInfo: { name: 'ping', version: '1' }, limits: { requestBytes: 16384, responseBytes: 20000 } });"]);
    const cfg = JSON.parse(await configOf(mod));
    expect(cfg.limits).toEqual({ ...STATIC_LIMITS, requestBytes: 16384, responseBytes: 20000, toolResultBytes: 20000 });
  }, 60_000);

  it('carries rateLimit into the service, checked by the core against the router', async () => {
    const mod = edgeModule('limited.mjs', [PING, "export const server = mcp({ router: tools, serverInfo: { name: 'ping', version: '1' }, rateLimit: { toolCalls: { limit: 30, window: 10, tools: { ping: { limit: 5 } } }, rateCounter: 'mcp_calls' } });"]);
    const cfg = JSON.parse(await configOf(mod));
    expect(cfg.rateLimit).toEqual({ toolCalls: { limit: 30, window: 10, tools: { ping: { limit: 5 } } }, rateCounter: 'mcp_calls' });
    const unknown = edgeModule('limited-unknown.mjs', [PING, "export const server = mcp({ router: tools, serverInfo: { name: 'ping', version: '1' }, rateLimit: { toolCalls: { limit: 30, tools: { pong: { limit: 5 } } } } });"]);
    await expect(configOf(unknown).then((json) => Engine.create(json))).rejects.toThrow('rateLimit.toolCalls.tools: names a tool the router does not declare');
  }, 60_000);

  it('refuses a raise of a ceiling, as mcp() does', async () => {
    const mod = edgeModule('raised.mjs', [PING, "export const server = mcp({ router: tools, serverInfo: { name: 'ping', version: '1' }, limits: { requestBytes: 65536 } });"]);
    await expect(configOf(mod)).rejects.toMatchObject({
      code: 'PULSE_ERR_CONFIG',
      message: "limits.requestBytes: the static binding's ceiling is 32768; limits may only lower it",
    });
  }, 60_000);

  it.each([
    ['an option the build does not read', "export const server = mcp({ router: tools, serverInfo: { name: 'p', version: '1' }, allowedOrigins: ['https://a.example'] });", 'the mcp() option allowedOrigins is not part of a built binding; a build reads router, serverInfo, legacyProtocol, limits, fastlyLogEndpoint, rateLimit'],
    ['a computed option', "const n = () => 1024;\nexport const server = mcp({ router: tools, serverInfo: { name: 'p', version: '1' }, limits: { requestBytes: n() } });", 'a call of n; the lowerer runs no application code'],
    ['a server not made by mcp()', "const make = () => ({});\nexport const server = make();", 'binds no router with mcp(): the Native service is the module\'s `export const server = mcp({ router, serverInfo })`'],
  ])('refuses %s', async (_what, line, message) => {
    const mod = edgeModule(`refused-${_what.length}.mjs`, [PING, line]);
    await expect(configOf(mod)).rejects.toThrow(message);
  }, 60_000);
});

describe('the profile is chosen by what the module exports, never by a fallback', () => {
  it.each([
    ['neither server nor options', [PING], 'exports tools; a service module must export `const server = mcp({ router, serverInfo })`'],
    ['a router with host options', [PING, "export const options = { serverInfo: { name: 'p', version: '1' } };"], 'exports options without catalog-backed tools'],
    ['both', [PING, "export const server = mcp({ router: tools, serverInfo: { name: 'p', version: '1' } });", 'export const options = {};'], 'exports both server and options'],
  ])('refuses a module exporting %s', async (what, lines, message) => {
    const mod = edgeModule(`profile-${what.length}.mjs`, lines);
    await expect(configOf(mod)).rejects.toThrow(message);
  }, 60_000);

  it('serves catalog-backed tools: the endpoint a Fastly backend, the token from a secret store', async () => {
    const { compileRouter } = await import('../../src/compiler');
    const { EntityRouter, codec } = await import('../../src/pulse');
    const { routerDefinition } = await import('../../src/router/router');
    const r = new EntityRouter('remote').operation('lookup', { input: codec.object({ id: codec.string({ maxLength: 8 }) }), output: codec.boolean(), handler: () => true });
    const { catalog, schemaRegistry } = compileRouter(routerDefinition(r));
    writeFileSync(join(dir, 'catalog.json'), JSON.stringify(catalog));
    writeFileSync(join(dir, 'schemas.json'), JSON.stringify(schemaRegistry));
    const module = (token: string) => {
      const mod = join(dir, `catalog-edge-${token.length}.ts`);
      writeFileSync(
        mod,
        [
          "import { readFileSync } from 'node:fs';",
          `const read = (f: string) => JSON.parse(readFileSync(${JSON.stringify(dir)} + '/' + f, 'utf8'));`,
          `export const options = { tools: { catalog: read('catalog.json'), schemas: read('schemas.json'), routerId: 'remote', target: 'node-javascript', endpoint: 'https://rpc.example/', backend: 'rpc', backendBearerToken: ${token} } };`,
        ].join('\n'),
      );
      return mod;
    };
    const service = await serviceConfig(module("{ secretStore: 'edge', key: 'backend-token' }"));
    expect(service.profile).toBe('facade');
    const cfg = JSON.parse(service.configJson);
    expect(cfg.tools.tools[0].handler).toEqual({ kind: 'rpc', backend: 'rpc', url: 'https://rpc.example/', maxBytes: 1048576, bearer: { secretStore: 'edge', key: 'backend-token' } });
    const engine = Engine.create(JSON.stringify(cfg));
    expect(engine).toBeDefined();
    await expect(configOf(module("'in-the-binary'"))).rejects.toMatchObject({ code: 'PULSE_ERR_CONFIG', message: expect.stringMatching(/^tools\.backendBearerToken: a token given as text would be compiled into main\.wasm/) });
  }, 60_000);

  it('compiles the deployed service into the static binding\'s configuration, and its legacy variant', async () => {
    const service = await serviceConfig(join(ROOT, 'edge', 'context.mjs'));
    expect(service.profile).toBe('static');
    const json = service.configJson;
    const cfg = JSON.parse(json);
    // Exact POST /mcp, no allowed Origin (every Origin refused), the static ceilings.
    expect(Object.keys(cfg)).toEqual(['path', 'limits', 'serverInfo', 'tools']);
    expect(cfg.path).toBe('/mcp');
    expect(cfg.limits).toEqual(STATIC_LIMITS);
    expect(cfg.serverInfo).toEqual({ name: 'pulse-context', version: '0.1.0' });
    expect(cfg.tools.routerId).toBe('context');
    expect(() => Engine.create(json)).not.toThrow();
    const legacy = JSON.parse(await configOf(join(ROOT, 'edge', 'context.mjs'), { legacyProtocol: '2025-06-18' }));
    expect(legacy).toEqual({ ...cfg, legacyProtocol: '2025-06-18' });
  }, 60_000);
});
