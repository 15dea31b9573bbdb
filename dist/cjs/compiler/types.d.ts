/**
 * The manifest format: the plain JSON value the TypeScript compiler emits and the Rust core
 * (`native/core/src/manifest.rs`) reads as engine config `tools`. Documented in ./README.md.
 */
/** Bumped on any incompatible change; the core rejects other versions. */
export declare const MANIFEST_FORMAT_VERSION = 1;
/** 2: the targets are named by runtime and executor (`node-javascript`, not `node`). */
export declare const CATALOG_FORMAT_VERSION = 2;
export declare const SCHEMA_REGISTRY_FORMAT_VERSION = 1;
/**
 * One codec program node. Children are referenced by index and always precede their parent
 * (post-order), so the root is the last node and the program cannot contain a cycle.
 */
export type ProgramNode = readonly ['string', number, number | null] | readonly ['boolean'] | readonly ['i32', number, number] | readonly ['u32', number, number] | readonly ['number', number | null, number | null] | readonly ['enum', readonly string[]] | readonly ['array', number, number] | readonly ['object', 0 | 1 | 2, readonly (readonly [string, number, 0 | 1])[]] | readonly ['object', 0 | 1 | 2, readonly (readonly [string, number, 0 | 1])[], readonly FieldRule[]] | readonly ['nullable', number] | readonly ['json', number, number] | readonly ['scalarRecord', number, number];
/** Presence rules over an object's field indexes: alternative groups, or one conditional requirement. */
export type FieldRule = readonly ['anyOf', readonly (readonly number[])[]] | readonly ['if', number, string | number | boolean, readonly number[], readonly number[]];
export type CodecProgram = readonly ProgramNode[];
export type ManifestHandler = {
    readonly kind: 'static';
    readonly result?: string;
} | {
    readonly kind: 'corpus';
    readonly corpus: string;
    readonly action: 'search' | 'read' | 'list';
    readonly topK: number;
    readonly maxBytes: number;
} | {
    readonly kind: 'backend';
    readonly backend: string;
    readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    readonly url: string;
    readonly maxBytes: number;
    readonly timeoutMs: number;
} | {
    /** A catalog-backed tool: one JSON-RPC request naming the operation to a fixed endpoint. */
    readonly kind: 'rpc';
    readonly backend: string;
    readonly url: string;
    readonly maxBytes: number;
    /** The token, or where the Native build reads it: `{ secretStore, key }`. */
    readonly bearer?: string | {
        readonly secretStore: string;
        readonly key: string;
    };
} | {
    readonly kind: 'javascript';
};
export interface ManifestTool {
    readonly name: string;
    readonly input: CodecProgram | null;
    readonly output: CodecProgram | null;
    /** The result is content blocks; `output` is then null. */
    readonly content?: true;
    /** Multi-round input: rounds of `{ key: { method, params?, optional? } }`. */
    readonly inputs?: readonly unknown[];
    /** `[field, headerName]` pairs mirrored into `Mcp-Param-<headerName>`. */
    readonly headers?: readonly (readonly [string, string])[];
    readonly handler: ManifestHandler;
}
/** `[id, title, collection, text, tags]` */
export type ManifestCorpusEntry = readonly [string, string, string, string, readonly string[]];
/**
 * The prebuilt BM25 index. Numbers and terms are packed into space-separated text so the core
 * scans them without a JSON node per number (it rebuilds this on every edge request).
 */
export interface ManifestCorpus {
    readonly version: string;
    readonly entries: readonly ManifestCorpusEntry[];
    /** Token count of each entry (title, tags and text): `"12 40 7"`. */
    readonly lengths: string;
    /** Distinct terms sorted by byte order: `"alpha beta gamma"`. */
    readonly terms: string;
    /** BM25 idf of each term in integer millionths, in term order: `"182322 510826 510826"`. */
    readonly idf: string;
    /** Postings of each term, in term order: `entry:tf` pairs joined by `,`: `"0:2,1:1 1:2 0:1"`. */
    readonly postings: string;
}
export interface Manifest {
    readonly formatVersion: number;
    readonly routerId: string;
    readonly catalogHash: string;
    readonly deadlineMs: number;
    /** JSON text of the `tools` array of the `tools/list` result, prebuilt. */
    readonly list: string;
    readonly tools: readonly ManifestTool[];
    readonly corpora: Readonly<Record<string, ManifestCorpus>>;
}
/** Where a router runs: the runtime, then what executes handlers there. */
export type Target = 'fastly-native' | 'node-native' | 'node-javascript' | 'fastly-javascript' | 'workerd-javascript';
export declare const TARGETS: readonly Target[];
/**
 * The targets an operation is eligible for, by handler kind, sorted. The core runs the native
 * kinds (static, corpus, backend) itself, so they run on every target. A JavaScript handler needs
 * a JavaScript engine beside the core: a Native build embeds the core alone, and running the
 * handler elsewhere instead would be a silent change of target, so the Native targets are not
 * eligible for it.
 */
export declare function eligibleTargets(handler: 'static' | 'corpus' | 'backend' | 'javascript'): readonly Target[];
/**
 * Why `value`, read at `where`, is not a target (undefined when it is one): the one wording every
 * reader of a target uses, naming the new name for an old one.
 */
export declare function targetRefusal(where: string, value: unknown): string | undefined;
/** Every renaming, in the same wording: for a reader that meets an artifact of an earlier release. */
export declare const TARGET_RENAMES: string;
export interface CatalogOperation {
    readonly name: string;
    readonly title?: string;
    readonly description?: string;
    readonly hints?: Readonly<Record<string, boolean>>;
    readonly input: string | null;
    readonly output: string | null;
    readonly handler: 'static' | 'corpus' | 'backend' | 'javascript';
    readonly targets: readonly Target[];
    /** Present (true) only for an operation that needs the backend's service credential. */
    readonly authenticated?: true;
}
export interface EntitiesCatalog {
    readonly formatVersion: number;
    readonly kind: 'pulse.entities-catalog';
    readonly hash: string;
    readonly routerId: string;
    readonly operations: readonly CatalogOperation[];
}
export interface SchemaRegistry {
    readonly formatVersion: number;
    readonly kind: 'pulse.schema-json-registry';
    readonly hash: string;
    readonly routerId: string;
    readonly schemas: readonly {
        readonly id: string;
        readonly schema: unknown;
    }[];
}
export interface CompiledRouter {
    /** Engine config `tools` (docs/contracts.md#engine-configuration). */
    readonly manifest: Manifest;
    /** `entities-catalog.json` */
    readonly catalog: EntitiesCatalog;
    /** `schema-json-registry.json` */
    readonly schemaRegistry: SchemaRegistry;
}
