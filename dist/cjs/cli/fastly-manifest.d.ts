import type { ServiceNames } from '../core/engine';
type Table = Record<string, unknown>;
/** The manifest at `path`, parsed; a missing file or a syntax error is a `CommandError` naming it. */
export declare function readFastlyManifest(path: string): Promise<Table>;
/**
 * Refuses, with every missing name, the option that names it and the table to add, a configuration
 * naming a backend, secret store or log endpoint the manifest does not declare. Log endpoints are
 * declared for publishing only (`[setup.log_endpoints]`): Fastly's local runtime writes every
 * endpoint to its own output.
 */
export declare function checkServiceNames(names: ServiceNames, manifest: Table, path: string): void;
export {};
