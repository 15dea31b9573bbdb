// Construction-time options: the core judges every plain-data option and its message reaches the
// caller as PulseConfigError (naming the option and the entry, never the value); TypeScript reports
// only what the core cannot see (functions, objects, values that are not plain JSON). Also: the
// exported constants, snapshots at construction, and one test per rule that used to drift.
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_LIMITS, PROTOCOL_VERSION } from '../../src/index';
import { codec, EntityRouter, handlers, mcp } from '../../src/pulse';
import { toolSource } from '../../src/router';
import { resolveOptions } from '../../src/options';
import { createHostCore } from '../../src/core/driver';
import { compileRouter } from '../../src/compiler';
import { routerDefinition } from '../../src/router/router';
import { DISCOVER_RESULT, envelope, modernHeaders, SERVER_INFO } from '../support/fixtures';
import { createMcpHttpHandler, createMcpNodeHandler, startNode } from '../support/hosts';

const factories = { fetch: createMcpHttpHandler, node: createMcpNodeHandler } as const;
const discover = (id: number) =>
  new Request('http://127.0.0.1/mcp', { method: 'POST', headers: new Headers(modernHeaders('server/discover')), body: envelope('server/discover', id) });

/** The PulseConfigError `make(options)` throws: its message (and that it is one). */
function configError(make: (o: never) => unknown, options: unknown): string {
  try {
    make(options as never);
  } catch (e) {
    expect(e).toMatchObject({ name: 'PulseConfigError', code: 'PULSE_ERR_CONFIG' });
    return (e as Error).message;
  }
  throw new Error('expected a PulseConfigError');
}

describe('exports', () => {
  it('PROTOCOL_VERSION is 2026-07-28', () => {
    expect(PROTOCOL_VERSION).toBe('2026-07-28');
  });
  it('DEFAULT_LIMITS are 64 KiB, 1 MiB, 32 levels, 10 s', () => {
    expect(DEFAULT_LIMITS).toMatchObject({ requestBytes: 65536, responseBytes: 1048576, depth: 32, deadlineMs: 10000 });
  });
  it('both factories work without options', () => {
    expect(typeof createMcpHttpHandler().fetch).toBe('function');
    expect(typeof createMcpNodeHandler()).toBe('function');
  });
});

const cyclic: Record<string, unknown> = { a: 1 };
cyclic.self = cyclic;
/** `depth` arrays, one inside the other. */
function nested(depth: number): unknown[] {
  let v: unknown[] = [];
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}
const origins65 = Array.from({ length: 65 }, (_, i) => `https://h${i}.example`);
const router = () => new EntityRouter('r').operation('a', { handler: handlers.static(null) });
const MANIFEST = () => toolSource(router()).manifest as Record<string, unknown>;
const USE_MCP = 'serve a router and its handlers with mcp() from @pulse-compute/mcp/pulse';
/** Anything but catalog artifacts given as the host adapters' tools. */
const FACADE_TOOLS = `tools: must be catalog artifacts { catalog, schemas, routerId, target, endpoint }; the host adapters run no application code: ${USE_MCP}`;
const run = () => ({ ok: true, output: null });
const FACADE_TOOLS_FUNCTION = `tools.catalog.list: must be plain JSON data, not a function; ${USE_MCP}`;

