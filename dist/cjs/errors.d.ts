/**
 * Typed errors with stable codes, one base class for all of them. Messages are fixed text (or the
 * core's fixed ASCII text) and never contain user input, credentials or exception text. Every entry
 * point re-exports these same classes, so `instanceof` holds whichever entry a value came from; the
 * user documentation's error table lists every code, and a test keeps the two in step.
 */
/** The codes `PulseRouterError` carries: declarations, codecs, bindings and the handler context. */
export type PulseRouterErrorCode = 'PULSE_ERR_DECLARATION' | 'PULSE_ERR_CODEC' | 'PULSE_ERR_FROZEN' | 'PULSE_ERR_NATIVE_INELIGIBLE' | 'PULSE_ERR_OPTIONS' | 'PULSE_ERR_FETCH_DENIED' | 'PULSE_ERR_FETCH_FAILED' | 'PULSE_ERR_BUDGET' | 'PULSE_ERR_DEADLINE' | 'PULSE_ERR_CONTEXT_CLOSED' | 'PULSE_ERR_CALL' | 'PULSE_ERR_SECRET' | 'PULSE_ERR_KV';
/** Every code a `PulseError` carries. */
export type PulseErrorCode = 'PULSE_ERR_CONFIG' | 'PULSE_ERR_CORE' | 'PULSE_ERR_MANIFEST' | PulseRouterErrorCode;
export declare abstract class PulseError extends Error {
    abstract readonly code: PulseErrorCode;
}
/** Invalid handler options; the message names the offending option. Thrown at construction. */
export declare class PulseConfigError extends PulseError {
    readonly code: "PULSE_ERR_CONFIG";
    constructor(message: string);
}
/** The core could not be loaded or broke its contract (a bug, never caused by a request). */
export declare class PulseCoreError extends PulseError {
    readonly code: "PULSE_ERR_CORE";
    constructor(message: string);
}
