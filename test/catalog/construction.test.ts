// Catalog-backed tools at construction: every refusal, one row each, with the PulseConfigError
// message that names the option and the entry; and the snapshot (changing the caller's artifacts
// afterwards changes nothing).
import { describe, expect, it } from 'vitest';
import { compileRouter } from '../../src/compiler';
import { codec, EntityRouter, handlers } from '../../src/pulse';
import { routerDefinition } from '../../src/router/router';
import { META, modernHeaders } from '../support/fixtures';
import { createMcpHttpHandler, createMcpNodeHandler } from '../support/hosts';

const router = new EntityRouter('probe')
  .operation('probe', {
    title: 'Probe',
    input: codec.object({ mode: codec.string({ maxLength: 16 }) }),
    output: codec.object({ ok: codec.boolean() }),
    handler: () => ({ ok: true }),
  })
  .operation('fixed', { description: 'A native operation', output: codec.boolean(), handler: handlers.static(true) });

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Fresh, independent copies of the artifacts and the options, for one row to break. */
function fresh(): { options: Json; catalog: Json; schemas: Json } {
  const { catalog, schemaRegistry } = compileRouter(routerDefinition(router));
  const copy = JSON.parse(JSON.stringify({ catalog, schemas: schemaRegistry })) as { catalog: Json; schemas: Json };
  return { ...copy, options: { tools: { ...copy, routerId: 'probe', target: 'node-javascript', endpoint: 'https://rpc.example/v1' } } };
}
const inputSchema = (a: { schemas: Json }) => a.schemas.schemas.find((s: Json) => s.id === 'probe#input').schema;

/** `depth` nested arrays. */
const nested = (depth: number): unknown => (depth === 0 ? 0 : [nested(depth - 1)]);

