// `pulse-mcp build`, the declaration lowerer: its artifacts equal what the evaluating compiler
// (`pulse-mcp compile`) writes for the same router, byte for byte and run after run, without
// running the module; and every declaration it cannot decide statically fails with
// file:line:column and what to write instead.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { lowerRouter } from '../../src/compiler/lower';
import type { Target } from '../../src/compiler/types';
import { main } from '../../src/cli/main';
import { operationEvidence } from '../../src/compiler/evidence';
import { calledOperation } from '../../tools/diff/evidence';
import { count, evidenceOf, evidenceReport } from '../../src/cli/diff/evidence-report';
import { META, envelope, modernHeaders } from '../support/fixtures';
import { thrown } from '../support/thrown';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cjs', 'cli.js');
const tmp = mkdtempSync(join(tmpdir(), 'pulse-lower-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs the built CLI (as a user runs it) and returns the files it wrote. */
function cli(args: string[]): { status: number | null; stderr: string; files: Record<string, string> } {
  const out = join(tmp, `out-${Math.random().toString(36).slice(2)}`);
  const r = spawnSync(process.execPath, [CLI, ...args, '--out', out], { cwd: ROOT, encoding: 'utf8' });
  const files: Record<string, string> = {};
  if (existsSync(out)) for (const f of readdirSync(out)) files[f] = readFileSync(join(out, f), 'utf8');
  return { status: r.status, stderr: r.stderr, files };
}

describe('pulse-mcp build', () => {
  for (const module of ['examples/catalog/router.mjs', 'test/fixtures/lower/full.mjs']) {
    it(`writes the catalog artifacts pulse-mcp compile writes, for ${module}`, () => {
      const compiled = cli(['compile', module]);
      const built = cli(['build', module]);
      expect(compiled.status, compiled.stderr).toBe(0);
      expect(built.status, built.stderr).toBe(0);
      expect(Object.keys(built.files).sort()).toEqual(['entities-catalog.json', 'entities-inspection.json', 'schema-json-registry.json']);
      expect(built.files['entities-catalog.json']).toBe(compiled.files['entities-catalog.json']);
      expect(built.files['schema-json-registry.json']).toBe(compiled.files['schema-json-registry.json']);
      // Byte-deterministic, the inspection artifact included.
      expect(cli(['build', module]).files).toEqual(built.files);
    });
  }

  it('reads TypeScript sources the same way', () => {
    // full.mjs with TypeScript syntax the lowerer must read past: annotations, `as const`, `satisfies`.
    const js = readFileSync(join(ROOT, 'test/fixtures/lower/full.mjs'), 'utf8');
    const edits: [string, string][] = [
      ['const id = codec.string(', 'const id: ReturnType<typeof codec.string> = codec.string('],
      ["codec.enum(['person', 'company'])", "codec.enum(['person', 'company'] as const)"],
      ['hints: { readOnlyHint: true },', 'hints: { readOnlyHint: true } satisfies Record<string, boolean>,'],
      ['handler: async (ctx, input) =>', 'handler: async (ctx: any, input: { name: string }) =>'],
      ['handler(ctx, input) {', 'handler(ctx: any, input: unknown): boolean {'],
    ];
    let text = js;
    for (const [from, to] of edits) {
      expect(text.includes(from), from).toBe(true);
      text = text.replace(from, to);
    }
    const file = join(ROOT, 'test', 'fixtures', 'lower', `full-${process.pid}.ts`);
    writeFileSync(file, text);
    try {
      const mjs = cli(['build', 'test/fixtures/lower/full.mjs']);
      const tsx = cli(['build', file]);
      expect(tsx.status, tsx.stderr).toBe(0);
      expect(tsx.files['entities-catalog.json']).toBe(mjs.files['entities-catalog.json']);
      expect(tsx.files['schema-json-registry.json']).toBe(mjs.files['schema-json-registry.json']);
    } finally {
      rmSync(file, { force: true });
    }
  });

  it('summarises what each handler may do, by capability, never by value', () => {
    const built = cli(['build', 'test/fixtures/lower/full.mjs']);
    const inspection = JSON.parse(built.files['entities-inspection.json']!);
    const catalog = JSON.parse(built.files['entities-catalog.json']!);
    expect(inspection).toMatchObject({ formatVersion: 1, kind: 'pulse.entities-inspection', routerId: 'full', catalogHash: catalog.hash });
    expect(inspection.operations.map((o: { name: string; handler: string; effects: string[] }) => [o.name, o.handler, o.effects])).toEqual([
      ['contact_save', 'javascript', ['fetches https://crm.example', 'logs', 'reads secret crm-token', 'writes kv']],
      ['contact_check', 'javascript', ['calls operation contact_save']],
      ['docs_search', 'corpus', ['reads corpus docs (search)']],
      ['remote_echo', 'backend', ['calls backend api (POST /echo)']],
      ['version', 'static', ['returns a fixed result']],
      ['noop', 'javascript', ['computes its result (no context capability)']],
    ]);
    expect(inspection.operations[0].declaredAt).toBe('full.mjs:33:14');
    // The fetched URL's path and query, the request body and the secret's value are not in it.
    expect(built.files['entities-inspection.json']).not.toMatch(/contacts|x=1|JSON\.stringify|authorization|input\.name/);
  });

  it('never runs the module: top-level effects do not happen', () => {
    const marker = join(tmp, 'ran.txt');
    const mod = join(ROOT, 'test', 'fixtures', 'lower', `effects-${process.pid}.mjs`);
    writeFileSync(
      mod,
      [
        "import { writeFileSync } from 'node:fs';",
        "import { EntityRouter, codec } from '@pulse-compute/mcp/pulse';",
        `writeFileSync(${JSON.stringify(marker)}, 'the module ran');`,
        "export const router = new EntityRouter('quiet').operation('hello', { output: codec.string({ maxLength: 8 }), handler: () => { throw new Error('ran'); } });",
        "throw new Error('the module was evaluated');",
      ].join('\n'),
    );
    try {
      const built = cli(['build', mod]);
      expect(built.status, built.stderr).toBe(0);
      expect(JSON.parse(built.files['entities-catalog.json']!).operations.map((o: { name: string }) => o.name)).toEqual(['hello']);
      expect(existsSync(marker)).toBe(false);
    } finally {
      rmSync(mod, { force: true });
    }
  });
});

describe('what the lowerer cannot decide statically', () => {
  const HEAD = "import { EntityRouter, codec, handlers } from '@pulse-compute/mcp/pulse';\n";
  const route = (input: string) => `export default new EntityRouter('r').operation('op', { input: ${input}, handler: () => 1 });\n`;
  // message: the text after `file:line:column: `, where `at` is the first occurrence of the marker
  // (in the module with its import line), or after `file` for a refusal without a place.
  type Row = [name: string, body: string, at: string | undefined, message: string | RegExp, options?: { router?: string; target?: Target }];
  const ROWS: Row[] = [
    ['a computed field name', "const k = 'a';\n" + route('codec.object({ [k]: codec.string() })'), '[k]', 'a computed property name; write the name as a literal'],
    ['a spread of fields', 'const base = { a: codec.string() };\n' + route('codec.object({ ...base })'), '...base', 'a spread; write the members out'],
    ['a spread of enum values', "const values = ['a'];\n" + route("codec.object({ v: codec.enum([...values, 'b']) })"), '...values', 'a spread; write the elements out'],
    [
      'a codec built in a loop',
      "let fields = {};\nfor (const n of ['a', 'b']) fields[n] = codec.string();\n" + route('codec.object(fields)'),
      'fields = {}',
      /^fields is not a const with an initializer; declare it once with `const` and a static value/,
    ],
    ['a codec from a helper function', 'const text = (n) => codec.string({ maxLength: n });\n' + route('codec.object({ a: text(5) })'), 'text(5)', /^a call of text; the lowerer runs no application code/],
    ['a codec from a function declaration', 'function text() { return codec.string(); }\n' + route('codec.object({ a: text() })'), 'text()', 'text is a function, which the lowerer does not run; write the value it returns inline, or as a module-level const'],
    ['a codec imported from another module', "import { query } from './codecs.mjs';\n" + route('query'), 'query }', /^query is imported from \.\/codecs\.mjs, which the lowerer does not read/],
    ['a template with substitutions', "const v = 2;\nexport default new EntityRouter('r').operation('op', { title: `v${v}`, handler: () => 1 });\n", '`v${v}`', 'a template with substitutions; write the text as one literal'],
    ['a conditional value', 'const prod = true;\n' + route('codec.object({ a: codec.string({ maxLength: prod ? 5 : 6 }) })'), 'prod ?', 'a conditional value; write the value the declaration needs'],
    ['an arithmetic value', route('codec.object({ a: codec.string({ maxLength: 2 * 8 }) })'), '2 * 8', 'a computed value; write the result as a literal'],
    ["a router built by a function", "function declare() { return new EntityRouter('r'); }\nexport default declare();\n", 'declare();', /^the default export is built by a call of declare; the lowerer runs no application code/],
    ['a __proto__ field', route('codec.object({ __proto__: codec.string() })'), '__proto__', 'a __proto__ member; name the field otherwise'],
    ['an unknown API name', "import { nope } from '@pulse-compute/mcp/pulse';\n" + route('nope'), 'nope, handler', 'nope is not part of the declaration API; use EntityRouter, codec and handlers'],
    ['a value the declaration API refuses', route('codec.object({ a: codec.string({ maxLength: -1 }) })'), undefined, /^: \S/],
    ['two routers and no --router', "export const a = new EntityRouter('a');\nexport const b = new EntityRouter('b');\n", undefined, ': exports the routers a, b; choose one with --router <id>'],
    ['an unknown --router id', "export const a = new EntityRouter('a');\n", undefined, ': no exported router has the id "z" (it exports a)', { router: 'z' }],
    ['a JavaScript handler for --target fastly-native', route('undefined'), undefined, ': op has a JavaScript handler, which target fastly-native does not run; the Native service runs static, corpus and backend handlers only: build a router with JavaScript handlers for Fastly with --target fastly-javascript', { target: 'fastly-native' }],
    ['a JavaScript handler for --target node-native', route('undefined'), undefined, ': op has a JavaScript handler, which target node-native does not run; the Native service runs static, corpus and backend handlers only: build a router with JavaScript handlers for Fastly with --target fastly-javascript', { target: 'node-native' }],
  ];
  for (const [name, body, marker, message, options] of ROWS) {
    it(name, () => {
      const file = join(tmp, `${name.replace(/\W+/g, '-')}.mjs`);
      const text = HEAD + body;
      writeFileSync(file, text);
      let err: unknown;
      try {
        lowerRouter(ts, file, options);
      } catch (e) {
        err = e;
      }
      expect(err).toMatchObject({ name: 'ManifestError' });
      const got = (err as Error).message;
      expect(got.startsWith(file), got).toBe(true);
      let rest = got.slice(file.length);
      if (marker !== undefined) {
        const offset = text.indexOf(marker);
        const line = text.slice(0, offset).split('\n').length;
        const column = offset - text.lastIndexOf('\n', offset - 1);
        expect(rest.startsWith(`:${line}:${column}: `), `${rest} at ${line}:${column}`).toBe(true);
        rest = rest.slice(`:${line}:${column}: `.length);
      }
      if (typeof message === 'string') expect(rest).toBe(message);
      else expect(rest).toMatch(message);
    });
  }

  it('the target option: old names are refused with the new one, never mapped', () => {
    const file = join(tmp, 'target.mjs');
    writeFileSync(file, HEAD + route('undefined'));
    const rows: [target: string, message: string][] = [
      ['node', 'target: "node" is now "node-javascript"'],
      ['workerd', 'target: "workerd" is now "workerd-javascript"'],
      ['edge', 'target: must be one of fastly-native, node-native, node-javascript, fastly-javascript, workerd-javascript'],
    ];
    for (const [target, message] of rows) expect(thrown(() => lowerRouter(ts, file, { target: target as Target })), target).toMatchObject({ name: 'ManifestError', message });
    for (const target of ['node-javascript', 'fastly-javascript', 'workerd-javascript'] as const) expect(lowerRouter(ts, file, { target }).definition.operations[0]!.name).toBe('op');
  });

  it('the two routers are told apart by --router', () => {
    const file = join(tmp, 'two.mjs');
    writeFileSync(file, `${HEAD}export const a = new EntityRouter('a').operation('x', { handler: handlers.static(null) });\nexport const b = new EntityRouter('b');\n`);
    expect(lowerRouter(ts, file, { router: 'a' }).definition.operations.map((o) => o.name)).toEqual(['x']);
  });
});

describe('measured target evidence: pulse-mcp build --evidence <diff report>', () => {
  const MODULE = 'test/fixtures/lower/full.mjs';
  const DATE = '2026-12-05T10:00:00.000Z';
  const OPS = ['contact_save', 'contact_check', 'docs_search', 'remote_echo', 'version', 'noop'];
  const router = { routerId: 'full', catalogHash: 'sha256:aaaa', operations: OPS };
  /** A report as tools/diff writes it, with `routers` replaced. */
  const report = (routers: unknown, extra: Record<string, unknown> = {}) => JSON.stringify({ formatVersion: 1, kind: 'pulse.diff-evidence', date: DATE, routers, ...extra });
  const measured = { full: { catalogHash: 'sha256:aaaa', operations: { version: { 'node-javascript': 3, 'fastly-native': 3, 'workerd-javascript': 2 }, docs_search: { 'node-native': 1 } } } };

  /** Runs the CLI in process: its exit code, stderr and the inspection artifact it wrote, if any. */
  async function build(extra: string[]): Promise<{ code: number; err: string; inspection?: { catalogHash: string; operations: { name: string; evidence: unknown }[] } }> {
    const out = join(tmp, `evidence-${Math.random().toString(36).slice(2)}`);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const code = await main(['build', MODULE, '--out', out, ...extra]);
      const file = join(out, 'entities-inspection.json');
      return { code, err: err.mock.calls.map((c) => String(c[0])).join(''), inspection: existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined };
    } finally {
      err.mockRestore();
      stdout.mockRestore();
    }
  }

  it('without a report, every operation says it has no evidence: null', async () => {
    const r = await build([]);
    expect(r.code, r.err).toBe(0);
    expect(r.inspection!.operations.map((o) => [o.name, o.evidence])).toEqual(OPS.map((name) => [name, null]));
  });

  it('with a report, the targets the run served each operation on, their cases and the date; nothing else', async () => {
    const { inspection } = await build([]);
    const file = join(tmp, 'diff-evidence.json');
    writeFileSync(file, report({ ...measured, full: { ...measured.full, catalogHash: inspection!.catalogHash } }));
    const r = await build(['--evidence', file]);
    expect(r.code, r.err).toBe(0);
    const none = { date: DATE, targets: [] };
    expect(Object.fromEntries(r.inspection!.operations.map((o) => [o.name, o.evidence]))).toEqual({
      contact_save: none,
      contact_check: none,
      docs_search: { date: DATE, targets: [{ target: 'node-native', cases: 1 }] },
      remote_echo: none,
      version: {
        date: DATE,
        targets: [
          { target: 'fastly-native', cases: 3 },
          { target: 'node-javascript', cases: 3 },
          { target: 'workerd-javascript', cases: 2 },
        ],
      },
      noop: none,
    });
  });

  it('a report the build refuses: exit 1, the reason, nothing written', async () => {
    const file = join(tmp, 'stale-evidence.json');
    writeFileSync(file, report(measured));
    const r = await build(['--evidence', file]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(new RegExp(`^pulse-mcp: --evidence ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: routers\\.full: measured catalog "sha256:aaaa", not this build's sha256:[0-9a-f]{64}; run pulse-mcp diff again\n$`));
    expect(r.inspection).toBeUndefined();
    const missing = await build(['--evidence', join(tmp, 'no-such-report.json')]);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^pulse-mcp: --evidence \S+no-such-report\.json cannot be read: ENOENT/);
  });

  // One row, one report: what operationEvidence refuses, exactly (where = "r.json").
  const REFUSED: [name: string, text: string, message: string][] = [
    [
      'an operation the router does not declare (refused: the report is of another version of the router)',
      report({ full: { catalogHash: 'sha256:aaaa', operations: { version: { 'node-javascript': 1 }, renamed_op: { 'node-javascript': 1 } } } }),
      'r.json: routers.full: names operation "renamed_op", which the router does not declare; the report is of another version of the router: run pulse-mcp diff again',
    ],
    ['another catalog of the same router', report({ full: { ...measured.full, catalogHash: 'sha256:bbbb' } }), 'r.json: routers.full: measured catalog "sha256:bbbb", not this build\'s sha256:aaaa; run pulse-mcp diff again'],
    ['an old target name', report({ full: { catalogHash: 'sha256:aaaa', operations: { version: { node: 2 } } } }), 'r.json: routers.full.operations.version: "node" is now "node-javascript"'],
    ['an unknown target', report({ full: { catalogHash: 'sha256:aaaa', operations: { version: { native: 2 } } } }), 'r.json: routers.full.operations.version: must be one of fastly-native, node-native, node-javascript, fastly-javascript, workerd-javascript'],
    ['no cases', report({ full: { catalogHash: 'sha256:aaaa', operations: { version: { 'node-native': 0 } } } }), 'r.json: routers.full.operations.version.node-native: must be a positive number of cases'],
    ['counts that are not a map', report({ full: { catalogHash: 'sha256:aaaa', operations: { version: ['node-native'] } } }), 'r.json: routers.full.operations.version: must map targets to numbers of cases'],
    ['a router entry without operations', report({ full: { catalogHash: 'sha256:aaaa' } }), 'r.json: routers.full: must be { catalogHash, operations }'],
    ['no routers', report(undefined), 'r.json: routers must be an object of router ids'],
    ['no date', report({}, { date: undefined }), "r.json: date must be the run's time in ISO 8601 UTC (2026-01-31T12:00:00.000Z)"],
    ['a date that is no time', report({}, { date: '2026-13-45T99:00:00Z' }), "r.json: date must be the run's time in ISO 8601 UTC (2026-01-31T12:00:00.000Z)"],
    ['another format version', report({}, { formatVersion: 2 }), 'r.json: unknown formatVersion 2; this release reads 1'],
    ['another kind of file', JSON.stringify({ kind: 'pulse.entities-inspection' }), 'r.json: kind must be "pulse.diff-evidence" (the report pulse-mcp diff writes, diff-evidence.json)'],
    ['not JSON', '{"kind":', 'r.json: is not JSON; pass the report pulse-mcp diff writes (diff-evidence.json)'],
  ];
  for (const [name, text, message] of REFUSED) {
    it(`refuses ${name}`, () => {
      expect(thrown(() => operationEvidence(text, 'r.json', router))).toMatchObject({ name: 'ManifestError', message });
    });
  }

  it('reads what the differential run writes (tools/diff/evidence.ts): its tools/call cases, by operation and target', () => {
    const served = new Map([['p', { routerId: 'full', catalogHash: 'sha256:aaaa', operations: new Set(OPS) }]]);
    const post = (method: string, params: unknown, name?: string) => ({ method: 'POST', path: '/mcp', headers: modernHeaders(method, name), body: envelope(method, 1, params) });
    const call = (name: string) => post('tools/call', { name, arguments: {}, _meta: META }, name);
    const cases = [
      { name: 'version', profile: 'p', request: call('version') },
      { name: 'version in chunks', profile: 'p', request: { ...call('version'), body: undefined, chunks: [envelope('tools/call', 2, { name: 'version', _meta: META }).slice(0, 9), Buffer.from(envelope('tools/call', 2, { name: 'version', _meta: META }).slice(9))] } },
      { name: 'docs_search', profile: 'p', request: call('docs_search') },
      { name: 'an unknown tool', profile: 'p', request: call('absent') },
      { name: 'the listing', profile: 'p', request: post('tools/list', { _meta: META }) },
      { name: 'not JSON', profile: 'p', request: { ...call('version'), body: '{"method":"tools/call"' } },
      { name: 'another profile', profile: 'q', request: call('version') },
    ];
    const evidence = evidenceOf(served);
    const called = cases.map((c) => calledOperation(c, served.get(c.profile)));
    expect(called.map((x) => x?.name)).toEqual(['version', 'version', 'docs_search', undefined, undefined, undefined, undefined]);
    for (const x of called.filter((y) => y !== undefined)) {
      count(evidence, x, 'node-javascript');
      if (x.name === 'version') count(evidence, x, 'workerd-javascript');
    }
    const text = JSON.stringify(evidenceReport(DATE, evidence));
    expect(Object.fromEntries(operationEvidence(text, 'r.json', router))).toMatchObject({
      version: { date: DATE, targets: [{ target: 'node-javascript', cases: 2 }, { target: 'workerd-javascript', cases: 2 }] },
      docs_search: { date: DATE, targets: [{ target: 'node-javascript', cases: 1 }] },
      noop: { date: DATE, targets: [] },
    });
  });

  it('a report that never ran the router: every operation measured on no target', () => {
    const got = operationEvidence(report({ other: measured.full }), 'r.json', router);
    expect([...got]).toEqual(OPS.map((name) => [name, { date: DATE, targets: [] }]));
  });
});
