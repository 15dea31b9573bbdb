/**
 * Typed errors with stable codes. Messages are fixed text (or the core's fixed ASCII text) and never
 * contain user input, credentials or exception text.
 */
export type PulseErrorCode = 'PULSE_ERR_CONFIG' | 'PULSE_ERR_CORE';

export abstract class PulseError extends Error {
  abstract readonly code: PulseErrorCode;
}

/** Invalid handler options; the message names the offending option. Thrown at construction. */
export class PulseConfigError extends PulseError {
  readonly code = 'PULSE_ERR_CONFIG' as const;
  constructor(message: string) {
    super(message);
    this.name = 'PulseConfigError';
  }
}

/** The core could not be loaded or broke its contract (a bug, never caused by a request). */
export class PulseCoreError extends PulseError {
  readonly code = 'PULSE_ERR_CORE' as const;
  constructor(message: string) {
    super(message);
    this.name = 'PulseCoreError';
  }
}
