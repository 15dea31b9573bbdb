// `pulse-mcp build`, the declaration lowerer: its artifacts equal what the evaluating compiler
// (`pulse-mcp compile`) writes for the same router, byte for byte and run after run, without
// running the module; and every declaration it cannot decide statically fails with
// file:line:column and what to write instead.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { lowerRouter } from '../../src/compiler/lower';

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
  type Row = [name: string, body: string, at: string | undefined, message: string | RegExp, options?: { router?: string; target?: 'fastly-native' }];
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
    ['a JavaScript handler for --target fastly-native', route('undefined'), undefined, ': op has a JavaScript handler, which target fastly-native does not run', { target: 'fastly-native' }],
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

  it('the two routers are told apart by --router', () => {
    const file = join(tmp, 'two.mjs');
    writeFileSync(file, `${HEAD}export const a = new EntityRouter('a').operation('x', { handler: handlers.static(null) });\nexport const b = new EntityRouter('b');\n`);
    expect(lowerRouter(ts, file, { router: 'a' }).definition.operations.map((o) => o.name)).toEqual(['x']);
  });
});
