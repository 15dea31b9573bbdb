// The JSON Schema 2020-12 projection against the core's codec program. For generated codec
// descriptors and generated values, a 2020-12 validator (ajv) checking the projected inputSchema
// accepts exactly what the core decodes; for outputs, whatever the validator accepts the core
// encodes, and everything the core encodes validates against the outputSchema and is serialized
// the way JSON.stringify serializes it.
import Ajv2020Module from 'ajv/dist/2020';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRouter } from '../../src/compiler';
import { project } from '../../src/compiler/projection';
import { codec } from '../../src/router/codecs';
import { contactForm } from '../../examples/conformance/contact.mjs';
import type { CodecDescriptor } from '../../src/router/codec-types';
import type { RouterDefinition } from '../../src/router/definition';
import { callTool, engineFor } from './compiler-harness';
import { anyJson, descriptor, text, type Json } from '../support/codec-gen';

const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as typeof Ajv2020Module;
// strictRequired off: presence rules put `required` in allOf/if/then subschemas naming properties
// the enclosing object declares, which 2020-12 permits and ajv's lint flags.
const ajv = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false, allErrors: false });
// This ajv does not know `$anchor`; the projection refers by JSON pointer, so it is only an annotation here.
ajv.addKeyword({ keyword: '$anchor', schemaType: 'string' });
const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** Values near a descriptor: conforming ones, boundary violations, and arbitrary JSON. */
function valueFor(d: CodecDescriptor): fc.Arbitrary<Json> {
  const near = ((): fc.Arbitrary<Json> => {
    switch (d.kind) {
      case 'string':
        return text(Math.max(0, (d.minLength ?? 0) - 1), (d.maxLength ?? 5) + 1);
      case 'boolean':
        return fc.boolean();
      case 'i32':
      case 'u32': {
        const lo = d.min ?? (d.kind === 'u32' ? 0 : -60);
        const hi = d.max ?? 60;
        return fc.oneof(fc.integer({ min: lo - 2, max: hi + 2 }), fc.constantFrom(0.5, -1.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 32, 1e21, 2 ** 53 + 2));
      }
      case 'number':
        return fc.oneof(fc.double({ min: (d.min ?? -20) - 1, max: (d.max ?? 20) + 1, noNaN: true }), fc.constantFrom(1e-7, 1.5e300, -0, 5e-324, 123456789.125));
      case 'enum':
        return fc.constantFrom(...d.values, 'zz', '');
      case 'array':
        return fc.array(valueFor(d.items), { maxLength: d.maxItems + 1 });
      case 'object': {
        const entries = Object.entries(d.fields).map(([name, f]) =>
          // Required fields are sometimes left out too, to exercise `required`.
          fc.option(valueFor(f.codec).map((v) => [name, v] as const), { nil: undefined, freq: f.optional ? 2 : 8 }),
        );
        return fc
          .tuple(fc.tuple(...entries), fc.option(fc.tuple(fc.constantFrom('extra', 'zeta2'), anyJson), { nil: undefined }))
          .map(([fields, extra]) => {
            const o: Record<string, Json> = {};
            for (const f of fields) if (f !== undefined) o[f[0]] = f[1];
            if (extra !== undefined && !(extra[0] in d.fields)) o[extra[0]] = extra[1];
            return o;
          });
      }
      case 'nullable':
        return fc.oneof(fc.constant(null), valueFor(d.inner));
      case 'ref':
        return valueFor(d.inner);
      case 'json':
        return anyJson;
      default:
        return anyJson;
    }
  })();
  return fc.oneof({ arbitrary: near, weight: 5 }, { arbitrary: anyJson, weight: 1 });
}

const withValues = descriptor.chain((d) => fc.tuple(fc.constant(d), fc.array(valueFor(d), { minLength: 1, maxLength: 6 })));