// Option, value, expected message: the core's rules first, then what only TypeScript sees.
const rules: [string, unknown, string][] = [
  // limits: integers from 1 to the default (they may only be lowered), with 512 bytes of headroom
  ['limits', { requestBytes: 65537 }, 'limits.requestBytes: must be an integer between 1 and 65536'],
  ['limits', { requestBytes: 987654321 }, 'limits.requestBytes: must be an integer between 1 and 65536'],
  ['limits', { requestBytes: 0 }, 'limits.requestBytes: must be an integer between 1 and 65536'],
  ['limits', { requestBytes: -1 }, 'limits.requestBytes: must be an integer between 1 and 65536'],
  ['limits', { requestBytes: 1.5 }, 'limits.requestBytes: must be an integer between 1 and 65536'],
  ['limits', { responseBytes: 1048577 }, 'limits.responseBytes: must be an integer between 1 and 1048576'],
  ['limits', { depth: 33 }, 'limits.depth: must be an integer between 1 and 32'],
  ['limits', { deadlineMs: 10001 }, 'limits.deadlineMs: must be an integer between 1 and 10000'],
  ['limits', { deadlineMs: '300' }, 'limits.deadlineMs: must be an integer between 1 and 10000'],
  ['limits', { toolResultBytes: 1048577 }, 'limits.toolResultBytes: must be an integer between 1 and 1048576'],
  ['limits', { requestBytes: 1024, responseBytes: 1535 }, 'limits.responseBytes: must be at least limits.requestBytes + 512'],
  ['limits', { responseBytes: 66047 }, 'limits.responseBytes: must be at least limits.requestBytes + 512'],
  ['limits', { responseBytes: 5000, requestBytes: 100, toolResultBytes: 5001 }, 'limits.toolResultBytes: must not exceed limits.responseBytes'],
  ['limits', { bodyBytes: 1 }, 'limits: unknown key "bodyBytes"'],
  ['limits', 65536, 'limits: must be an object'],
  // path
  ['path', 'mcp', 'path: must start with / and hold at most 256 visible ASCII characters, no query'],
  ['path', '/mcp?x=1', 'path: must start with / and hold at most 256 visible ASCII characters, no query'],
  ['path', 1, 'path: must be a string'],
  // allowedOrigins
  ['allowedOrigins', ['https://a.example', 'http://127.0.0.1:3000', 'https://App.example'], 'allowedOrigins[2]: must be an exact lowercase http(s) origin such as https://app.example'],
  ['allowedOrigins', ['https://a.example/'], 'allowedOrigins[0]: must be an exact lowercase http(s) origin such as https://app.example'],
  ['allowedOrigins', ['https://a.example:443'], 'allowedOrigins[0]: must be an exact lowercase http(s) origin such as https://app.example'],
  ['allowedOrigins', 'https://a.example', 'allowedOrigins: must be an array of exact lowercase http(s) origins'],
  ['allowedOrigins', origins65, 'allowedOrigins: must hold at most 64 origins'],
  // serverInfo: 1 to 128 Unicode characters, no control characters
  ['serverInfo', { name: '', version: '1' }, 'serverInfo.name: must be 1 to 128 characters without control characters'],
  ['serverInfo', { name: 'a\u0007b', version: '1' }, 'serverInfo.name: must be 1 to 128 characters without control characters'],
  ['serverInfo', { name: '\u{1F680}'.repeat(129), version: '1' }, 'serverInfo.name: must be 1 to 128 characters without control characters'],
  ['serverInfo', { name: 'n', version: 'v'.repeat(129) }, 'serverInfo.version: must be 1 to 128 characters without control characters'],
  ['serverInfo', { name: 'n' }, 'serverInfo.version: must be 1 to 128 characters without control characters'],
  ['serverInfo', { name: 'n', version: '1', url: 'https://x.example' }, 'serverInfo: unknown key "url"'],
  ['serverInfo', 'pulse', 'serverInfo: must be an object with name and version'],
  // legacyProtocol
  ['legacyProtocol', true, 'legacyProtocol: must be null or "2025-06-18"'],
  ['legacyProtocol', '2025-03-26', 'legacyProtocol: must be null or "2025-06-18"'],
  // unknown options
  ['authorisation', {}, 'options: unknown key "authorisation"'],
  ['k'.repeat(65), 1, 'options: an unknown key (not shown: longer than 64 characters or not printable ASCII)'],
  ['authorization', { resource: 'r', issuer: 'i', introspectionEndpoint: 'e', scopes: [] }, 'authorization.resource: must be an https URL without credentials, query or fragment; http only to a literal loopback IP with allowInsecureLoopback: true'],
  ['profile', 'jsonrpc', 'options: unknown key "profile"'],
  // tools: catalog artifacts only; a router, a tool source, a manifest or a runner is executable
  ['tools', router(), FACADE_TOOLS],
  ['tools', toolSource(new EntityRouter('js').operation('a', { handler: () => null })), FACADE_TOOLS],
  ['tools', { manifest: MANIFEST() }, FACADE_TOOLS],
  ['tools', { manifest: MANIFEST(), handlers: { run } }, FACADE_TOOLS],
  ['tools', { manifest: MANIFEST(), runHandler: run }, FACADE_TOOLS],
  ['tools', run, FACADE_TOOLS],
  ['tools', { catalog: {}, schemas: {}, runHandler: run }, FACADE_TOOLS],
  ['tools', { manifest: 5 }, FACADE_TOOLS],
  // options of the static binding only: they concern handlers the adapters never run
  ['progress', true, 'progress: reported by handlers, which the host adapters do not run; it is an option of mcp() from @pulse-compute/mcp/pulse'],
  ['contentBlocks', true, 'contentBlocks: returned by handlers, which the host adapters do not run; it is an option of mcp() from @pulse-compute/mcp/pulse'],
  ['core', 'pulse_core.wasm', 'core: must be a WebAssembly.Module of pulse_core.wasm or its bytes'],
  // values that cannot be plain JSON, named by option and entry
  ['limits', { requestBytes: 1024n }, 'limits.requestBytes: must be plain JSON data, not a BigInt'],
  ['limits', { depth: Number.NaN }, 'limits.depth: must be a finite number'],
  ['limits', { deadlineMs: Infinity }, 'limits.deadlineMs: must be a finite number'],
  ['path', () => '/mcp', `path: must be plain JSON data, not a function; ${USE_MCP}`],
  ['serverInfo', { name: () => 'n', version: '1' }, `serverInfo.name: must be plain JSON data, not a function; ${USE_MCP}`],
  ['allowedOrigins', ['https://a.example', undefined], 'allowedOrigins[1]: must be plain JSON data, not undefined'],
  ['allowedOrigins', new Set(['https://a.example']), 'allowedOrigins: must be plain JSON data, not a class instance'],
  ['serverInfo', { name: 'n\ud800', version: '1' }, 'serverInfo.name: must be well-formed Unicode text, without lone surrogates'],
  ['serverInfo', cyclic, 'serverInfo.self: must be plain JSON data, not a cyclic structure'],
  ['serverInfo', { name: 'n', version: Symbol('v') }, 'serverInfo.version: must be plain JSON data, not a symbol'],
  ['tools', { catalog: { list: () => '[]' }, schemas: {}, routerId: 'r', target: 'node-javascript', endpoint: 'https://rpc.example/' }, FACADE_TOOLS_FUNCTION],
  ['tools', { schemas: {} }, FACADE_TOOLS],
  ['tools', { catalog: {}, manifest: {} }, FACADE_TOOLS],
  ['tools', { catalog: {}, handlers: { run } }, FACADE_TOOLS],
  ['tools', { catalog: {}, schemas: {}, backendBearerToken: { secretStore: 'pulse', key: 'rpc' } }, 'tools.backendBearerToken: a secret-store reference ({ secretStore, key }) is read by the Fastly Native build only; this host takes the token itself'],
  ['authorization', { clientSecret: { secretStore: 'pulse', key: 'rs' } }, 'authorization.clientSecret: a secret-store reference ({ secretStore, key }) is read by the Fastly Native build only; this host takes the secret itself'],
  // how an entry is named: identifiers of up to 64 characters with a dot, other printable keys
  // quoted, anything else unnamed; an option's own key under `options`
  ['serverInfo', { 'a b': () => 1 }, `serverInfo["a b"]: must be plain JSON data, not a function; ${USE_MCP}`],
  ['serverInfo', { [`k${'_'.repeat(63)}`]: () => 1 }, `serverInfo.k${'_'.repeat(63)}: must be plain JSON data, not a function; ${USE_MCP}`],
  ['serverInfo', { [`k${'_'.repeat(64)}`]: () => 1 }, `serverInfo[an unnamed key]: must be plain JSON data, not a function; ${USE_MCP}`],
  ['serverInfo', { [' '.repeat(64)]: () => 1 }, `serverInfo[${JSON.stringify(' '.repeat(64))}]: must be plain JSON data, not a function; ${USE_MCP}`],
  ['serverInfo', { 'a\nb': () => 1 }, `serverInfo[an unnamed key]: must be plain JSON data, not a function; ${USE_MCP}`],
  ['serverInfo', { '': () => 1 }, `serverInfo[an unnamed key]: must be plain JSON data, not a function; ${USE_MCP}`],
  ['serverInfo', { name: 'n', version: '1', 'x y': [1, () => 1] }, `serverInfo["x y"][1]: must be plain JSON data, not a function; ${USE_MCP}`],
  ['serverInfo', { '\ud800': 1 }, 'serverInfo[an unnamed key]: the key must be well-formed Unicode text, without lone surrogates'],
  ['a b', () => 1, `options["a b"]: must be plain JSON data, not a function; ${USE_MCP}`],
  ['\udc00', 1, 'options[an unnamed key]: the key must be well-formed Unicode text, without lone surrogates'],
  // a lone surrogate of either half, anywhere
  ['serverInfo', { name: '\udc00n', version: '1' }, 'serverInfo.name: must be well-formed Unicode text, without lone surrogates'],
  ['serverInfo', { name: 'n\udc00', version: '1' }, 'serverInfo.name: must be well-formed Unicode text, without lone surrogates'],
  ['serverInfo', { name: '\ud800n', version: '1' }, 'serverInfo.name: must be well-formed Unicode text, without lone surrogates'],
  ['serverInfo', { name: '\udc00\ud800', version: '1' }, 'serverInfo.name: must be well-formed Unicode text, without lone surrogates'],
  ['serverInfo', { name: 'n', version: '1', extra: { '\ude80x': 1 } }, 'serverInfo.extra[an unnamed key]: the key must be well-formed Unicode text, without lone surrogates'],
];

