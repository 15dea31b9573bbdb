import type * as TS from 'typescript';
import { type CompiledRouter, type Target } from '../compiler';
import { type DeclaredBinding } from '../compiler/lower';
export type ServiceProfile = 'static' | 'facade';
/** The names a module exports, read from its syntax (the module is not run). */
export declare function exportedNames(ts: typeof TS, path: string): Set<string>;
/** The profile `path` declares, by what it exports. */
export declare function serviceProfile(ts: typeof TS, path: string): ServiceProfile;
/**
 * The TypeScript compiler (an optional peer dependency), from the module's project first, then
 * beside this package. Its JavaScript API parses the module: TypeScript 7, a native compiler,
 * has none, so the peer range stops below it.
 */
export declare function loadTypeScript(modulePath: string): typeof TS;
/**
 * For a Native target, the module's exported mcp() binding is the service: the binding's host
 * options under the static ceilings, judged by the core as the Native service embeds them, and
 * mcp-binding.json recording them. Nothing without a binding or for a JavaScript target.
 */
export declare function nativeBinding(binding: DeclaredBinding | undefined, target: Target | undefined, compiled: CompiledRouter): {
    options: Record<string, unknown>;
    file: string;
} | undefined;
/** The static binding's Native configuration: its lowered options with its manifest. */
export declare function staticConfig(bindingOptions: Record<string, unknown>, manifest: unknown): string;
/** The facade module's Native configuration. */
export declare function facadeConfig(path: string): Promise<string>;
export interface ServiceConfig {
    readonly profile: ServiceProfile;
    /** The options the configuration is resolved from (the static binding's carry its manifest as `tools`). */
    readonly options: Record<string, unknown>;
    readonly configJson: string;
}
/**
 * The engine configuration of the Native service `path` declares, whichever its profile; `overrides`
 * replace the binding's or the facade's options (the legacy-enabled variant of a service, a log
 * endpoint for a test).
 */
export declare function serviceConfig(path: string, overrides?: Record<string, unknown>): Promise<ServiceConfig>;
