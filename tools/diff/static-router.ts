/**
 * The static binding's ceilings at work, which the deployed service's capped tools never reach: a
 * static result exactly at the 24 KiB tool-result ceiling and one byte over it, and a backend call
 * the loopback origin (origin.mjs, `/stall`) never answers, so the handler runs past the 5 s
 * execution limit. Native kinds only, so the Node listener and the Native builds serve the same tools.
 */
import { EntityRouter, codec, handlers } from '../../src/pulse';
import { ORIGIN_PORT } from './backend-router';

const text = codec.object({ text: codec.string() });

// A whole tool result carries the structured output, its text copy and the metadata (this binding's
// serverInfo among it): each `x` counts twice beside 220 other bytes, and a tab (2 bytes structured,
// 3 in the copy) makes the odd size. The rows check the sizes (tools/diff/static-profiles.ts).
export const AT_CEILING = { text: 'x'.repeat(12178) };
export const OVER_CEILING = { text: `\t${'x'.repeat(12176)}` };

export const router = new EntityRouter('diffstatic', { backends: { origin: `http://127.0.0.1:${ORIGIN_PORT}` } })
  .operation('at_ceiling', { output: text, handler: handlers.static(AT_CEILING) })
  .operation('over_ceiling', { output: text, handler: handlers.static(OVER_CEILING) })
  // Its own timeout is the whole 5 s: the request's deadline, which started first, ends the call.
  .operation('stalls', { output: text, handler: handlers.backend({ backend: 'origin', method: 'POST', path: '/stall', maxBytes: 4096, timeoutMs: 5000 }) });

/** mcp() options: the documented ones only, so the static ceilings stand as they are. */
export const binding = { serverInfo: { name: 'pulse-diff-static', version: '0.0.1' } };
