import { PulseError } from '../errors';

/** Compile failures: a stable code and a message naming the operation and the rule it breaks. */
export class ManifestError extends PulseError {
  readonly code = 'PULSE_ERR_MANIFEST';
  constructor(message: string) {
    super(message);
    this.name = 'ManifestError';
  }
}

export function fail(message: string): never {
  throw new ManifestError(message);
}
