import { type NativeBinary } from './native-service';
/** The cause of a module that did not load, as Node reports it, without the stack. */
export declare function loadFailure(path: string, err: unknown): string;
/** The service's fastly.toml: `fastlyToml` when given, else the one beside the module. */
export declare function serviceManifestPath(modulePath: string, fastlyToml: string | undefined): string;
/** Writes to `out` the Native binary of `configJson`, the Fastly names it uses checked against the service's fastly.toml first. */
export declare function nativeServiceBinary(configJson: string, modulePath: string, fastlyToml: string | undefined, out: string): Promise<NativeBinary>;
/** The module a command names, as given, for messages about it. */
export declare function moduleArgument(args: readonly string[]): string;
export declare function compileCommand(args: readonly string[]): Promise<void>;
export declare function buildCommand(args: readonly string[]): Promise<void>;
