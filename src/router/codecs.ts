/**
 * Codec builders. Each returns a frozen plain-data CodecDescriptor (see codec-types.ts) carrying a
 * phantom TypeScript type, so a handler's `input` is typed from its declared codec. Invalid builder
 * arguments throw PULSE_ERR_CODEC at declaration, never later at request time.
 */
import type { CodecDescriptor, FieldDescriptor } from './codec-types';
import { fail, type PulseErrorMessage } from './errors';
import { I32_MAX, I32_MIN, U32_MAX } from './rules';

declare const phantom: unique symbol;

/** A descriptor whose decoded value has TypeScript type `T`. The phantom member never exists at run time. */
export type Codec<T = unknown, D extends CodecDescriptor = CodecDescriptor> = D & { readonly [phantom]?: T };

/** An optional object field: `codec.optional(c)`. */
export interface OptionalField<T = unknown> {
  readonly optional: true;
  readonly codec: Codec<T>;
  readonly [phantom]?: T;
}

export type Infer<C> = C extends Codec<infer T> ? T : never;

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type Scalar = string | number | boolean | null;

type FieldShape = Record<string, Codec<any> | OptionalField<any>>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};
type RequiredKeys<S extends FieldShape> = { [K in keyof S]: S[K] extends OptionalField<any> ? never : K }[keyof S];
type OptionalKeys<S extends FieldShape> = { [K in keyof S]: S[K] extends OptionalField<any> ? K : never }[keyof S];
type FieldType<F> = F extends OptionalField<infer T> ? T : F extends Codec<infer T> ? T : never;
export type ObjectType<S extends FieldShape> = Simplify<
  { [K in RequiredKeys<S>]: FieldType<S[K]> } & { [K in OptionalKeys<S>]?: FieldType<S[K]> }
>;

const NAME_MAX = 128;

/** Descriptors built here; `isCodec` accepts only these, so hand-made look-alikes are refused. */
const built = new WeakSet<object>();

function finish<T>(d: CodecDescriptor): Codec<T> {
  const frozen = Object.freeze(d);
  built.add(frozen);
  return frozen as Codec<T>;
}

export function isCodec(value: unknown): value is Codec {
  return typeof value === 'object' && value !== null && built.has(value);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Options objects: plain, own keys from `allowed` only. */
function options(v: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (v === undefined) return {};
  if (!isPlainObject(v)) fail('PULSE_ERR_CODEC', 'codecOptions');
  for (const k of Object.keys(v)) if (!allowed.includes(k)) fail('PULSE_ERR_CODEC', 'codecOptions');
  return v;
}

function intIn(v: unknown, lo: number, hi: number, msg: PulseErrorMessage): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) fail('PULSE_ERR_CODEC', msg);
  return v;
}

function ordered(min: number | undefined, max: number | undefined, msg: PulseErrorMessage): void {
  if (min !== undefined && max !== undefined && min > max) fail('PULSE_ERR_CODEC', msg);
}

function withBounds<D extends Record<string, unknown>>(base: D, min: number | undefined, max: number | undefined, lo = 'min', hi = 'max') {
  const out: Record<string, unknown> = { ...base };
  if (min !== undefined) out[lo] = min;
  if (max !== undefined) out[hi] = max;
  return out;
}

function string(opts?: { minLength?: number; maxLength?: number }): Codec<string> {
  const o = options(opts, ['minLength', 'maxLength']);
  const min = intIn(o.minLength, 0, U32_MAX, 'codecLength');
  const max = intIn(o.maxLength, 0, U32_MAX, 'codecLength');
  ordered(min, max, 'codecLength');
  return finish(withBounds({ kind: 'string' }, min, max, 'minLength', 'maxLength') as CodecDescriptor);
}

function boolean(): Codec<boolean> {
  return finish({ kind: 'boolean' });
}

function integer(kind: 'i32' | 'u32', lo: number, hi: number, opts?: { min?: number; max?: number }): Codec<number> {
  const o = options(opts, ['min', 'max']);
  const min = intIn(o.min, lo, hi, 'codecBounds');
  const max = intIn(o.max, lo, hi, 'codecBounds');
  ordered(min, max, 'codecBounds');
  return finish(withBounds({ kind }, min, max) as CodecDescriptor);
}

