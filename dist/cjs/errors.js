"use strict";
/**
 * Typed errors with stable codes, one base class for all of them. Messages are fixed text (or the
 * core's fixed ASCII text) and never contain user input, credentials or exception text. Every entry
 * point re-exports these same classes, so `instanceof` holds whichever entry a value came from; the
 * user documentation's error table lists every code, and a test keeps the two in step.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.PulseCoreError = exports.PulseConfigError = exports.PulseError = void 0;
class PulseError extends Error {
}
exports.PulseError = PulseError;
/** Invalid handler options; the message names the offending option. Thrown at construction. */
class PulseConfigError extends PulseError {
    code = 'PULSE_ERR_CONFIG';
    constructor(message) {
        super(message);
        this.name = 'PulseConfigError';
    }
}
exports.PulseConfigError = PulseConfigError;
/** The core could not be loaded or broke its contract (a bug, never caused by a request). */
class PulseCoreError extends PulseError {
    code = 'PULSE_ERR_CORE';
    constructor(message) {
        super(message);
        this.name = 'PulseCoreError';
    }
}
exports.PulseCoreError = PulseCoreError;
