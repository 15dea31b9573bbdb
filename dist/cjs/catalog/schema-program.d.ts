/**
 * A schema of `schema-json-registry.json` → the core's codec program: the inverse of the compiler's
 * projection (src/compiler/projection.ts). Only the JSON Schema 2020-12 shapes that projection emits
 * are recognised, each for exactly the codec it came from; anything else is an unsupported node and
 * fails configuration, so a tool is never published with a schema the core would not enforce.
 */
import { type Direction } from '../compiler/projection';
import type { CodecProgram } from '../compiler/types';
export interface LoweredSchema {
    /** `null` for a tool without input (`{}` only). */
    readonly program: CodecProgram | null;
    /** `[field, header]` pairs of `x-mcp-header` properties (inputs only). */
    readonly headers: readonly (readonly [string, string])[];
    readonly nodes: number;
}
/** Throws for an unsupported schema; `say` builds the message from the JSON pointer and the reason. */
export declare function lowerSchema(schema: unknown, direction: Direction, report: (at: string, reason: string) => never): LoweredSchema;
