// A request body that arrived whole with its head, as a driver test hands it over.
import type { BodySource } from '../../src/core/driver';

const encoder = new TextEncoder();

/** `text` as one chunk the runtime already holds, then the end. */
export function bodyOf(text: string): BodySource {
  let sent = false;
  const next = () => {
    if (sent) return { done: true } as const;
    sent = true;
    return { done: false, chunk: encoder.encode(text) } as const;
  };
  return { read: async () => next(), poll: next, cancel: () => undefined };
}
