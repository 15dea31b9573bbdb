/**
 * Tool arguments generated from a tool's `inputSchema`, the JSON Schema 2020-12 subset the package
 * projects (../../compiler/projection): strings with minLength/maxLength, string enums, integers and
 * numbers with minimum/maximum, booleans, arrays with items and maxItems (minItems too), objects with
 * properties, required, additionalProperties, an `allOf: [{ anyOf: [{ required }] }]` presence rule
 * and `if`/`then`/`else` on one field, `anyOf: [X, { type: 'null' }]` for nullable, `$ref` into
 * `$defs`, and `{}` for nested JSON. Valid inputs satisfy every keyword; each invalid input breaks
 * exactly one (a wrong type, or one bound overstepped by one). Deterministic: a run repeats.
 */
type Schema = Readonly<Record<string, unknown>>;
export interface GeneratedInput {
    /** What the input is, for the case's name. */
    readonly label: string;
    readonly value: unknown;
}
/** A schema the generator does not read (its message names what): an input would not be what it claims to be. */
export declare class UnsupportedSchema extends Error {
}
/** Valid arguments for `inputSchema`: every member, and (when it differs) only the required ones. */
export declare function validInputs(inputSchema: Schema): GeneratedInput[];
/**
 * Invalid arguments for `inputSchema`, each breaking one keyword of an otherwise full input: a
 * member of the wrong type (a required one first), the first bound overstepped, and for an object
 * refusing undeclared members, one. Empty when nothing can be invalid (every member nested JSON).
 */
export declare function invalidInputs(inputSchema: Schema): GeneratedInput[];
export {};