describe('every option error names the option and the entry', () => {
  for (const [host, make] of Object.entries(factories)) {
    it.each(rules)(`${host}: %s = %o`, (option, value, expected) => {
      expect(configError(make, { [option]: value })).toBe(expected);
    });
  }

  it('a value nested past the call stack is named by its option', () => {
    for (const make of Object.values(factories)) {
      expect(configError(make, { serverInfo: nested(200_000) })).toBe('serverInfo: is nested too deeply or too large to be plain JSON data');
    }
  });

  it('the options object itself must be a plain object', () => {
    for (const bad of [null, 'options', new Map(), [], () => ({}), Object.setPrototypeOf([], null)]) {
      expect(configError(createMcpHttpHandler, bad)).toBe('options: must be a plain object');
    }
  });

  it('values within the rules are accepted, and undefined or null means the default', () => {
    for (const make of Object.values(factories)) {
      expect(() => make({ limits: { requestBytes: 1024, responseBytes: 1536, depth: 1, deadlineMs: 1, toolResultBytes: 1 } } as never)).not.toThrow();
      expect(() => make({ limits: { responseBytes: 66048 } } as never)).not.toThrow();
      expect(() => make({ limits: { ...DEFAULT_LIMITS, toolResultBytes: 1048576 } } as never)).not.toThrow();
      expect(() => make({ path: undefined, allowedOrigins: undefined, serverInfo: undefined, limits: undefined, legacyProtocol: undefined, tools: undefined, core: undefined } as never)).not.toThrow();
      expect(() => make({ path: null, allowedOrigins: null, serverInfo: null, limits: { depth: null }, legacyProtocol: null } as never)).not.toThrow();
      expect(() => make(Object.assign(Object.create(null), { path: '/rpc' }) as never)).not.toThrow();
    }
  });
});

