// pulse-mcp diff's case generator against the core's own input check (Engine.check): every valid
// input it generates from a tool's published inputSchema passes, every invalid one fails, for every
// codec kind and presence rule the package projects.
import { describe, expect, it } from 'vitest';
import { compileRouter } from '../../src/compiler';
import { Engine } from '../../src/core/engine';
import { resolveOptions } from '../../src/options';
import { codec, EntityRouter, handlers } from '../../src/pulse';
import { routerDefinition } from '../../src/router/router';
import { invalidInputs, UnsupportedSchema, validInputs } from '../../src/cli/diff/inputs';
import { diffCases } from '../../src/cli/diff/cases';

const point = codec.ref('point', codec.object({ x: codec.i32({ min: -10, max: 10 }), y: codec.optional(codec.i32()) }), { anchor: 'pt' });

const router = new EntityRouter('generated')
  .operation('texts', { input: codec.object({ s: codec.string({ minLength: 2, maxLength: 5 }), e: codec.enum(['a', 'b c']), opt: codec.optional(codec.string()) }), handler: handlers.static(null) })
  .operation('numbers', {
    input: codec.object({ i: codec.i32({ min: -3, max: 3 }), u: codec.optional(codec.u32({ min: 1, max: 8 })), n: codec.number({ min: -1.5, max: 2.5 }), any: codec.optional(codec.number()) }),
    handler: handlers.static(null),
  })
  .operation('wide', { input: codec.object({ i: codec.i32(), u: codec.u32(), n: codec.number({ max: 1e300 }) }), handler: handlers.static(null) })
  .operation('shapes', {
    input: codec.object({
      list: codec.array(codec.string({ maxLength: 4 }), { maxItems: 3 }),
      nested: codec.object({ flag: codec.boolean(), deep: codec.optional(codec.object({ k: codec.u32({ max: 9 }) })) }),
      maybe: codec.nullable(codec.i32({ min: 0, max: 5 })),
      at: point,
      again: codec.optional(point),
      blob: codec.optional(codec.json({ maxBytes: 8, maxDepth: 1 })),
    }),
    handler: handlers.static(null),
  })
  .operation('rules', {
    input: codec.object(
      { a: codec.optional(codec.string()), b: codec.optional(codec.string()), mode: codec.enum(['x', 'y']), c: codec.optional(codec.u32()), d: codec.optional(codec.boolean()) },
      { requireAnyOf: [['a'], ['b']], when: { field: 'mode', equals: 'x', then: ['c'], else: ['d'] } },
    ),
    handler: handlers.static(null),
  })
  .operation('strict', { input: codec.object({ k: codec.string(), l: codec.optional(codec.boolean()) }, { strict: true }), handler: handlers.static(null) })
  .operation('open', { input: codec.object({ k: codec.optional(codec.boolean()) }, { open: true }), handler: handlers.static(null) })
  .operation('mirrored', { input: codec.object({ region: codec.string({ maxLength: 8 }), n: codec.i32({ min: 0, max: 2 }) }), headerParams: { region: 'Region' }, handler: handlers.static(null) })
  .operation('only_json', { input: codec.object({ j: codec.json() }), handler: handlers.static(null) })
  .operation('bare', { handler: handlers.static(null) });

const compiled = compileRouter(routerDefinition(router));
const engine = Engine.create(resolveOptions({ tools: { manifest: compiled.manifest } }, 'host', 'static').configJson);
const tools = JSON.parse(compiled.manifest.list) as { name: string; inputSchema: Record<string, unknown> }[];
const schemaOf = (name: string) => tools.find((t) => t.name === name)!.inputSchema;

describe('inputs generated from an inputSchema', () => {
  it.each(tools.map((t) => [t.name, t.inputSchema] as const))('%s: valid inputs pass the core check, invalid ones fail it', (name, schema) => {
    const valid = validInputs(schema);
    const invalid = invalidInputs(schema);
    expect(valid.length).toBeGreaterThan(0);
    for (const v of valid) expect([v.label, engine.check(name, 'input', v.value)]).toEqual([v.label, expect.objectContaining({ ok: true })]);
    for (const v of invalid) expect([v.label, engine.check(name, 'input', v.value)]).toEqual([v.label, expect.objectContaining({ ok: false })]);
  });

  it('gives every member, then only the required ones, at the bounds', () => {
    expect(validInputs(schemaOf('numbers')).map((v) => v.value)).toEqual([
      { i: 3, u: 8, n: 0.5, any: 0.5 },
      { i: -3, n: -1.5 },
    ]);
    expect(validInputs(schemaOf('texts')).map((v) => v.value)).toEqual([
      { s: 'pulse', e: 'b c', opt: 'pulse-diff-pulse' },
      { s: 'pu', e: 'a' },
    ]);
  });

  it('satisfies requireAnyOf and if/then/else with the required members only', () => {
    const [, minimal] = validInputs(schemaOf('rules'));
    // mode takes its first value, x, so `then` (c) is required; the first requireAnyOf group gives a.
    expect(minimal!.value).toEqual({ a: '', mode: 'x', c: 0 });
  });

  it('breaks one keyword per invalid input, a required member first, never one mirrored into a header first', () => {
    expect(invalidInputs(schemaOf('texts')).map((v) => v.label)).toEqual(['s: a number for a string', 's: maxLength 5 + 1']);
    expect(invalidInputs(schemaOf('shapes')).map((v) => v.label)).toEqual(['list: an object for an array', 'list: maxItems 3 + 1']);
    expect(invalidInputs(schemaOf('wide')).map((v) => v.label)).toEqual(['i: a string for an integer', 'i: maximum 2147483647 + 1']);
    expect(invalidInputs(schemaOf('mirrored')).map((v) => v.label)).toEqual(['n: a string for an integer', 'region: maxLength 8 + 1']);
    expect(invalidInputs(schemaOf('strict')).map((v) => v.label)).toEqual(['k: a number for a string', 'an undeclared member pulse_diff_undeclared']);
  });

  it('has no invalid input where every member admits any JSON, and only the undeclared member for a tool without input', () => {
    expect(invalidInputs(schemaOf('only_json'))).toEqual([]);
    expect(validInputs(schemaOf('bare')).map((v) => v.value)).toEqual([{}]);
    expect(invalidInputs(schemaOf('bare')).map((v) => v.value)).toEqual([{ pulse_diff_undeclared: 1 }]);
  });

  it('refuses, naming the tool, a schema outside the projected subset rather than guess an input', () => {
    const schema = { type: 'object', properties: { a: { type: ['string', 'null'] } }, required: ['a'] };
    expect(() => diffCases([{ name: 'foreign', inputSchema: schema }], { path: '/mcp', requestBytes: 1024, depth: 8 })).toThrow(
      new UnsupportedSchema('the inputSchema of foreign has the type ["string","null"]'),
    );
  });
});
