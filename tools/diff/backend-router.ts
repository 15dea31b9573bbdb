/**
 * The differential run's backend-call router: every governed outcome of a `backend` handler against
 * the loopback origin (origin.mjs on ORIGIN_PORT) and a loopback port nothing listens on.
 * Ports are fixed for a run because backend URLs are compiled into the manifest (and so into the
 * Native binary); `PULSE_TEST_PORT_BASE` (default 7681) moves both, so two checkouts can run at once.
 */
import { EntityRouter, codec, handlers } from '../../src/pulse';

const BASE = Number(process.env.PULSE_TEST_PORT_BASE || 7681);
if (!Number.isInteger(BASE) || BASE < 1024 || BASE > 65534) throw new Error('PULSE_TEST_PORT_BASE: must be an integer port from 1024 to 65534');
export const ORIGIN_PORT = BASE;
export const CLOSED_PORT = BASE + 1;

const reply = codec.object({ ok: codec.boolean(), path: codec.string({ maxLength: 64 }), echo: codec.optional(codec.string({ maxLength: 256 })) });
const input = codec.object({ q: codec.string({ maxLength: 256 }) });
const post = (path: string, extra: { maxBytes?: number; timeoutMs?: number; backend?: string } = {}) =>
  handlers.backend({ backend: extra.backend ?? 'origin', method: 'POST', path, maxBytes: extra.maxBytes ?? 4096, timeoutMs: extra.timeoutMs ?? 2000 });

export const router = new EntityRouter('diffbackend', {
  backends: { origin: `http://127.0.0.1:${ORIGIN_PORT}`, closed: `http://127.0.0.1:${CLOSED_PORT}` },
})
  .operation('fast', { input, output: reply, handler: post('/fast') })
  .operation('slow', { input, output: reply, handler: post('/slow', { timeoutMs: 250 }) })
  .operation('slowbound', { input, output: reply, handler: post('/slow', { timeoutMs: 3000 }) })
  .operation('big', { input, output: reply, handler: post('/big', { maxBytes: 512 }) })
  .operation('exact', { input, output: reply, handler: post('/exact', { maxBytes: 512 }) })
  .operation('refused', { input, output: reply, handler: post('/fast', { backend: 'closed' }) })
  .operation('status500', { input, output: reply, handler: post('/status500') })
  .operation('notjson', { input, output: reply, handler: post('/notjson') })
  .operation('binary', { input, output: reply, handler: post('/binary') })
  .operation('bom', { input, output: reply, handler: post('/bom') })
  .operation('wrongshape', { input, output: reply, handler: post('/wrongshape') })
  .operation('chunked', { input, output: reply, handler: post('/chunked') })
  .operation('noout', { input, handler: post('/fast') })
  .operation('get', { output: reply, handler: handlers.backend({ backend: 'origin', method: 'GET', path: '/get', maxBytes: 4096, timeoutMs: 2000 }) });

/** The 1 s request deadline cuts `slowbound` (3 s tool budget) short: a deadline-bound timeout. */
export const options = { serverInfo: { name: 'pulse-diff-backend', version: '0.0.1' }, limits: { deadlineMs: 1000 } } as const;