const ROWS: [string, (a: ReturnType<typeof fresh>) => void, string | RegExp][] = [
  ['a schema id the registry lacks', (a) => (a.catalog.operations[0].input = 'nope#input'), 'tools.catalog.operations[0] (probe): input schema "nope#input" is not in tools.schemas'],
  ['a duplicate schema id', (a) => a.schemas.schemas.push(a.schemas.schemas[0]), /^tools\.schemas\.schemas\[\d+\]: duplicate schema id "probe#input"$/],
  ['a duplicate tool name', (a) => a.catalog.operations.push(a.catalog.operations[0]), 'tools.catalog.operations[2] (probe): duplicate tool name'],
  ['an invalid tool name', (a) => (a.catalog.operations[1].name = 'two words'), 'tools.catalog.operations[1]: name must be 1-128 characters of A-Za-z0-9_.-'],
  // A JavaScript handler is eligible for the JavaScript targets only: Native runs no JavaScript.
  ['a JavaScript operation for fastly-native', (a) => (a.options.tools.target = 'fastly-native'), 'tools.catalog.operations[0] (probe): not eligible for target fastly-native (its targets: fastly-javascript, node-javascript, workerd-javascript)'],
  ['a JavaScript operation for node-native', (a) => (a.options.tools.target = 'node-native'), 'tools.catalog.operations[0] (probe): not eligible for target node-native (its targets: fastly-javascript, node-javascript, workerd-javascript)'],
  ['an unknown target', (a) => (a.options.tools.target = 'edge'), 'tools.target: must be one of fastly-native, node-native, node-javascript, fastly-javascript, workerd-javascript'],
  ['a target that is no string', (a) => (a.options.tools.target = ['node-javascript']), 'tools.target: must be one of fastly-native, node-native, node-javascript, fastly-javascript, workerd-javascript'],
  // Old names are refused with the new one, never mapped to it.
  ['the old target name node', (a) => (a.options.tools.target = 'node'), 'tools.target: "node" is now "node-javascript"'],
  ['the old target name workerd', (a) => (a.options.tools.target = 'workerd'), 'tools.target: "workerd" is now "workerd-javascript"'],
  ['an old target name in an operation\'s targets', (a) => (a.catalog.operations[1].targets = ['fastly-native', 'node']), 'tools.catalog.operations[1] (fixed).targets[1]: "node" is now "node-javascript"'],
  ['an unknown target in an operation\'s targets', (a) => (a.catalog.operations[1].targets = ['deno', 'node-javascript']), 'tools.catalog.operations[1] (fixed).targets[0]: must be one of fastly-native, node-native, node-javascript, fastly-javascript, workerd-javascript'],
  ['a catalog of the earlier format (old target names)', (a) => (a.catalog.formatVersion = 1), 'tools.catalog: formatVersion 1 is an earlier release\'s, whose target names changed ("node" is now "node-javascript", "workerd" is now "workerd-javascript"); build the artifacts again with this release'],
  ['an unknown catalog version', (a) => (a.catalog.formatVersion = 3), 'tools.catalog: unknown formatVersion 3; this release reads 2'],
  ['an unknown registry version', (a) => (a.schemas.formatVersion = 0), 'tools.schemas: unknown formatVersion 0; this release reads 1'],
  ['another artifact kind', (a) => (a.options.tools.schemas = a.catalog), 'tools.schemas: kind must be "pulse.schema-json-registry"'],
  ['artifacts of another router', (a) => (a.options.tools.routerId = 'other'), 'tools.catalog: routerId "probe" is not tools.routerId "other"'],
  ['an unsupported keyword', (a) => (inputSchema(a).properties.mode.pattern = '^a'), 'tools.schemas: schema "probe#input" at /properties/mode: unsupported keyword "pattern"'],
  ['a record (ScalarRecord)', (a) => (inputSchema(a).properties.mode = { type: 'object', additionalProperties: { type: 'string' } }), 'tools.schemas: schema "probe#input" at /properties/mode/additionalProperties: only true or false is supported (records such as ScalarRecord are not)'],
  ['a union other than nullable', (a) => (inputSchema(a).properties.mode = { anyOf: [{ type: 'string' }, { type: 'boolean' }] }), 'tools.schemas: schema "probe#input" at /properties/mode: anyOf is supported only as [schema, {"type":"null"}] (nullable)'],
  ['a type list', (a) => (inputSchema(a).properties.mode = { type: ['string', 'null'] }), 'tools.schemas: schema "probe#input" at /properties/mode: unsupported type ["string","null"]'],
  ['an array without its bound', (a) => (inputSchema(a).properties.mode = { type: 'array', items: { type: 'boolean' } }), 'tools.schemas: schema "probe#input" at /properties/mode: an array needs an integer maxItems (its bound)'],
  ['an unbounded integer', (a) => (inputSchema(a).properties.mode = { type: 'integer' }), 'tools.schemas: schema "probe#input" at /properties/mode: an integer needs minimum and maximum within the i32 or u32 range'],
  ['a $ref outside $defs', (a) => (inputSchema(a).properties.mode = { $ref: 'https://x.example/s.json' }), 'tools.schemas: schema "probe#input" at /properties/mode: a $ref must name an entry of $defs'],
  ['a recursive $ref', (a) => Object.assign(inputSchema(a), { $defs: { loop: { type: 'array', items: { $ref: '#/$defs/loop' }, maxItems: 1 } }, properties: { mode: { $ref: '#/$defs/loop' } } }), 'tools.schemas: schema "probe#input" at /$defs/loop/items: $defs "loop" refers to itself'],
  ['a schema of another dialect', (a) => (inputSchema(a).$schema = 'http://json-schema.org/draft-07/schema#'), 'tools.schemas: schema "probe#input" at /$schema: must be https://json-schema.org/draft/2020-12/schema'],
  ['more than 128 tools', (a) => {
    a.catalog.operations = Array.from({ length: 129 }, (_, i) => ({ ...a.catalog.operations[1], name: `t${i}` }));
  }, 'tools.catalog: router "probe" has 129 operations; at most 128 tools are allowed'],
  ['an artifact over 1 MiB', (a) => (a.catalog.operations[0].description = 'x'.repeat(1 << 20)), 'tools.catalog: is larger than 1048576 bytes of JSON'],
  ['an artifact over 32 levels', (a) => (a.schemas.extra = nested(40)), 'tools.schemas: nests deeper than 32 levels'],
  ['a projection over 4096 nodes', (a) => {
    const properties: Json = {};
    for (let i = 0; i < 4100; i++) properties[`f${i}`] = { type: 'boolean' };
    inputSchema(a).properties = properties;
    inputSchema(a).required = [];
  }, 'tools.schemas: schema "probe#input" at /properties/f4095: the projection exceeds 4096 nodes'],
  ['a projection over 24 levels', (a) => {
    let s: Json = { type: 'boolean' };
    for (let i = 0; i < 24; i++) s = { type: 'array', items: s, maxItems: 1 };
    inputSchema(a).properties.mode = s;
  }, /^tools\.schemas: schema "probe#input" at \/properties\/mode(\/items){23}: nesting exceeds 24 levels$/],
  ['a list that does not fit the response budget', (a) => {
    a.options.limits = { requestBytes: 1024, responseBytes: 2048 };
    a.catalog.operations[0].description = 'd'.repeat(2000);
  }, /^tools: the tools\/list reply exceeds limits\.responseBytes by \d+ bytes/],
  ['an http endpoint that is not loopback', (a) => (a.options.tools.endpoint = 'http://rpc.example/'), 'tools.endpoint: must be an https URL, or http to a loopback host, without credentials, query or fragment'],
  ['an endpoint with credentials', (a) => (a.options.tools.endpoint = 'https://user:pw@rpc.example/'), 'tools.endpoint: must be an https URL, or http to a loopback host, without credentials, query or fragment'],
  ['an endpoint that is no URL', (a) => (a.options.tools.endpoint = 'rpc.example'), 'tools.endpoint: must be an https URL, or http to a loopback host, without credentials, query or fragment'],
  ['a bearer token that could break its header', (a) => (a.options.tools.backendBearerToken = 'tok\r\nx-admin: 1'), 'tools.backendBearerToken: must be a bearer token (RFC 6750 characters: A-Z a-z 0-9 - . _ ~ + / then optional =, at most 4096)'],
  ['hints beyond the four booleans', (a) => (a.catalog.operations[0].hints = { readOnlyHint: true, dangerous: true }), 'tools.catalog.operations[0] (probe): hints may hold only the four boolean MCP hints (readOnlyHint, destructiveHint, idempotentHint, openWorldHint)'],
  ['an unknown operation member', (a) => (a.catalog.operations[0].handlerSource = 'x'), 'tools.catalog.operations[0] (probe): unknown member "handlerSource"'],
  ['an authenticated operation without the backend token', (a) => (a.catalog.operations[1].authenticated = true), 'tools.backendBearerToken: required, because tools.catalog.operations[1] (fixed) is authenticated (it needs the backend\'s service credential)'],
  ['an authenticated flag that is not true', (a) => Object.assign(a.options.tools, { backendBearerToken: 'tok' }) && (a.catalog.operations[1].authenticated = 'yes'), 'tools.catalog.operations[1] (fixed): authenticated must be true when present'],
  ['an unknown option', (a) => (a.options.tools.headers = { cookie: 'x' }), 'tools: unknown key "headers"; catalog-backed tools take catalog, schemas, routerId, target, endpoint, backendBearerToken, backend'],
];

