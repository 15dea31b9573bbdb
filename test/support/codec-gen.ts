// Generated codec descriptors (every kind, presence rules, named definitions) and the JSON values
// near them, shared by the projection's property tests and the catalog lowering's.
import fc from 'fast-check';
import type { CodecDescriptor } from '../../src/router/codec-types';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

// Characters that exercise escaping and scalar-value counting (astral, combining, controls).
const CHARS = ['a', 'Z', '0', ' ', 'é', '𝄞', '"', '\\', '\n', '\u0001', '\u2028', '/'];
export const text = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...CHARS), minLength: min, maxLength: max });
export const NAMES = ['a', 'b', 'c', 'e f', '_x', 'zeta'];

export const anyJson: fc.Arbitrary<Json> = fc.letrec<{ v: Json }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -1000, max: 1000 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    text(0, 4),
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...NAMES), tie('v'), { maxKeys: 3 }),
  ),
})).v;

const bound = (lo: number, hi: number) => fc.option(fc.integer({ min: lo, max: hi }), { nil: undefined });
const ordered = <T extends { min?: number; max?: number }>(d: T): T =>
  d.min !== undefined && d.max !== undefined && d.min > d.max ? { ...d, min: d.max, max: d.min } : d;
const clean = <T extends object>(d: T): T => Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined)) as T;

export const descriptor: fc.Arbitrary<CodecDescriptor> = fc.letrec<{ d: CodecDescriptor }>((tie) => ({
  d: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    fc.record({ minLength: bound(0, 3), maxLength: bound(0, 6) }).map((o) => {
      const d = clean({ kind: 'string' as const, ...o });
      return d.minLength !== undefined && d.maxLength !== undefined && d.minLength > d.maxLength ? { ...d, maxLength: d.minLength } : d;
    }),
    fc.constant({ kind: 'boolean' as const }),
    fc.record({ min: bound(-50, 50), max: bound(-50, 50) }).map((o) => ordered(clean({ kind: 'i32' as const, ...o }))),
    fc.record({ min: bound(0, 50), max: bound(0, 50) }).map((o) => ordered(clean({ kind: 'u32' as const, ...o }))),
    fc
      .record({ min: fc.option(fc.double({ min: -10, max: 10, noNaN: true }), { nil: undefined }), max: fc.option(fc.double({ min: -10, max: 10, noNaN: true }), { nil: undefined }) })
      .map((o) => ordered(clean({ kind: 'number' as const, ...o }))),
    fc.uniqueArray(text(0, 3), { minLength: 1, maxLength: 4 }).map((values) => ({ kind: 'enum' as const, values })),
    fc.record({ items: tie('d'), maxItems: fc.integer({ min: 0, max: 4 }) }).map((o) => ({ kind: 'array' as const, ...o })),
    fc
      .record({
        fields: fc.dictionary(fc.constantFrom(...NAMES), fc.record({ codec: tie('d'), optional: fc.boolean() }), { maxKeys: 4 }),
        extra: fc.constantFrom('drop', 'open', 'strict'),
      })
      .chain(({ fields, extra }) => objectWithRules(fields, extra)),
    tie('d').map((inner) => ({ kind: 'nullable' as const, inner })),
    // Renamed uniquely below: one name, one codec.
    tie('d').map((inner) => ({ kind: 'ref' as const, name: 'r', inner })),
    fc.constant({ kind: 'json' as const, maxBytes: 65536, maxDepth: 16 }),
  ),
})).d.map(uniqueRefs);

/** Alternative groups and a conditional requirement over some of the fields, when there are any. */
function objectWithRules(fields: Record<string, { codec: CodecDescriptor; optional: boolean }>, extra: string): fc.Arbitrary<CodecDescriptor> {
  const base: Record<string, unknown> = { kind: 'object', fields };
  if (extra === 'open') base.open = true;
  if (extra === 'strict') base.strict = true;
  const names = Object.keys(fields);
  if (names.length === 0) return fc.constant(base as CodecDescriptor);
  const some = (min: number) => fc.subarray(names, { minLength: min });
  const equals = fc.constantFrom<string | number | boolean>('a', 'Z', '', 0, 1, 2.5, true, false);
  return fc
    .record({
      requireAnyOf: fc.option(fc.array(some(1), { minLength: 1, maxLength: 3 }), { nil: undefined }),
      when: fc.option(
        fc.record({ field: fc.constantFrom(...names), equals, then: some(0), else: some(0) }).filter((w) => w.then.length + w.else.length > 0),
        { nil: undefined },
      ),
    })
    .map((rules) => clean({ ...base, ...rules }) as CodecDescriptor);
}

/** Gives every ref node its own name, in walk order. */
function uniqueRefs(root: CodecDescriptor): CodecDescriptor {
  let n = 0;
  const walk = (d: CodecDescriptor): CodecDescriptor => {
    switch (d.kind) {
      case 'ref':
        return { ...d, name: `def${n++}`, inner: walk(d.inner) };
      case 'array':
        return { ...d, items: walk(d.items) };
      case 'nullable':
        return { ...d, inner: walk(d.inner) };
      case 'object':
        return { ...d, fields: Object.fromEntries(Object.entries(d.fields).map(([k, f]) => [k, { ...f, codec: walk(f.codec) }])) };
      default:
        return d;
    }
  };
  return walk(root);
}