describe("the static binding's manifest is the core's to judge", () => {
  const judge = (manifest: unknown) => configError(() => createHostCore(resolveOptions({ tools: { manifest } }, 'host', 'static')), undefined);
  it.each([
    [5, 'tools: manifest must be an object'],
    [{ ...MANIFEST(), routerId: 'bad id' }, 'tools: routerId is invalid'],
  ])('%o', (manifest, expected) => {
    expect(judge(manifest)).toBe(expected);
  });
});

describe('secrets never end up in a build artifact', () => {
  const key = 'k'.repeat(32);
  const ref = { secretStore: 'pulse', key: 'request-state' };

  it('hosts take the key itself and refuse a secret-store reference', () => {
    for (const make of Object.values(factories)) {
      expect(configError(make, { requestStateKey: ref })).toBe(
        'requestStateKey: a secret-store reference ({ secretStore, key }) is read by the Fastly Native build only; this host takes the key itself (at least 32 bytes of text)',
      );
      expect(() => make({ requestStateKey: key } as never)).not.toThrow();
    }
  });

  // Option, the options, the message: every secret the Native build refuses as text.
  it.each([
    ['tools.backendBearerToken', { tools: { catalog: {}, schemas: {}, backendBearerToken: 't' } }, 'tools.backendBearerToken: a token given as text would be compiled into main.wasm; put it in a Fastly secret store and name it: { secretStore, key }'],
    ['authorization.clientSecret', { authorization: { clientSecret: 's' } }, 'authorization.clientSecret: a secret given as text would be compiled into main.wasm; put it in a Fastly secret store and name it: { secretStore, key }'],
  ])('the Native build refuses %s written as text', (_, options, expected) => {
    expect(configError(() => resolveOptions(options, 'native'), undefined)).toBe(expected);
  });

  it('the Native build takes a reference and refuses a key written as text', () => {
    expect(() => resolveOptions({ requestStateKey: key }, 'native')).toThrow(
      'requestStateKey: a key given as text would be compiled into main.wasm; put it in a Fastly secret store and name it: { secretStore, key }',
    );
    const cfg = resolveOptions({ requestStateKey: ref }, 'native').configJson;
    expect(JSON.parse(cfg)).toEqual({ requestStateKey: ref });
  });
});

