// The manifest compiler: output shape, determinism of the catalog artifacts, every construction
// rule (TypeScript throws; the core re-checks a tampered manifest and fails closed), the CLI, and
// agreement with the Rust core that executes the manifest (list, handler kinds, corpus ranking).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { artifactFiles, compileRouter, ManifestError, sha256Hex, type Manifest } from '../../src/compiler';
import type { CodecDescriptor } from '../../src/router/codec-types';
import type { OperationDefinition, RouterDefinition } from '../../src/router/definition';
import { main } from '../../src/cli/main';
import { cli } from '../support/cli';
import { codec, EntityRouter, handlers } from '../../src/pulse';
import { toolSource } from '../../src/router';
import { isBackendUrl } from '../../src/router/rules';
import { callTool, engineFor, listTools } from './compiler-harness';

const str = (o: Partial<{ minLength: number; maxLength: number }> = {}): CodecDescriptor => ({ kind: 'string', ...o });
const obj = (fields: Record<string, CodecDescriptor | [CodecDescriptor, 'optional']>, open?: boolean): CodecDescriptor => {
  const f: Record<string, { codec: CodecDescriptor; optional?: boolean }> = {};
  for (const [k, v] of Object.entries(fields)) f[k] = Array.isArray(v) ? { codec: v[0], optional: true } : { codec: v };
  return open ? { kind: 'object', fields: f, open: true } : { kind: 'object', fields: f };
};

const ENTRIES = [
  { id: 'intro', title: 'Introduction', collection: 'docs', text: 'Pulse MCP serves bounded tools over HTTP. Tools are declared statically.', tags: ['overview'] },
  { id: 'limits', title: 'Limits', collection: 'docs', text: 'Request bytes, response bytes, depth and deadline limits bound every request.' },
  { id: 'edge', title: 'Fastly edge', collection: 'examples', text: 'Deploy the router to the Fastly edge: native handler kinds only. Edge edge.' },
  { id: 'node', title: 'Node host', collection: 'examples', text: 'The Node host runs JavaScript handlers and native kinds; tools over HTTP.' },
];

function definition(extra: OperationDefinition[] = []): RouterDefinition {
  const hit = obj({ id: str(), title: str() });
  return {
    id: 'demo',
    corpora: { docs: { version: '3', entries: ENTRIES }, unused: { version: '1', entries: [] } },
    backends: { api: { url: 'https://api.example/base/' } },
    config: {},
    budgets: { deadlineMs: 4000, fetches: 4, fetchBytes: 65536, calls: 4 },
    operations: [
      {
        name: 'search',
        title: 'Search',
        description: 'Full-text search',
        hints: { readOnlyHint: true, openWorldHint: false },
        input: obj({ query: str({ minLength: 1, maxLength: 100 }), limit: [{ kind: 'u32', max: 8 }, 'optional'] }),
        output: obj({ results: { kind: 'array', items: hit, maxItems: 8 } }),
        handler: { kind: 'corpus', corpus: 'docs', action: 'search', topK: 4, maxBytes: 4096 },
      },
      {
        name: 'read',
        input: obj({ id: str({ maxLength: 64 }) }),
        output: obj({ id: str(), text: str(), truncated: { kind: 'boolean' } }),
        handler: { kind: 'corpus', corpus: 'docs', action: 'read' },
      },
      {
        name: 'list',
        output: obj({ entries: { kind: 'array', items: obj({ id: str() }), maxItems: 64 }, truncated: { kind: 'boolean' } }),
        handler: { kind: 'corpus', corpus: 'docs', action: 'list' },
      },
      { name: 'status', output: obj({ ok: { kind: 'boolean' } }), handler: { kind: 'static', result: { ok: true, secret: 'dropped' } } },
      { name: 'noop', handler: { kind: 'static', result: null } },
      {
        name: 'remote.echo',
        input: obj({ n: { kind: 'i32', min: -5, max: 5 } }),
        output: obj({ n: { kind: 'i32' } }, true),
        handler: { kind: 'backend', backend: 'api', method: 'POST', path: '/v1/echo', maxBytes: 2048, timeoutMs: 3000 },
      },
      { name: 'js_tool', handler: { kind: 'javascript', fn: () => null } },
      ...extra,
    ],
  };
}

