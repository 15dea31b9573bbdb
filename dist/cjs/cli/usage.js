"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CommandError = exports.UsageError = void 0;
exports.flagValue = flagValue;
/**
 * The command line's two failures: a `UsageError` (exit 2, the help follows) for arguments the
 * command does not take, and a `CommandError` (exit 1) for a command that cannot be done, with its
 * reason. Refusals of the library itself (`PulseError`, `ManifestError`) also exit 1.
 */
class UsageError extends Error {
}
exports.UsageError = UsageError;
class CommandError extends Error {
}
exports.CommandError = CommandError;
/** The value after `flag` at `args[i]`, refusing a missing one or another flag in its place. */
function flagValue(args, i, what) {
    const v = args[i + 1];
    if (v === undefined || v.startsWith('--'))
        throw new UsageError(`${args[i]} takes ${what}`);
    return v;
}
