/**
 * The command line's two failures: a `UsageError` (exit 2, the help follows) for arguments the
 * command does not take, and a `CommandError` (exit 1) for a command that cannot be done, with its
 * reason. Refusals of the library itself (`PulseError`, `ManifestError`) also exit 1.
 */
export declare class UsageError extends Error {
}
export declare class CommandError extends Error {
}
/** The value after `flag` at `args[i]`, refusing a missing one or another flag in its place. */
export declare function flagValue(args: readonly string[], i: number, what: string): string;