describe('compileRouter output', () => {
  const { manifest, catalog, schemaRegistry } = compileRouter(definition());

  it('prebuilds the tools/list array with projected schemas, titles and hints only', () => {
    const list = JSON.parse(manifest.list);
    expect(list.map((t: { name: string }) => t.name)).toEqual(['search', 'read', 'list', 'status', 'noop', 'remote.echo', 'js_tool']);
    expect(list[0]).toEqual({
      name: 'search',
      title: 'Search',
      description: 'Full-text search',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 1, maxLength: 100 },
          limit: { type: 'integer', minimum: 0, maximum: 8 },
        },
        required: ['query'],
      },
      outputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          results: {
            type: 'array',
            items: { type: 'object', properties: { id: { type: 'string' }, title: { type: 'string' } }, required: ['id', 'title'], additionalProperties: false },
            maxItems: 8,
          },
        },
        required: ['results'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    });
    expect(Object.keys(list[0])).toEqual(['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations']);
    expect(list[4]).toEqual({ name: 'noop', inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', additionalProperties: false } });
    // An open output object allows extras: no additionalProperties.
    expect(list[5].outputSchema.additionalProperties).toBeUndefined();
  });

  it('compiles handlers, codec programs and only the corpora in use', () => {
    expect(Object.keys(manifest.corpora)).toEqual(['docs']);
    const byName = Object.fromEntries(manifest.tools.map((t) => [t.name, t]));
    expect(byName['remote.echo']!.handler).toEqual({ kind: 'backend', backend: 'api', method: 'POST', url: 'https://api.example/base/v1/echo', maxBytes: 2048, timeoutMs: 3000 });
    expect(byName['remote.echo']!.input).toEqual([['i32', -5, 5], ['object', 0, [['n', 0, 0]]]]);
    expect(byName.status!.handler).toEqual({ kind: 'static', result: '{"ok":true,"secret":"dropped"}' });
    expect(byName.noop!.handler).toEqual({ kind: 'static' });
    expect(byName.js_tool!.handler).toEqual({ kind: 'javascript' });
    expect(byName.read!.handler).toEqual({ kind: 'corpus', corpus: 'docs', action: 'read', topK: 10, maxBytes: 16384 });
    expect(JSON.stringify(manifest)).not.toContain('=>');
  });

  it('emits a protocol-neutral catalog and a schema registry', () => {
    expect(catalog.operations[0]).toEqual({
      name: 'search',
      title: 'Search',
      description: 'Full-text search',
      hints: { readOnlyHint: true, openWorldHint: false },
      input: 'search#input',
      output: 'search#output',
      handler: 'corpus',
      targets: ['fastly-javascript', 'fastly-native', 'node-javascript', 'node-native', 'workerd-javascript'],
    });
    expect(catalog.operations.find((o) => o.name === 'js_tool')!.targets).toEqual(['fastly-javascript', 'node-javascript', 'workerd-javascript']);
    expect(JSON.stringify(catalog)).not.toContain('api.example');
    expect(schemaRegistry.schemas.map((s) => s.id)).toContain('noop#input');
    expect(schemaRegistry.schemas.map((s) => s.id)).not.toContain('noop#output');
    expect(manifest.catalogHash).toBe(catalog.hash);
  });
});

describe('catalog artifacts', () => {
  it('are byte-identical across two compilations of equal definitions', () => {
    const a = artifactFiles(compileRouter(definition()));
    const b = artifactFiles(compileRouter(definition()));
    expect(b['entities-catalog.json']).toBe(a['entities-catalog.json']);
    expect(b['schema-json-registry.json']).toBe(a['schema-json-registry.json']);
    expect(b['manifest.json']).toBe(a['manifest.json']);
  });

  it('carry a format version and a sha256 of their content without the hash', () => {
    const { catalog, schemaRegistry } = compileRouter(definition());
    // The catalog's format 2 names the targets by runtime and executor; the registry is unchanged.
    expect([catalog.formatVersion, schemaRegistry.formatVersion]).toEqual([2, 1]);
    for (const artifact of [catalog, schemaRegistry]) {
      const { hash, ...rest } = artifact;
      expect(Object.keys(artifact).slice(0, 3)).toEqual(['formatVersion', 'kind', 'hash']);
      expect(hash).toBe(`sha256:${createHash('sha256').update(JSON.stringify(rest)).digest('hex')}`);
    }
    const changed = definition();
    const ops = changed.operations.map((o) => (o.name === 'read' ? { ...o, description: 'changed' } : o));
    expect(compileRouter({ ...changed, operations: ops }).catalog.hash).not.toBe(catalog.hash);
  });

  it('hash with a pure-TS sha256 that matches node:crypto', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (s) => sha256Hex(s) === createHash('sha256').update(s).digest('hex')),
      { numRuns: 200 },
    );
  });
});

