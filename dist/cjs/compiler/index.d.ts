import type { McpCoreSource } from '../options';
import type { RouterDefinition } from '../router/definition';
import { type CompiledRouter } from './types';
export * from './types';
export { ManifestError } from './errors';
export { sha256Hex } from './sha256';
export interface CompileOptions {
    /** The core that builds corpus indexes, as for the hosts (a `WebAssembly.Module` on workerd). */
    readonly core?: McpCoreSource | undefined;
}
export declare function compileRouter(def: RouterDefinition, options?: CompileOptions): CompiledRouter;
/** The files the CLI writes, as text: compact manifest, readable (2-space) catalog artifacts. */
export declare function artifactFiles(compiled: CompiledRouter): Record<'manifest.json' | 'entities-catalog.json' | 'schema-json-registry.json', string>;
