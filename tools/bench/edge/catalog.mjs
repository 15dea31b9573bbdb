/**
 * The bench's catalog-backed edge module: `echo` as a catalog-backed tool whose JSON-RPC endpoint is
 * the Fastly backend `origin` (tools/bench/server-upstream.mjs's `/rpc`; the Viceroy configuration
 * written by tools/bench/extra/viceroy.mjs points `origin` at its port). Built for Fastly Native.
 */
import { compileRouter } from '../../../src/compiler';
import { EntityRouter, codec, handlers } from '../../../src/pulse';
import { routerDefinition } from '../../../src/router/router';

const input = codec.object({ text: codec.string({ maxLength: 64 }) });
const output = codec.object({ text: codec.string() });
const router = new EntityRouter('bench').operation('echo', { description: 'Echo', input, output, handler: handlers.static({ text: 'hello' }) });
const { catalog, schemaRegistry } = compileRouter(routerDefinition(router));

export const options = {
  serverInfo: { name: 'bench', version: '1.0.0' },
  tools: { catalog, schemas: schemaRegistry, routerId: 'bench', target: 'fastly-native', endpoint: 'http://127.0.0.1:7681/rpc', backend: 'origin' },
};