describe('construction rules', () => {
  const deep = (n: number): CodecDescriptor => (n === 0 ? { kind: 'boolean' } : { kind: 'array', items: deep(n - 1), maxItems: 1 });
  const wide = (n: number): CodecDescriptor => obj(Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, { kind: 'boolean' } as CodecDescriptor])));
  const op = (o: Partial<OperationDefinition>): OperationDefinition => ({ name: 'x', handler: { kind: 'static', result: null }, ...o });
  const cases: [string, () => unknown, RegExp][] = [
    ['more than 128 tools', () => compileRouter({ ...definition(), operations: Array.from({ length: 129 }, (_, i) => op({ name: `t${i}` })) }), /at most 128 tools/],
    ['an invalid name', () => compileRouter(definition([op({ name: 'a b' })])), /operation name must be 1-128 characters/],
    ['a 129-character name', () => compileRouter(definition([op({ name: 'a'.repeat(129) })])), /operation name/],
    ['a duplicate name', () => compileRouter(definition([op({ name: 'noop' })])), /"noop": duplicate/],
    ['scalarRecord in an input', () => compileRouter(definition([op({ input: obj({ r: { kind: 'scalarRecord', maxKeys: 2, maxBytes: 64 } }) })])), /scalarRecord has no JSON Schema projection/],
    ['scalarRecord in an output', () => compileRouter(definition([op({ output: { kind: 'scalarRecord', maxKeys: 2, maxBytes: 64 } })])), /scalarRecord/],
    ['25 levels', () => compileRouter(definition([op({ output: deep(24) })])), /exceeds 24 levels/],
    ['4097 nodes', () => compileRouter(definition([op({ input: wide(2048), output: wide(2048) })])), /exceeds 4096 nodes/],
    ['a non-object input', () => compileRouter(definition([op({ input: str() })])), /input must be an object codec/],
    ['an unknown hint', () => compileRouter(definition([op({ hints: { sneaky: true } as never })])), /unknown hint/],
    ['a non-finite static result', () => compileRouter(definition([op({ output: { kind: 'number' }, handler: { kind: 'static', result: NaN } })])), /static result must be plain JSON/],
    ['a corpus maxBytes of 0', () => compileRouter(definition([op({ handler: { kind: 'corpus', corpus: 'docs', action: 'list', maxBytes: 0 } })])), /maxBytes must be an integer from 1 to 1048576/],
    ['a backend URL with a query', () => compileRouter({ ...definition(), backends: { api: { url: 'https://api.example/x?' } } }), /backend url must be https or loopback http without credentials, query or fragment/],
    ['an undeclared corpus', () => compileRouter(definition([op({ handler: { kind: 'corpus', corpus: 'nope', action: 'list' } })])), /corpus is not declared/],
    ['a search without query', () => compileRouter(definition([op({ input: obj({ q: str() }), handler: { kind: 'corpus', corpus: 'docs', action: 'search' } })])), /needs an input field "query"/],
    ['an optional read id', () => compileRouter(definition([op({ input: obj({ id: [str(), 'optional'] }), handler: { kind: 'corpus', corpus: 'docs', action: 'read' } })])), /"id" must be a required/],
    ['a GET with input', () => compileRouter(definition([op({ input: obj({}), handler: { kind: 'backend', backend: 'api', method: 'GET', path: '/x', maxBytes: 1, timeoutMs: 1 } })])), /GET backend call carries no body/],
    ['a dot-segment path', () => compileRouter(definition([op({ handler: { kind: 'backend', backend: 'api', method: 'POST', path: '/a/../b', maxBytes: 1, timeoutMs: 1 } })])), /dot segments/],
    ['a timeout over the deadline', () => compileRouter(definition([op({ handler: { kind: 'backend', backend: 'api', method: 'POST', path: '/a', maxBytes: 1, timeoutMs: 4001 } })])), /timeoutMs must be an integer from 1 to 4000/],
    ['plain http to a public host', () => compileRouter({ ...definition(), backends: { api: { url: 'http://api.example/' } } }), /https or loopback http/],
  ];
  it.each(cases)('rejects %s', (_, run, message) => {
    expect(run).toThrow(ManifestError);
    expect(run).toThrow(message);
  });

  it('accepts exactly 24 levels and 128 tools', () => {
    expect(() => compileRouter(definition([op({ output: deep(23) })]))).not.toThrow();
    expect(() => compileRouter({ ...definition(), operations: Array.from({ length: 128 }, (_, i) => op({ name: `t${i}` })) })).not.toThrow();
  });

  it('fails closed in the core when a manifest breaks a rule the compiler checks', () => {
    const good = compileRouter(definition()).manifest;
    const tamper = (f: (m: any) => void): (() => unknown) => () => {
      const m = JSON.parse(JSON.stringify(good));
      f(m);
      return engineFor(m as Manifest);
    };
    expect(tamper(() => {})).not.toThrow();
    const bad: [(m: any) => void, RegExp][] = [
      [(m) => (m.tools[0].output = [['scalarRecord', 1, 1]]), /scalarRecord/],
      [(m) => (m.tools[1].name = 'search'), /duplicate tool name/],
      [(m) => (m.tools[1].name = 'bad name'), /tool names/],
      [(m) => (m.list = '[]'), /list does not match/],
      [(m) => (m.formatVersion = 2), /formatVersion/],
      [(m) => (m.tools[3].handler.result = '{"ok":"yes"}'), /static result does not match/],
      [(m) => (m.tools[5].handler.url = 'http://evil.example/'), /backend url/],
      [(m) => (m.tools[0].input[0] = ['array', 5, 1]), /point backwards/],
      [(m) => (m.corpora.docs.terms = m.corpora.docs.terms.split(' ').reverse().join(' ')), /sorted/],
      [(m) => (m.corpora.docs.postings = m.corpora.docs.postings.replace(/^\d+/, '99')), /posting is out of range/],
      [(m) => (m.extra = 1), /unknown members/],
    ];
    for (const [f, message] of bad) expect(tamper(f)).toThrow(message);
  });

  it('leaves the tools/list budget to the core, which measures the exact reply', () => {
    // The compiler knows no budget; the core checks when an engine is built with its limits.
    const { manifest } = compileRouter(definition());
    const reply = listTools(engineFor(manifest));
    expect(reply.status).toBe(200);
    // The reply echoes id 7; the core keeps room for an id as long as the request budget.
    const exact = reply.size - 1 + 1024;
    expect(() => engineFor(manifest, { requestBytes: 1024, responseBytes: exact })).not.toThrow();
    expect(() => engineFor(manifest, { requestBytes: 1024, responseBytes: exact - 2 })).toThrow(
      'tools: the tools/list reply exceeds limits.responseBytes by 2 bytes (it must fit beside an id as long as limits.requestBytes)',
    );
  });
});