describe('catalog-backed tools: construction refusals', () => {
  for (const [name, breakIt, message] of ROWS) {
    it(name, () => {
      const a = fresh();
      breakIt(a);
      for (const create of [createMcpHttpHandler, createMcpNodeHandler]) {
        let err: unknown;
        try {
          create(a.options as never);
        } catch (e) {
          err = e;
        }
        expect(err).toMatchObject({ name: 'PulseConfigError', code: 'PULSE_ERR_CONFIG' });
        if (typeof message === 'string') expect((err as Error).message).toBe(message);
        else expect((err as Error).message).toMatch(message);
      }
    });
  }

  it('the unbroken artifacts are accepted by both hosts', () => {
    for (const create of [createMcpHttpHandler, createMcpNodeHandler]) expect(() => create(fresh().options as never)).not.toThrow();
  });

  it('a native operation is eligible for all five targets, a JavaScript one for the three JavaScript targets', () => {
    const { catalog } = fresh();
    expect(catalog.operations.map((o: Json) => [o.name, o.handler, o.targets])).toEqual([
      ['probe', 'javascript', ['fastly-javascript', 'node-javascript', 'workerd-javascript']],
      ['fixed', 'static', ['fastly-javascript', 'fastly-native', 'node-javascript', 'node-native', 'workerd-javascript']],
    ]);
    for (const target of ['fastly-native', 'node-native', 'node-javascript', 'fastly-javascript', 'workerd-javascript']) {
      const a = fresh();
      a.catalog.operations.splice(0, 1);
      a.options.tools.target = target;
      expect(() => createMcpHttpHandler(a.options as never), target).not.toThrow();
    }
  });

  it('an authenticated operation is served once the backend token is given', () => {
    const { catalog, schemaRegistry } = compileRouter(
      routerDefinition(new EntityRouter('auth').operation('write', { input: codec.object({ v: codec.string() }), authenticated: true, handler: () => undefined })),
    );
    expect(catalog.operations[0]!.authenticated).toBe(true);
    const tools = { catalog, schemas: schemaRegistry, routerId: 'auth', target: 'node-javascript', endpoint: 'https://rpc.example/' };
    expect(() => createMcpHttpHandler({ tools } as never)).toThrow('tools.backendBearerToken: required, because tools.catalog.operations[0] (write) is authenticated');
    expect(() => createMcpHttpHandler({ tools: { ...tools, backendBearerToken: 'svc' } } as never)).not.toThrow();
  });

  it('the bearer token is text on the hosts and a secret-store reference on the Native build', async () => {
    const { resolveOptions } = await import('../../src/options');
    const text = fresh();
    text.options.tools.backendBearerToken = 'tok';
    expect(() => resolveOptions(text.options, 'native')).toThrow('tools.backendBearerToken: a token given as text would be compiled into main.wasm; put it in a Fastly secret store and name it: { secretStore, key }');
    expect(() => resolveOptions(text.options, 'host')).not.toThrow();
    const ref = fresh();
    ref.options.tools.target = 'workerd-javascript';
    ref.options.tools.backendBearerToken = { secretStore: 'edge', key: 'backend-token' };
    expect(() => createMcpHttpHandler(ref.options as never)).toThrow('tools.backendBearerToken: a secret-store reference ({ secretStore, key }) is read by the Fastly Native build only; this host takes the token itself');
    const config = JSON.parse(resolveOptions(ref.options, 'native').configJson);
    expect(config.tools.tools.map((t: Json) => t.handler.bearer)).toEqual([{ secretStore: 'edge', key: 'backend-token' }, { secretStore: 'edge', key: 'backend-token' }]);
    expect(config.tools.tools.map((t: Json) => t.handler.backend)).toEqual(['endpoint', 'endpoint']);
    ref.options.tools.backend = 'rpc_origin';
    expect(JSON.parse(resolveOptions(ref.options, 'native').configJson).tools.tools[0].handler.backend).toBe('rpc_origin');
    ref.options.tools.backend = 'no spaces';
    expect(() => resolveOptions(ref.options, 'native')).toThrow('tools.backend: must be a Fastly backend name, 1-128 characters of A-Za-z0-9_.-');
  });
});

describe('catalog-backed tools: snapshot', () => {
  it('changing the artifacts after construction changes nothing', async () => {
    const a = fresh();
    const h = createMcpHttpHandler(a.options as never);
    const list = async () => {
      const r = await h.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: modernHeaders('tools/list'), body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } }) }));
      return r.text();
    };
    const before = await list();
    a.catalog.operations[0].title = 'Changed';
    a.catalog.operations.pop();
    inputSchema(a).properties.mode.maxLength = 1;
    a.options.tools.endpoint = 'https://elsewhere.example/';
    expect(await list()).toBe(before);
    expect(JSON.parse(before).result.tools.map((t: Json) => t.name)).toEqual(['probe', 'fixed']);
  });

  it('refuses cursor params: there is no pagination', async () => {
    const h = createMcpHttpHandler(fresh().options as never);
    const r = await h.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: modernHeaders('tools/list'), body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META, cursor: 'next' } }) }));
    expect(r.status).toBe(400);
    expect((await r.json()).error.code).toBe(-32602);
  });
});
