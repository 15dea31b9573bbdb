/**
 * A Native service with `rateLimit`, for the rate-limit tests on the Node Native host and on Viceroy:
 * two static tools (`hello`, `costly`) bound as mcp() binds them, and the entries the core counts
 * under.
 */
import { createHash } from 'node:crypto';
import { compileRouter } from '../../src/compiler';
import { resolveOptions } from '../../src/options';
import { EntityRouter, codec, handlers } from '../../src/pulse';
import { staticOptions } from '../../src/router/bind';
import { routerDefinition } from '../../src/router/router';
import { envelope, META, modernHeaders } from './fixtures';

const text = codec.object({ text: codec.string() });
const router = new EntityRouter('ratelimited').operation('hello', { output: text, handler: handlers.static({ text: 'hi' }) }).operation('costly', { output: text, handler: handlers.static({ text: 'paid' }) });

/** The engine configuration of the static binding serving `hello` and `costly` under `rateLimit`. */
export function rateLimitedConfig(rateLimit: Record<string, unknown>): string {
  const manifest = compileRouter(routerDefinition(router)).manifest;
  return resolveOptions({ ...staticOptions({ serverInfo: { name: 'pulse-rate-limited', version: '0.0.1' } }), rateLimit, tools: { manifest } }, 'native', 'static').configJson;
}

/**
 * The entry the core counts `key` under (native/core/src/rate_limit.rs `entry`): the scope's tag and
 * 128 bits of a SHA-256 digest, base64url. Restated here so the tests see which entry reached the store.
 */
export function rateEntry(tag: 'r' | 'c' | 't', key: string, tool = ''): string {
  const digest = createHash('sha256').update(`pulse-rate-limit\0${tag}\0${tool}\0${key}`).digest();
  return `${tag}:${digest.subarray(0, 16).toString('base64url')}`;
}

/** A `tools/call` of `name` (a notification without `id`): headers and body. */
export function toolCall(name: string, id?: string | number): { headers: [string, string][]; body: string } {
  return { headers: modernHeaders('tools/call', name), body: envelope('tools/call', id, { name, _meta: META }) };
}
