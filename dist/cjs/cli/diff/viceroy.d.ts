export interface ViceroyProgram {
    readonly path: string;
    /** How it was found: `--viceroy` or `PATH`. */
    readonly from: '--viceroy' | 'PATH';
    /** What `viceroy --version` printed, when it did. */
    readonly version: string | undefined;
}
/** Viceroy at `given` (refused when not an executable file), else the first on PATH; undefined when none. */
export declare function findViceroy(given: string | undefined): ViceroyProgram | undefined;
export interface RunningViceroy {
    readonly port: number;
    readonly pid: number;
    close(): Promise<void>;
}
/**
 * Serves `wasm` on Viceroy with `toml` (made absolute, as the Fastly CLI passes it). Resolves once it
 * accepts connections; refuses with its last output when it exits first or does not listen in time.
 * `spawned` learns its PID at once, so a caller interrupted while it starts can still stop it.
 */
export declare function startViceroy(program: ViceroyProgram, wasm: string, toml: string, spawned: (pid: number) => void): Promise<RunningViceroy>;