function router(input: CodecDescriptor | undefined, output: CodecDescriptor | undefined): RouterDefinition {
  return {
    id: 'prop',
    corpora: {},
    backends: {},
    config: {},
    budgets: { deadlineMs: 5000, fetches: 1, fetchBytes: 1024, calls: 1 },
    operations: [
      { name: 'in', input, handler: { kind: 'static', result: null } },
      { name: 'out', output, handler: { kind: 'javascript', fn: () => null } },
    ],
  };
}

describe('projection', () => {
  const p = (d: CodecDescriptor, dir: 'input' | 'output' = 'input') => project(d, dir, 'test').schema;

  it('projects each kind with a fixed key order and $schema on the root', () => {
    expect(p({ kind: 'string', minLength: 0, maxLength: 4 })).toEqual({ $schema: DIALECT, type: 'string', maxLength: 4 });
    expect(p({ kind: 'i32' })).toEqual({ $schema: DIALECT, type: 'integer', minimum: -2147483648, maximum: 2147483647 });
    expect(p({ kind: 'u32', max: 9 })).toEqual({ $schema: DIALECT, type: 'integer', minimum: 0, maximum: 9 });
    expect(p({ kind: 'number', min: 0.5 })).toEqual({ $schema: DIALECT, type: 'number', minimum: 0.5 });
    expect(p({ kind: 'enum', values: ['a', 'b'] })).toEqual({ $schema: DIALECT, type: 'string', enum: ['a', 'b'] });
    expect(p({ kind: 'nullable', inner: { kind: 'boolean' } })).toEqual({ $schema: DIALECT, anyOf: [{ type: 'boolean' }, { type: 'null' }] });
    expect(p({ kind: 'json', maxBytes: 10, maxDepth: 2 })).toEqual({ $schema: DIALECT });
    expect(p({ kind: 'array', items: { kind: 'boolean' }, maxItems: 3 })).toEqual({ $schema: DIALECT, type: 'array', items: { type: 'boolean' }, maxItems: 3 });
    const o: CodecDescriptor = { kind: 'object', fields: { b: { codec: { kind: 'boolean' } }, a: { codec: { kind: 'boolean' }, optional: true } } };
    expect(JSON.stringify(p(o))).toBe(`{"$schema":"${DIALECT}","type":"object","properties":{"b":{"type":"boolean"},"a":{"type":"boolean"}},"required":["b"]}`);
    expect(p(o, 'output').additionalProperties).toBe(false);
    expect(p({ ...o, open: true } as CodecDescriptor, 'output').additionalProperties).toBeUndefined();
  });

  it('counts nodes and levels like the core (nullable adds its anyOf wrapper and null branch)', () => {
    const r = project({ kind: 'object', fields: { a: { codec: { kind: 'nullable', inner: { kind: 'boolean' } } }, b: { codec: { kind: 'boolean' } } } }, 'input', 't');
    // Same vector as codec.rs programs_are_validated: 5 nodes, 3 levels.
    expect([r.nodes, r.levels]).toEqual([5, 3]);
  });

  it('projects the 2020-12 vocabulary the core enforces: $defs with $anchor, strict objects, allOf/anyOf, if/then/else', () => {
    // The conformance example's fixture (examples/conformance/contact.mjs), built from the sources.
    const contact = contactForm(codec) as CodecDescriptor;
    const r = project(contact, 'input', 't');
    // The schema the official conformance suite publishes for its json-schema-2020-12 fixture.
    expect(r.schema).toEqual({
      $schema: DIALECT,
      type: 'object',
      $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
      properties: {
        name: { type: 'string' },
        address: { $ref: '#/$defs/address' },
        contactMethod: { type: 'string', enum: ['phone', 'email'] },
        phone: { type: 'string' },
        email: { type: 'string' },
      },
      allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
      if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
      then: { required: ['phone'] },
      else: { required: ['email'] },
      additionalProperties: false,
    });
    // Same vector as codec.rs alternative_groups_and_the_conditional_requirement.
    expect([r.nodes, r.levels]).toEqual([15, 3]);
    ajv.compile(r.schema);
  });

  it('publishes a definition once however often it is used, and refuses one name for two codecs', () => {
    const point = codec.ref('point', codec.object({ x: codec.number() }));
    const r = project(codec.object({ a: point, b: codec.array(point, { maxItems: 2 }) }), 'input', 't');
    expect(r.schema.$defs).toEqual({ point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } });
    expect(r.schema.properties).toEqual({ a: { $ref: '#/$defs/point' }, b: { type: 'array', items: { $ref: '#/$defs/point' }, maxItems: 2 } });
    // Counted as if written inline at each use, as the core counts the program.
    expect([r.nodes, r.levels]).toEqual([6, 4]);
    const other = codec.ref('point', codec.object({ y: codec.number() }));
    expect(() => project(codec.object({ a: point, b: other }), 'input', 'op')).toThrow('op: $defs name "point" is given to two different codecs');
    const twin = codec.ref('twin', codec.string(), { anchor: 'p' });
    const pin = codec.ref('pin', codec.string(), { anchor: 'p' });
    expect(() => project(codec.object({ a: twin, b: pin }), 'input', 'op')).toThrow('op: $defs "twin" and "pin" share the anchor "p"');
  });

  it('yields schemas a strict 2020-12 validator compiles', () => {
    fc.assert(
      fc.property(descriptor, (d) => {
        ajv.compile(p(d, 'input'));
        ajv.compile(p(d, 'output'));
      }),
      { numRuns: 200 },
    );
  });
});