function i32(opts?: { min?: number; max?: number }): Codec<number> {
  return integer('i32', I32_MIN, I32_MAX, opts);
}

function u32(opts?: { min?: number; max?: number }): Codec<number> {
  return integer('u32', 0, U32_MAX, opts);
}

function number(opts?: { min?: number; max?: number }): Codec<number> {
  const o = options(opts, ['min', 'max']);
  for (const v of [o.min, o.max]) {
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v))) fail('PULSE_ERR_CODEC', 'codecNumber');
  }
  const min = o.min as number | undefined;
  const max = o.max as number | undefined;
  ordered(min, max, 'codecNumber');
  return finish(withBounds({ kind: 'number' }, min, max) as CodecDescriptor);
}

function enumOf<const V extends readonly [string, ...string[]]>(values: V): Codec<V[number]> {
  if (!Array.isArray(values) || values.length < 1 || values.length > 256) fail('PULSE_ERR_CODEC', 'codecEnum');
  const seen = new Set<string>();
  for (const v of values) {
    if (typeof v !== 'string' || v.length > NAME_MAX || seen.has(v)) fail('PULSE_ERR_CODEC', 'codecEnum');
    seen.add(v);
  }
  return finish({ kind: 'enum', values: Object.freeze([...values]) });
}

function array<T>(items: Codec<T>, opts: { maxItems: number }): Codec<T[]> {
  if (!isCodec(items)) fail('PULSE_ERR_CODEC', 'codecArray');
  const o = options(opts, ['maxItems']);
  const maxItems = intIn(o.maxItems, 1, 65536, 'codecArray');
  if (maxItems === undefined) fail('PULSE_ERR_CODEC', 'codecArray');
  return finish({ kind: 'array', items, maxItems });
}

function optional<T>(inner: Codec<T>): OptionalField<T> {
  if (!isCodec(inner)) fail('PULSE_ERR_CODEC', 'codecInner');
  return Object.freeze({ optional: true as const, codec: inner });
}

function isOptionalField(v: unknown): v is OptionalField {
  return isPlainObject(v) && v.optional === true && isCodec(v.codec) && Object.keys(v).length === 2;
}

const FIELD_NAME = /^[\s\S]{1,128}$/;
const MAX_GROUPS = 16;

/** Object options. `open` keeps unknown members, `strict` refuses them; the default drops them. */
export interface ObjectOptions<K extends string = string> {
  open?: boolean;
  strict?: boolean;
  /** At least one group has every one of its fields present. */
  requireAnyOf?: readonly (readonly K[])[];
  /** When `field` is present and equals `equals`, the fields of `then` are required, otherwise those of `else`. */
  when?: { field: K; equals: string | number | boolean; then?: readonly K[]; else?: readonly K[] };
}

/** A list of distinct declared field names, copied; `undefined` when it is not one. */
function fieldList(v: unknown, declared: Record<string, unknown>, allowEmpty: boolean): string[] | undefined {
  if (!Array.isArray(v) || (!allowEmpty && v.length === 0)) return undefined;
  const out: string[] = [];
  for (const name of v) {
    if (typeof name !== 'string' || !Object.prototype.hasOwnProperty.call(declared, name) || out.includes(name)) return undefined;
    out.push(name);
  }
  return out;
}

