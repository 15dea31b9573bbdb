/** js-compute's version, pinned: the runtime it embeds is what the service runs on. */
export declare const JS_COMPUTE_VERSION = "3.46.0";
/** What the build prints beside the binary: the documented limit of this target. */
export declare const NO_DEADLINE_NOTE: string;
export interface JavaScriptBinary {
    readonly path: string;
    readonly bytes: number;
    /** The modules it imports: `fastly_*` and `wasi_snapshot_preview1` only. */
    readonly importModules: readonly string[];
}
/**
 * Writes to `out` the Fastly JavaScript binary of `modulePath`, which exports the static binding
 * `server` (made by mcp()). js-compute runs in the module's directory, as the Fastly CLI runs it
 * in a project, so the project's own js-compute configuration applies. A refusal is a
 * `CommandError` with js-compute's reason.
 */
export declare function buildJavaScriptService(modulePath: string, out: string): Promise<JavaScriptBinary>;
