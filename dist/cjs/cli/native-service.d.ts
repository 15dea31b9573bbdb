/** Wizer's version, pinned: the snapshot is what Wizer writes, so one build gives one binary. */
export declare const WIZER_VERSION = "7.0.5";
/** The prebuilt, unconfigured Native service inside this package. */
export declare function nativeServicePath(): string;
export interface NativeBinary {
    readonly path: string;
    readonly bytes: number;
    /** The modules it imports: `fastly_*` and `wasi_snapshot_preview1` only. */
    readonly importModules: readonly string[];
}
/**
 * Writes to `out` the Native service configured with `configJson` (an engine configuration the core
 * accepts) and checks the result is a Compute module. `project` is where Wizer is looked for first.
 * A refusal is a `CommandError` with Wizer's or the service's reason.
 */
export declare function configureNativeService(configJson: string, out: string, project: string): Promise<NativeBinary>;