describe('projection agrees with the core codec program', () => {
  it('inputs: the validator accepts exactly what the core decodes', () => {
    fc.assert(
      fc.property(withValues, ([d, values]) => {
        const input: CodecDescriptor = { kind: 'object', fields: { v: { codec: d } } };
        const { manifest } = compileRouter(router(input, undefined));
        const schema = JSON.parse(manifest.list)[0].inputSchema;
        const validate = ajv.compile(schema);
        const engine = engineFor(manifest);
        for (const v of values) {
          const args = { v };
          const r = callTool(engine, 'in', args);
          expect(r.status, JSON.stringify(args)).toBe(200);
          const decoded = r.body.result.isError === false;
          expect(decoded, `${JSON.stringify(args)} ${r.body.result.content[0].text}`).toBe(validate(args));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('spells every double the way JSON.stringify does', () => {
    const { manifest } = compileRouter(router(undefined, { kind: 'json', maxBytes: 65536, maxDepth: 2 }));
    const engine = engineFor(manifest);
    const doubles = fc.array(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 })), { minLength: 1, maxLength: 40 });
    fc.assert(
      fc.property(doubles, (xs) => {
        const r = callTool(engine, 'out', {}, () => ({ output: xs }));
        expect(r.body.result.content[0].text).toBe(JSON.stringify(xs));
      }),
      { numRuns: 150 },
    );
  });

  it('outputs: the core encodes whatever validates, and what it encodes validates', () => {
    fc.assert(
      fc.property(withValues, ([d, values]) => {
        const { manifest } = compileRouter(router(undefined, d));
        const validate = ajv.compile(JSON.parse(manifest.list)[1].outputSchema);
        const engine = engineFor(manifest);
        for (const v of values) {
          const r = callTool(engine, 'out', {}, () => ({ output: v }));
          expect(r.status).toBe(200);
          const res = r.body.result;
          if (validate(v)) expect(res.isError, JSON.stringify(v)).toBe(false);
          if (res.isError === false) {
            expect(validate(res.structuredContent), JSON.stringify(v)).toBe(true);
            // Canonical output is what JSON.stringify writes (number spelling, escapes, order).
            expect(res.content[0].text).toBe(JSON.stringify(res.structuredContent));
          } else {
            expect(res.content[0].text).toBe('Output validation failed');
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