describe('messages never contain the rejected value', () => {
  const CANARY = 'zq7canary';
  const cases: Record<string, unknown>[] = [
    { path: CANARY },
    { path: `/${CANARY}?` },
    { allowedOrigins: [`https://${CANARY}.example/`] },
    { serverInfo: { name: `${CANARY}\u0000`, version: '1' } },
    { serverInfo: { name: 'n', version: CANARY.repeat(20) } },
    { serverInfo: { name: `${CANARY}\udc00`, version: '1' } },
    { limits: { requestBytes: CANARY } },
    { limits: { depth: 987654321 } },
    { legacyProtocol: CANARY },
    { tools: { manifest: CANARY } },
    { tools: { manifest: { ...MANIFEST(), catalogHash: 7, extra: CANARY } } },
    { somethingElse: CANARY },
  ];
  it.each(cases)('%o', (options) => {
    const message = configError(createMcpHttpHandler, options);
    expect(message).toMatch(/^[a-zA-Z.[\]0-9"]+: /);
    expect(message).not.toContain(CANARY);
    expect(message).not.toContain('987654321');
  });
});

describe('serverInfo counts Unicode characters and accepts emoji (was: UTF-16 units, emoji refused)', () => {
  const serverInfo = { name: '\u{1F680}'.repeat(128), version: '1.0 \u2728' };

  it('fetch: reported unchanged in server/discover', async () => {
    const res = await createMcpHttpHandler({ serverInfo }).fetch(discover(1));
    expect(res.status).toBe(200);
    expect((await res.json()).result._meta).toEqual({ 'io.modelcontextprotocol/serverInfo': serverInfo });
  });

  it('node: reported unchanged in server/discover', async () => {
    const server = await startNode({ serverInfo });
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/mcp`, { method: 'POST', headers: modernHeaders('server/discover'), body: envelope('server/discover', 2) });
      expect(res.status).toBe(200);
      expect((await res.json()).result._meta).toEqual({ 'io.modelcontextprotocol/serverInfo': serverInfo });
    } finally {
      await server.close();
    }
  });
});

describe('the tools/list budget is checked once, by the core, on the exact reply', () => {
  const tools = () =>
    new EntityRouter('budget').operation('describe_the_weather_in_great_detail', {
      input: codec.object({ city: codec.string({ maxLength: 64 }) }),
      output: codec.object({ summary: codec.string() }),
      description: 'd'.repeat(600),
      handler: () => ({ summary: 'sunny' }),
    });
  const bind = (limits?: { requestBytes: number; responseBytes: number }) => mcp({ router: tools(), serverInfo: SERVER_INFO, ...(limits ? { limits } : {}) });
  /** Bytes of the whole tools/list reply body for id 1 under the binding's own limits. */
  async function listReplyBytes(): Promise<number> {
    const body = envelope('tools/list', 1);
    const res = await bind().handle({ request: new Request('http://127.0.0.1/mcp', { method: 'POST', headers: new Headers(modernHeaders('tools/list')), body }) });
    expect(res.status).toBe(200);
    return (await res.arrayBuffer()).byteLength;
  }

  it('fits exactly, and says which budget and by how many bytes it is over', async () => {
    // The reply echoes id `1`; the check keeps room for an id as long as the whole request.
    const requestBytes = 1024;
    const exact = (await listReplyBytes()) - 1 + requestBytes;
    expect(() => bind({ requestBytes, responseBytes: exact })).not.toThrow();
    for (const over of [1, 300]) {
      expect(configError(() => bind({ requestBytes, responseBytes: exact - over }), undefined)).toBe(
        `tools: the tools/list reply exceeds limits.responseBytes by ${over} bytes (it must fit beside an id as long as limits.requestBytes)`,
      );
    }
  });
});

describe('options are snapshotted at construction', () => {
  it('mutating serverInfo and allowedOrigins afterwards changes nothing', async () => {
    const serverInfo = { ...SERVER_INFO };
    const allowedOrigins = ['https://app.example'];
    const h = createMcpHttpHandler({ serverInfo, allowedOrigins });
    serverInfo.name = 'mutated';
    allowedOrigins.push('https://late.example');
    const res = await h.fetch(discover(1));
    expect(res.status).toBe(200);
    expect((await res.json()).result).toEqual(DISCOVER_RESULT);
    const headers = new Headers(modernHeaders('server/discover'));
    headers.set('origin', 'https://late.example');
    const late = await h.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: envelope('server/discover', 2) }));
    expect(late.status).toBe(403);
  });

  it('a configured path replaces /mcp', async () => {
    const h = createMcpHttpHandler({ path: '/rpc', serverInfo: SERVER_INFO });
    const headers = new Headers(modernHeaders('server/discover'));
    const at = (p: string) => h.fetch(new Request(`http://127.0.0.1${p}`, { method: 'POST', headers, body: envelope('server/discover', 3) }));
    expect((await at('/rpc')).status).toBe(200);
    expect((await at('/mcp')).status).toBe(404);
  });

  it('carries the admitted request size the core will enforce, without judging it', () => {
    expect(resolveOptions({}).requestBytes).toBe(DEFAULT_LIMITS.requestBytes);
    expect(resolveOptions({ limits: { depth: 3 } }).requestBytes).toBe(DEFAULT_LIMITS.requestBytes);
    expect(resolveOptions({ limits: { requestBytes: 600, responseBytes: 1112 } }).requestBytes).toBe(600);
    // The configuration is the options as given; the core decides (and here rejects) them.
    const bad = resolveOptions({ limits: { requestBytes: 'x', bodyBytes: 1 }, extra: [1] });
    expect(bad.requestBytes).toBe(DEFAULT_LIMITS.requestBytes);
    expect(bad.configJson).toBe('{"limits":{"requestBytes":"x","bodyBytes":1},"extra":[1]}');
  });
});

describe('the snapshot a handler is built from', () => {
  const auth = (cache?: unknown) => ({ resource: 'https://mcp.example/mcp', issuer: 'https://id.example', introspectionEndpoint: 'https://id.example/i', clientId: 'c', clientSecret: 's', scopes: ['a'], ...(cache === undefined ? {} : { cache }) });
  const RUNNER = { run };
  const BASE = { requestBytes: DEFAULT_LIMITS.requestBytes, handlers: undefined, core: undefined };
  // name, options, target and binding, then the whole snapshot (configJson exactly as given).
  const ROWS: [string, unknown, 'host' | 'native', 'facade' | 'static', Record<string, unknown>][] = [
    ['no options', undefined, 'host', 'facade', { ...BASE, configJson: '{}' }],
    ['undefined members are absent', { path: undefined, serverInfo: { name: 'n', version: '1', extra: undefined } }, 'host', 'facade', { ...BASE, configJson: '{"serverInfo":{"name":"n","version":"1"}}' }],
    ['booleans, null, arrays and members in order', { cors: false, serverCard: true, legacyProtocol: null, allowedOrigins: ['https://a.example', 'https://b.example'] }, 'host', 'facade', { ...BASE, configJson: '{"cors":false,"serverCard":true,"legacyProtocol":null,"allowedOrigins":["https://a.example","https://b.example"]}' }],
    ['limits of null keep the default size', { limits: null }, 'host', 'facade', { ...BASE, configJson: '{"limits":null}' }],
    ['authorization without a cache has no store', { authorization: auth() }, 'host', 'facade', { ...BASE, configJson: JSON.stringify({ authorization: auth() }) }],
    ['a null cache has no store', { authorization: auth(null) }, 'host', 'facade', { ...BASE, configJson: JSON.stringify({ authorization: auth(null) }) }],
    ['a null authorization has no store', { authorization: null }, 'host', 'facade', { ...BASE, configJson: '{"authorization":null}' }],
    ['a cache takes the default bounds', { authorization: auth({ maxAgeMs: 1000 }) }, 'host', 'facade', { ...BASE, configJson: JSON.stringify({ authorization: auth({ maxAgeMs: 1000 }) }), introspectionCache: { maxEntries: 10_000, maxBytes: 8 * 1024 * 1024 } }],
    ['a cache takes its given bounds', { authorization: auth({ maxAgeMs: 1000, maxEntries: 5, maxBytes: 70_000 }) }, 'host', 'facade', { ...BASE, configJson: JSON.stringify({ authorization: auth({ maxAgeMs: 1000, maxEntries: 5, maxBytes: 70_000 }) }), introspectionCache: { maxEntries: 5, maxBytes: 70_000 } }],
    ['the Native build takes secret-store references', { requestStateKey: { secretStore: 'p', key: 'k' }, authorization: { ...auth(), clientSecret: { secretStore: 'p', key: 's' } } }, 'native', 'facade', { ...BASE, configJson: JSON.stringify({ requestStateKey: { secretStore: 'p', key: 'k' }, authorization: { ...auth(), clientSecret: { secretStore: 'p', key: 's' } } }) }],
    ['the static binding takes its own options', { progress: true, contentBlocks: true }, 'host', 'static', { ...BASE, configJson: '{"progress":true,"contentBlocks":true}' }],
    ['the static binding takes a manifest and its runner', { tools: { manifest: { routerId: 'r', tools: [] }, handlers: RUNNER } }, 'host', 'static', { ...BASE, handlers: RUNNER, configJson: '{"tools":{"routerId":"r","tools":[]}}' }],
    ['limits and tools: the tools last', { tools: { manifest: {} }, limits: { requestBytes: 600 } }, 'host', 'static', { ...BASE, requestBytes: 600, configJson: '{"limits":{"requestBytes":600},"tools":{}}' }],
    // Only `limits` sets the size, only `authorization` the secret and the store: the same names elsewhere are data.
    ['requestBytes outside limits is data', { serverInfo: { name: 'n', version: '1', requestBytes: 600 } }, 'host', 'facade', { ...BASE, configJson: '{"serverInfo":{"name":"n","version":"1","requestBytes":600}}' }],
    ['a clientSecret outside authorization is data', { serverInfo: { name: 'n', version: '1', clientSecret: 's' } }, 'native', 'facade', { ...BASE, configJson: '{"serverInfo":{"name":"n","version":"1","clientSecret":"s"}}' }],
    ['a cache outside authorization is data', { serverInfo: { name: 'n', version: '1', cache: { maxEntries: 5 } } }, 'host', 'facade', { ...BASE, configJson: '{"serverInfo":{"name":"n","version":"1","cache":{"maxEntries":5}}}' }],
  ];
  it.each(ROWS)('%s', (_, options, target, binding, expected) => {
    const snapshot = resolveOptions(options, target, binding);
    expect(snapshot).toStrictEqual(expected);
    expect(Object.isFrozen(snapshot)).toBe(true);
  });

  // What the static binding refuses differs from the adapters in what it points to: no mcp() hint.
  it('the static binding names a function without the hint to mcp()', () => {
    expect(configError(() => resolveOptions({ path: () => '/mcp' }, 'host', 'static'), undefined)).toBe('path: must be plain JSON data, not a function');
  });

  it('a catalog projection takes the response cap and the deadline from the limits', () => {
    const { catalog, schemaRegistry } = compileRouter(routerDefinition(new EntityRouter('probe').operation('probe', { handler: () => undefined })));
    const tools = { catalog, schemas: schemaRegistry, routerId: 'probe', target: 'node-javascript', endpoint: 'https://rpc.example/rpc' };
    const manifest = (limits?: unknown) => JSON.parse(resolveOptions({ limits, tools }).configJson).tools;
    expect([manifest().deadlineMs, manifest().tools[0].handler.maxBytes]).toEqual([DEFAULT_LIMITS.deadlineMs, DEFAULT_LIMITS.responseBytes]);
    const lowered = manifest({ requestBytes: 600, responseBytes: 5000, deadlineMs: 700 });
    expect([lowered.deadlineMs, lowered.tools[0].handler.maxBytes]).toEqual([700, 5000]);
    expect(resolveOptions({ limits: { requestBytes: 600, responseBytes: 5000 }, tools }).requestBytes).toBe(600);
  });

  it('the static binding names an entry of its manifest', () => {
    expect(configError(() => resolveOptions({ tools: { manifest: { list: () => '[]' } } }, 'host', 'static'), undefined)).toBe('tools.manifest.list: must be plain JSON data, not a function');
  });

  it('a runtime without WebAssembly takes core bytes and refuses anything else with the rule', () => {
    vi.stubGlobal('WebAssembly', undefined);
    try {
      expect([...new Uint8Array(resolveOptions({ core: new Uint8Array([7]) }).core as Uint8Array)]).toEqual([7]);
      expect(configError(() => resolveOptions({ core: 'pulse_core.wasm' }), undefined)).toBe('core: must be a WebAssembly.Module of pulse_core.wasm or its bytes');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('core bytes are copied, a compiled module is kept as given', () => {
    const bytes = new Uint8Array([0, 1, 2, 3, 4, 5]);
    const buffer = resolveOptions({ core: bytes.buffer }).core as ArrayBuffer;
    expect(buffer).toBeInstanceOf(ArrayBuffer);
    expect(buffer).not.toBe(bytes.buffer);
    expect([...new Uint8Array(buffer)]).toEqual([0, 1, 2, 3, 4, 5]);
    const view = resolveOptions({ core: new DataView(bytes.buffer, 2, 3) }).core as Uint8Array;
    expect(view).toBeInstanceOf(Uint8Array);
    expect(view.buffer).not.toBe(bytes.buffer);
    expect([...view]).toEqual([2, 3, 4]);
    const module = new WebAssembly.Module(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
    expect(resolveOptions({ core: module }).core).toBe(module);
  });
});
