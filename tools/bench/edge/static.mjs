/**
 * The bench's static edge module: one static tool, `echo`, answered inside the core, bound with
 * mcp() as the deployed service is. Built for Fastly Native by tools/bench/extra/viceroy.mjs.
 */
import { EntityRouter, codec, handlers, mcp } from '@pulse-compute/mcp/pulse';

const input = codec.object({ text: codec.string({ maxLength: 64 }) });
const output = codec.object({ text: codec.string() });

export const router = new EntityRouter('bench').operation('echo', { description: 'Echo', input, output, handler: handlers.static({ text: 'hello' }) });

export const server = mcp({ router, serverInfo: { name: 'bench', version: '1.0.0' } });