describe('one rule, one place: declaration, compiler and core agree', () => {
  /** Whether the core builds an engine from `manifest`. */
  const coreAccepts = (manifest: Manifest): boolean => {
    try {
      engineFor(manifest);
      return true;
    } catch {
      return false;
    }
  };
  const single = (name: string, handler: OperationDefinition['handler'], extra: Partial<RouterDefinition> = {}): RouterDefinition => ({
    ...definition(),
    operations: [{ name, input: obj({ id: str() }), handler }],
    ...extra,
  });

  it('names: 128 characters pass and 129 fail in the router declaration and in the core manifest', () => {
    const base = compileRouter(single('x', { kind: 'static', result: null })).manifest;
    const withName = (name: string): Manifest => ({
      ...base,
      list: JSON.stringify([{ ...JSON.parse(base.list)[0], name }]),
      tools: [{ ...base.tools[0]!, name }],
    });
    for (const name of ['A-z_0.9'.padEnd(128, 'x'), 'A-z_0.9'.padEnd(129, 'x'), 'a', '', 'has space', 'slash/name', 'ünicode', 'semi;colon']) {
      let declared = true;
      try {
        new EntityRouter('r').operation(name, { handler: handlers.static(null) });
      } catch {
        declared = false;
      }
      expect(coreAccepts(withName(name)), name).toBe(declared);
      expect(declared, name).toBe(name.length >= 1 && name.length <= 128 && /^[A-Za-z0-9_.-]+$/.test(name));
    }
  });

  it('corpus maxBytes: 1 to 1048576 in the handler builder, the compiler and the core (the compiler used to require 256)', () => {
    const corpora = { docs: { version: '1', entries: ENTRIES } };
    for (const [maxBytes, ok] of [[0, false], [1, true], [255, true], [256, true], [1048576, true], [1048577, false]] as const) {
      let built = true;
      try {
        handlers.corpus({ corpus: 'docs', action: 'read', maxBytes });
      } catch {
        built = false;
      }
      expect(built, String(maxBytes)).toBe(ok);
      const def = single('read', { kind: 'corpus', corpus: 'docs', action: 'read', maxBytes }, { corpora });
      if (ok) {
        const { manifest } = compileRouter(def);
        expect(manifest.tools[0]!.handler).toMatchObject({ maxBytes });
        expect(coreAccepts(manifest), String(maxBytes)).toBe(true);
      } else {
        expect(() => compileRouter(def)).toThrow('operation "read": maxBytes must be an integer from 1 to 1048576');
        const { manifest } = compileRouter(single('read', { kind: 'corpus', corpus: 'docs', action: 'read' }, { corpora }));
        expect(coreAccepts({ ...manifest, tools: [{ ...manifest.tools[0]!, handler: { ...manifest.tools[0]!.handler, maxBytes } as never }] })).toBe(false);
      }
    }
    // Through the public path: a declared 1-byte corpus read serves a truncated entry.
    const r = new EntityRouter('tiny', { corpora })
      .operation('read', { input: codec.object({ id: codec.string() }), handler: handlers.corpus({ corpus: 'docs', action: 'read', maxBytes: 1 }) });
    expect(coreAccepts(toolSource(r).manifest as Manifest)).toBe(true);
  });

  it('backend URLs: the TypeScript rule and the core accept exactly the same URLs', () => {
    const { manifest } = compileRouter(single('call', { kind: 'backend', backend: 'api', method: 'POST', path: '/x', maxBytes: 10, timeoutMs: 10 }));
    const withUrl = (url: string): Manifest => ({ ...manifest, tools: [{ ...manifest.tools[0]!, handler: { ...manifest.tools[0]!.handler, url } as never }] });
    const urls = [
      'https://api.example/x',
      'https://api.example',
      'https://',
      'http://127.0.0.1:8080/x',
      'http://127.0.0.1',
      'http://localhost/x',
      'http://[::1]:1/x',
      'http://[::1]/x',
      'http://api.example/x',
      'http://127.0.0.1.example/x',
      'https://user@api.example/x',
      'https://api.example/x?q=1',
      'https://api.example/x?',
      'https://api.example/x#f',
      'https://api.example/a b',
      'https://api.example/café',
      `https://api.example/${'a'.repeat(2048 - 'https://api.example/'.length)}`,
      `https://api.example/${'a'.repeat(2049 - 'https://api.example/'.length)}`,
      'ftp://api.example/x',
    ];
    for (const url of urls) expect(isBackendUrl(url), url).toBe(coreAccepts(withUrl(url)));
    // Declared base URLs go through the same rule after WHATWG normalization.
    for (const [base, ok] of [['https://api.example/v1', true], ['http://[::1]:1', true], ['http://api.example', false], ['https://api.example/x?', false], ['https://u:p@api.example', false]] as const) {
      let declared = true;
      try {
        new EntityRouter('r', { backends: { api: base } });
      } catch {
        declared = false;
      }
      expect(declared, base).toBe(ok);
    }
  });
});

