import { PulseError } from '../errors';
/** Compile failures: a stable code and a message naming the operation and the rule it breaks. */
export declare class ManifestError extends PulseError {
    readonly code = "PULSE_ERR_MANIFEST";
    constructor(message: string);
}
export declare function fail(message: string): never;
