/**
 * Codec builders. Each returns a frozen plain-data CodecDescriptor (see codec-types.ts) carrying a
 * phantom TypeScript type, so a handler's `input` is typed from its declared codec. Invalid builder
 * arguments throw PULSE_ERR_CODEC at declaration, never later at request time.
 */
import type { CodecDescriptor } from './codec-types';
declare const phantom: unique symbol;
/** A descriptor whose decoded value has TypeScript type `T`. The phantom member never exists at run time. */
export type Codec<T = unknown, D extends CodecDescriptor = CodecDescriptor> = D & {
    readonly [phantom]?: T;
};
/** An optional object field: `codec.optional(c)`. */
export interface OptionalField<T = unknown> {
    readonly optional: true;
    readonly codec: Codec<T>;
    readonly [phantom]?: T;
}
export type Infer<C> = C extends Codec<infer T> ? T : never;
export type JsonValue = null | boolean | number | string | JsonValue[] | {
    [key: string]: JsonValue;
};
export type Scalar = string | number | boolean | null;
type FieldShape = Record<string, Codec<any> | OptionalField<any>>;
type Simplify<T> = {
    [K in keyof T]: T[K];
} & {};
type RequiredKeys<S extends FieldShape> = {
    [K in keyof S]: S[K] extends OptionalField<any> ? never : K;
}[keyof S];
type OptionalKeys<S extends FieldShape> = {
    [K in keyof S]: S[K] extends OptionalField<any> ? K : never;
}[keyof S];
type FieldType<F> = F extends OptionalField<infer T> ? T : F extends Codec<infer T> ? T : never;
export type ObjectType<S extends FieldShape> = Simplify<{
    [K in RequiredKeys<S>]: FieldType<S[K]>;
} & {
    [K in OptionalKeys<S>]?: FieldType<S[K]>;
}>;
export declare function isCodec(value: unknown): value is Codec;
declare function string(opts?: {
    minLength?: number;
    maxLength?: number;
}): Codec<string>;
declare function boolean(): Codec<boolean>;
declare function i32(opts?: {
    min?: number;
    max?: number;
}): Codec<number>;
declare function u32(opts?: {
    min?: number;
    max?: number;
}): Codec<number>;
declare function number(opts?: {
    min?: number;
    max?: number;
}): Codec<number>;
declare function enumOf<const V extends readonly [string, ...string[]]>(values: V): Codec<V[number]>;
declare function array<T>(items: Codec<T>, opts: {
    maxItems: number;
}): Codec<T[]>;
declare function optional<T>(inner: Codec<T>): OptionalField<T>;
/** Object options. `open` keeps unknown members, `strict` refuses them; the default drops them. */
export interface ObjectOptions<K extends string = string> {
    open?: boolean;
    strict?: boolean;
    /** At least one group has every one of its fields present. */
    requireAnyOf?: readonly (readonly K[])[];
    /** When `field` is present and equals `equals`, the fields of `then` are required, otherwise those of `else`. */
    when?: {
        field: K;
        equals: string | number | boolean;
        then?: readonly K[];
        else?: readonly K[];
    };
}
declare function object<S extends FieldShape>(fields: S, opts?: ObjectOptions<Extract<keyof S, string>>): Codec<ObjectType<S>>;
/**
 * A named definition: decodes exactly as `inner`; the schema projection publishes it once under
 * `$defs[name]` (with `$anchor` when given) and refers to it with `$ref`.
 */
declare function ref<T>(name: string, inner: Codec<T>, opts?: {
    anchor?: string;
}): Codec<T>;
declare function nullable<T>(inner: Codec<T>): Codec<T | null>;
declare function json(opts?: {
    maxBytes?: number;
    maxDepth?: number;
}): Codec<JsonValue>;
declare function scalarRecord(opts?: {
    maxKeys?: number;
    maxBytes?: number;
}): Codec<Record<string, Scalar>>;
export declare const codec: Readonly<{
    string: typeof string;
    boolean: typeof boolean;
    i32: typeof i32;
    u32: typeof u32;
    number: typeof number;
    enum: typeof enumOf;
    array: typeof array;
    object: typeof object;
    ref: typeof ref;
    optional: typeof optional;
    nullable: typeof nullable;
    json: typeof json;
    scalarRecord: typeof scalarRecord;
}>;
export {};