describe('the core executes the compiled manifest', () => {
  const { manifest } = compileRouter(definition());
  const engine = engineFor(manifest);

  it('serves the prebuilt list', () => {
    const r = listTools(engine);
    expect(r.status).toBe(200);
    expect(r.body.result.tools).toEqual(JSON.parse(manifest.list));
  });

  it('runs static, corpus, backend and JavaScript handlers', () => {
    const status = callTool(engine, 'status', {});
    expect(status.body.result.structuredContent).toEqual({ ok: true });
    expect(status.body.result.content).toEqual([{ type: 'text', text: '{"ok":true}' }]);
    expect(callTool(engine, 'noop', undefined).body.result).toMatchObject({ content: [{ type: 'text', text: 'null' }], isError: false });
    expect(callTool(engine, 'noop', undefined).body.result.structuredContent).toBeUndefined();

    const read = callTool(engine, 'read', { id: 'limits' });
    expect(read.body.result.structuredContent).toEqual({ id: 'limits', text: ENTRIES[1]!.text, truncated: false });
    expect(callTool(engine, 'read', { id: 'missing' }).body.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Entry not found' }] });
    expect(callTool(engine, 'list', {}).body.result.structuredContent).toEqual({ entries: ENTRIES.map((e) => ({ id: e.id })), truncated: false });

    const echo = callTool(engine, 'remote.echo', { n: 3, junk: 'x' }, () => ({ status: 200, body: '{"n":4,"more":[1.50]}' }));
    expect(echo.effects[0]).toEqual({
      kind: 'http',
      backend: 'api',
      method: 'POST',
      url: 'https://api.example/base/v1/echo',
      headers: [['content-type', 'application/json'], ['accept', 'application/json']],
      body: '{"n":3}',
      maxBytes: 2048,
      timeoutMs: 3000,
    });
    expect(echo.body.result.structuredContent).toEqual({ n: 4, more: [1.5] });
    const refused = callTool(engine, 'remote.echo', { n: 1 }, () => ({ failed: 'unreachable' }));
    expect([refused.status, refused.body.error.code]).toEqual([502, -32603]);

    const js = callTool(engine, 'js_tool', {}, () => ({ failed: true }));
    expect(js.effects[0]).toEqual({ kind: 'handler', op: 'js_tool', timeoutMs: 4000 });
    expect(js.body.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Tool execution failed' }] });
  });

  it('reports input failures with a path and a fixed message, never the value', () => {
    const r = callTool(engine, 'search', { query: 'edge', limit: 9.5 });
    expect(r.status).toBe(200);
    expect(r.body.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Input validation failed at $.limit: Expected an integer' }] });
    const secret = callTool(engine, 'read', { id: 'CANARY-'.repeat(20) });
    expect(secret.body.result.content[0].text).toBe('Input validation failed at $.id: String too long');
    expect(callTool(engine, 'noop', { a: 1 }).body.result.content[0].text).toBe('Input validation failed at $: Expected an empty object');
    const unknown = callTool(engine, 'nope', {});
    expect([unknown.status, unknown.body.error.code]).toEqual([400, -32602]);
  });

  // A TypeScript BM25 over the compiled index, with the core's arithmetic in the core's order and
  // the documented tokenization as its oracle: agreeing rankings prove the index format and scoring.
  function reference(m: Manifest, query: string, k: number): string[] {
    const c = m.corpora.docs!;
    const lengths = c.lengths.split(' ').map(Number);
    const termList = c.terms.split(' ');
    const idfs = c.idf.split(' ').map(Number);
    const groups = c.postings.split(' ').map((g) => g.split(',').map((p) => p.split(':').map(Number) as [number, number]));
    const terms: string[] = [];
    const tokens = query.split(/[^A-Za-z0-9]+/).filter((t) => t !== '' && t.length <= 64);
    for (const t of tokens.map((t) => t.toLowerCase())) if (!terms.includes(t) && terms.length < 32) terms.push(t);
    const avg = lengths.reduce((a, b) => a + b, 0) / lengths.length;
    const scores = new Array<number>(c.entries.length).fill(0);
    for (const t of terms) {
      const i = termList.indexOf(t);
      if (i < 0) continue;
      const idf = idfs[i]! / 1e6;
      for (const [e, tf] of groups[i]!) {
        scores[e] += (idf * (tf * 2.2)) / (tf + 1.2 * (1 - 0.75 + 0.75 * (lengths[e]! / avg)));
      }
    }
    return scores
      .map((s, i) => [s, i] as const)
      .filter(([s]) => s > 0)
      .sort((a, b) => b[0] - a[0] || a[1] - b[1])
      .slice(0, k)
      .map(([, i]) => c.entries[i]![0]);
  }

  it('ranks search results exactly like the TypeScript reference', () => {
    const words = manifest.corpora.docs!.terms.split(' ');
    const query = fc.array(fc.oneof(fc.constantFrom(...words), fc.constantFrom('EDGE', 'Tools!', 'café', 'zzz', '-')), { minLength: 1, maxLength: 6 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(query, (q) => {
        const r = callTool(engine, 'search', { query: q });
        const ids = r.body.result.structuredContent.results.map((x: { id: string }) => x.id);
        expect(ids).toEqual(reference(manifest, q, 4));
      }),
      { numRuns: 150 },
    );
  });
});

describe('the example context router', () => {
  it('compiles within the static binding budgets and runs in the core', async () => {
    const { tools: router } = await import('../../edge/context.mjs');
    const budgets = { requestBytes: 32768, responseBytes: 131072 };
    const first = artifactFiles(compileRouter(router.definition()));
    expect(artifactFiles(compileRouter(router.definition()))).toEqual(first);
    const { manifest, catalog } = compileRouter(router.definition());
    expect(catalog.operations.every((o) => o.targets.includes('fastly-native'))).toBe(true);
    const engine = engineFor(manifest, { ...budgets, toolResultBytes: 24576, deadlineMs: 5000, depth: 32 });
    expect(listTools(engine).body.result.tools).toEqual(JSON.parse(manifest.list));
    for (const t of manifest.tools) {
      const args = t.input === null ? {} : { query: 'deploy fastly edge', id: 'does-not-exist' };
      const r = callTool(engine, t.name, args);
      expect(r.status, t.name).toBe(200);
      expect(r.body.result.content[0].text.length, t.name).toBeGreaterThan(0);
    }
    const search = callTool(engine, 'search_docs', { query: 'tools list', limit: 3 });
    expect(search.body.result.isError).toBe(false);
    expect(search.body.result.structuredContent.results.length).toBeGreaterThan(0);
  });
});

describe('pulse-mcp compile', () => {
  it('writes the three artifacts for a router module', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pulse-compile-'));
    try {
      const def = definition().operations.filter((o) => o.handler.kind !== 'javascript');
      const mod = join(dir, 'router.mjs');
      writeFileSync(mod, `export default { definition: () => (${JSON.stringify({ ...definition(), operations: def })}) };\n`);
      expect(await main(['compile', mod, '--out', join(dir, 'out')])).toBe(0);
      const expected = artifactFiles(compileRouter({ ...definition(), operations: def }));
      for (const [name, text] of Object.entries(expected)) expect(readFileSync(join(dir, 'out', name), 'utf8')).toBe(text);
      expect(await main(['compile', mod])).toBe(2);
      // The core judges the manifest under the binding's limits before anything is written.
      const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      try {
        expect(await main(['compile', mod, '--out', join(dir, 'tight'), '--request-bytes', '1024', '--response-bytes', '1600'])).toBe(1);
        expect(String(stderr.mock.calls.at(-1)?.[0])).toMatch(/^pulse-mcp: tools: the tools\/list reply exceeds limits\.responseBytes by \d+ bytes/);
      } finally {
        stderr.mockRestore();
      }
      expect(existsSync(join(dir, 'tight'))).toBe(false);
      const empty = join(dir, 'empty.mjs');
      writeFileSync(empty, 'export default { nothing: true };\n');
      expect(await main(['compile', empty, '--out', join(dir, 'out2')])).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prints its usage for --help and refuses bad usage with the reason and exit 2', async () => {
    const help = await cli(['--help']);
    expect(help).toMatchObject({ code: 0, err: '' });
    expect(help.out).toMatch(/^pulse-mcp: .*\n\nusage:\n  pulse-mcp build <module> --target fastly-native --wasm <file>/);
    expect(help.out).toContain('\n  pulse-mcp compile <router module> --out <dir>');
    expect(await cli(['--version'])).toEqual({ code: 0, out: `${JSON.parse(readFileSync('package.json', 'utf8')).version}\n`, err: '' });
    const cases: [string[], string][] = [
      [[], 'no command'],
      [['build'], 'build needs a module'],
      [['build', 'r.mjs'], 'build needs --out <dir> (or --wasm <file> for a Compute binary)'],
      [['build', 'r.mjs', '--wasm', 'bin/main.wasm'], '--wasm writes a Fastly Compute binary: give --target fastly-native or --target fastly-javascript'],
      [['build', 'r.mjs', '--target', 'node-native', '--wasm', 'bin/main.wasm'], '--wasm writes a Fastly Compute binary: give --target fastly-native or --target fastly-javascript'],
      [['build', 'r.mjs', '--target', 'fastly-native', '--wasm'], '--wasm takes the path of the Compute binary to write (bin/main.wasm)'],
      [['build', 'r.mjs', '--out', 'x', '--fastly-toml', 'fastly.toml'], '--fastly-toml is read by a build that writes a binary: give --wasm <file>'],
      [['compile', 'r.mjs', '--wasm', 'bin/main.wasm'], 'unknown option --wasm'],
      [['deploy'], 'unknown command deploy'],
      [['build', 'r.mjs', '--out', 'x', '--target', 'edge'], '--target: must be one of fastly-native, node-native, node-javascript, fastly-javascript, workerd-javascript'],
      [['build', 'r.mjs', '--out', 'x', '--target', 'node'], '--target: "node" is now "node-javascript"'],
      [['build', 'r.mjs', '--out', 'x', '--target', 'workerd'], '--target: "workerd" is now "workerd-javascript"'],
      [['build', 'r.mjs', '--out', 'x', '--target'], '--target takes one of fastly-native, node-native, node-javascript, fastly-javascript, workerd-javascript'],
      [['build', 'r.mjs', '--out', 'x', '--evidence'], '--evidence takes the path of a diff report'],
      [['compile', 'r.mjs', '--out', 'x', '--evidence', 'e.json'], 'unknown option --evidence'],
      [['build', 'r.mjs', '--out', 'x', '--request-bytes', '10'], 'unknown option --request-bytes'],
      [['compile', 'r.mjs'], 'compile needs --out <dir>'],
      [['compile', '--out', 'x'], 'compile needs a module'],
      [['compile', 'r.mjs', '--out'], '--out takes a directory'],
      [['compile', 'r.mjs', '--out', 'x', '--request-bytes', '0'], '--request-bytes takes a positive integer, got "0"'],
      [['compile', 'r.mjs', '--out', 'x', '--verbose'], 'unknown option --verbose'],
      [['compile', 'r.mjs', 's.mjs', '--out', 'x'], 'unexpected argument s.mjs: compile takes one module'],
    ];
    for (const [argv, reason] of cases) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err.startsWith(`pulse-mcp: ${reason}\n\n${help.out}`), `${argv.join(' ')} → ${r.err.split('\n')[0]}`).toBe(true);
    }
  });

  it('names the cause when the module does not load or exports no router', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pulse-compile-'));
    try {
      const write = (name: string, text: string) => {
        writeFileSync(join(dir, name), text);
        return join(dir, name);
      };
      const missing = join(dir, 'missing.mjs');
      const cases: [string, RegExp][] = [
        [missing, /^pulse-mcp: \S+missing\.mjs did not load: Error: Cannot find module '\S+missing\.mjs'/],
        [write('throws.mjs', 'throw new TypeError("no corpus here");\n'), /^pulse-mcp: \S+throws\.mjs did not load: TypeError: no corpus here\n$/],
        [write('none.mjs', 'export const helper = 1;\nexport default 3;\n'), /^pulse-mcp: the module exports no router \(its exports: default, helper\): export an EntityRouter or a RouterDefinition as `default` or as `router`\n$/],
      ];
      for (const [mod, message] of cases) {
        const r = await cli(['compile', mod, '--out', join(dir, 'out')]);
        expect(r.code, mod).toBe(1);
        expect(r.err).toMatch(message);
      }
      expect(existsSync(join(dir, 'out'))).toBe(false);
      // A syntax error gets file:line and the caret from `node --check`. Through the built CLI: under
      // vitest, import() is Vite's and reports syntax differently.
      const syntax = write('syntax.mjs', 'export const a = 1;\nexport const b = {;\n');
      const built = spawnSync(process.execPath, ['dist/cjs/cli.js', 'compile', syntax, '--out', join(dir, 'out')], { encoding: 'utf8' });
      expect(built.status).toBe(1);
      expect(built.stderr).toBe(`pulse-mcp: ${syntax} did not load: SyntaxError: Unexpected token ';'\n${syntax}:2\nexport const b = {;\n${' '.repeat(18)}^\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
