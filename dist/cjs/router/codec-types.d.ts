/**
 * Codec descriptors: the plain-data form of every schema codec. `codecs.ts` builds them, the compiler
 * turns them into the core's codec program and the JSON Schema projection. Plain data on purpose: a
 * descriptor carries no functions, so the manifest can be compiled without evaluating handlers.
 */
export type CodecDescriptor = {
    readonly kind: 'string';
    readonly minLength?: number;
    readonly maxLength?: number;
} | {
    readonly kind: 'boolean';
} | {
    readonly kind: 'i32';
    readonly min?: number;
    readonly max?: number;
} | {
    readonly kind: 'u32';
    readonly min?: number;
    readonly max?: number;
}
/** A finite double: NaN and ±Infinity are not representable in JSON and never admitted. */
 | {
    readonly kind: 'number';
    readonly min?: number;
    readonly max?: number;
} | {
    readonly kind: 'enum';
    readonly values: readonly string[];
} | {
    readonly kind: 'array';
    readonly items: CodecDescriptor;
    readonly maxItems: number;
} | {
    readonly kind: 'object';
    readonly fields: Readonly<Record<string, FieldDescriptor>>;
    /** Closed (default): unknown input fields are admitted and dropped; outputs carry declared fields only. */
    readonly open?: boolean;
    /** Strict: unknown members are refused in both directions (`additionalProperties: false`). */
    readonly strict?: boolean;
    /** At least one group has all its fields present (`allOf: [{anyOf: [{required}…]}]`). */
    readonly requireAnyOf?: readonly (readonly string[])[];
    /** When `field` equals `equals`, `then` is required, otherwise `else` (`if`/`then`/`else`). */
    readonly when?: WhenDescriptor;
}
/** A named definition: decodes as `inner`, projected as `$ref` to `$defs[name]`. */
 | {
    readonly kind: 'ref';
    readonly name: string;
    readonly anchor?: string;
    readonly inner: CodecDescriptor;
} | {
    readonly kind: 'nullable';
    readonly inner: CodecDescriptor;
}
/** Nested JSON, bounded by bytes and depth. */
 | {
    readonly kind: 'json';
    readonly maxBytes: number;
    readonly maxDepth: number;
}
/** A flat record of scalar values. The JSON Schema projection refuses it: JSON Schema cannot bound its keys and bytes the way the codec does. */
 | {
    readonly kind: 'scalarRecord';
    readonly maxKeys: number;
    readonly maxBytes: number;
};
export interface FieldDescriptor {
    readonly codec: CodecDescriptor;
    readonly optional?: boolean;
}
export interface WhenDescriptor {
    readonly field: string;
    readonly equals: string | number | boolean;
    readonly then: readonly string[];
    readonly else: readonly string[];
}
