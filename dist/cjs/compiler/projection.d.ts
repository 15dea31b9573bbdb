/**
 * Codec descriptors → (a) the core's codec program and (b) the JSON Schema 2020-12 projection.
 * Both walk fields in `Object.keys` order, which is the declared order the core encodes.
 */
import type { CodecDescriptor } from '../router/codec-types';
import type { CodecProgram } from './types';
export declare const SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";
export declare const MAX_PROJECTION_NODES = 4096;
export declare const MAX_PROJECTION_LEVELS = 24;
export type Direction = 'input' | 'output';
export interface Projection {
    readonly schema: Record<string, unknown>;
    /** Subschema objects in the projection. */
    readonly nodes: number;
    /** Deepest subschema nesting level; the root is level 1. */
    readonly levels: number;
}
export declare function compileProgram(root: CodecDescriptor, where: string): CodecProgram;
/**
 * Projects a descriptor. Key order is fixed per kind so the output is byte-stable. Closed objects
 * differ by direction: inputs admit and drop unknown fields (so extra properties are allowed),
 * outputs carry declared fields only (`additionalProperties: false`). Strict objects refuse extras
 * (`false`); open inputs keep them (`true`).
 */
export declare function project(root: CodecDescriptor, direction: Direction, where: string): Projection;
/** The projection of a tool without input: only `{}` is admitted. */
export declare function noInputSchema(): Projection;