function object<S extends FieldShape>(fields: S, opts?: ObjectOptions<Extract<keyof S, string>>): Codec<ObjectType<S>> {
  if (!isPlainObject(fields)) fail('PULSE_ERR_CODEC', 'codecObject');
  const o = options(opts, ['open', 'strict', 'requireAnyOf', 'when']);
  if (o.open !== undefined && typeof o.open !== 'boolean') fail('PULSE_ERR_CODEC', 'codecOptions');
  if (o.strict !== undefined && typeof o.strict !== 'boolean') fail('PULSE_ERR_CODEC', 'codecOptions');
  if (o.open === true && o.strict === true) fail('PULSE_ERR_CODEC', 'codecStrict');
  const names = Object.keys(fields);
  if (names.length > 256) fail('PULSE_ERR_CODEC', 'codecObject');
  // A null-prototype record: a field named like an Object.prototype member stays a plain key.
  const out: Record<string, FieldDescriptor> = Object.create(null);
  for (const name of names) {
    if (!FIELD_NAME.test(name) || name === '__proto__') fail('PULSE_ERR_CODEC', 'codecObject');
    const f: unknown = fields[name];
    if (isCodec(f)) out[name] = Object.freeze({ codec: f });
    else if (isOptionalField(f)) out[name] = Object.freeze({ codec: f.codec, optional: true });
    else fail('PULSE_ERR_CODEC', 'codecObject');
  }
  const d: Record<string, unknown> = { kind: 'object', fields: Object.freeze(out) };
  if (o.open === true) d.open = true;
  if (o.strict === true) d.strict = true;
  if (o.requireAnyOf !== undefined) {
    const groups = o.requireAnyOf;
    if (!Array.isArray(groups) || groups.length === 0 || groups.length > MAX_GROUPS) fail('PULSE_ERR_CODEC', 'codecRequireAnyOf');
    d.requireAnyOf = Object.freeze(
      groups.map((g) => Object.freeze(fieldList(g, out, false) ?? fail('PULSE_ERR_CODEC', 'codecRequireAnyOf'))),
    );
  }
  if (o.when !== undefined) {
    const w = isPlainObject(o.when) ? o.when : fail('PULSE_ERR_CODEC', 'codecWhen');
    for (const k of Object.keys(w)) if (!['field', 'equals', 'then', 'else'].includes(k)) fail('PULSE_ERR_CODEC', 'codecWhen');
    const eq = w.equals;
    const scalar = typeof eq === 'string' || typeof eq === 'boolean' || (typeof eq === 'number' && Number.isFinite(eq));
    const then = fieldList(w.then ?? [], out, true);
    const otherwise = fieldList(w.else ?? [], out, true);
    if (
      typeof w.field !== 'string' ||
      !Object.prototype.hasOwnProperty.call(out, w.field) ||
      !scalar ||
      then === undefined ||
      otherwise === undefined ||
      then.length + otherwise.length === 0
    )
      fail('PULSE_ERR_CODEC', 'codecWhen');
    d.when = Object.freeze({ field: w.field, equals: eq, then: Object.freeze(then), else: Object.freeze(otherwise) });
  }
  return finish(d as CodecDescriptor);
}

const REF_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const ANCHOR = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

/**
 * A named definition: decodes exactly as `inner`; the schema projection publishes it once under
 * `$defs[name]` (with `$anchor` when given) and refers to it with `$ref`.
 */
function ref<T>(name: string, inner: Codec<T>, opts?: { anchor?: string }): Codec<T> {
  if (typeof name !== 'string' || !REF_NAME.test(name) || !isCodec(inner)) fail('PULSE_ERR_CODEC', 'codecRef');
  const o = options(opts, ['anchor']);
  if (o.anchor !== undefined && (typeof o.anchor !== 'string' || !ANCHOR.test(o.anchor))) fail('PULSE_ERR_CODEC', 'codecRef');
  const d: Record<string, unknown> = { kind: 'ref', name, inner };
  if (o.anchor !== undefined) d.anchor = o.anchor;
  return finish(d as CodecDescriptor);
}

function nullable<T>(inner: Codec<T>): Codec<T | null> {
  if (!isCodec(inner)) fail('PULSE_ERR_CODEC', 'codecInner');
  return finish({ kind: 'nullable', inner });
}

function json(opts?: { maxBytes?: number; maxDepth?: number }): Codec<JsonValue> {
  const o = options(opts, ['maxBytes', 'maxDepth']);
  const maxBytes = intIn(o.maxBytes, 1, 1048576, 'codecJson') ?? 4096;
  const maxDepth = intIn(o.maxDepth, 1, 32, 'codecJson') ?? 8;
  return finish({ kind: 'json', maxBytes, maxDepth });
}

function scalarRecord(opts?: { maxKeys?: number; maxBytes?: number }): Codec<Record<string, Scalar>> {
  const o = options(opts, ['maxKeys', 'maxBytes']);
  const maxKeys = intIn(o.maxKeys, 1, 1024, 'codecRecord') ?? 64;
  const maxBytes = intIn(o.maxBytes, 1, 1048576, 'codecRecord') ?? 4096;
  return finish({ kind: 'scalarRecord', maxKeys, maxBytes });
}

export const codec = Object.freeze({
  string,
  boolean,
  i32,
  u32,
  number,
  enum: enumOf,
  array,
  object,
  ref,
  optional,
  nullable,
  json,
  scalarRecord,
});
