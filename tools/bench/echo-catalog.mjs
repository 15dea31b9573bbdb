/**
 * The bench's catalog-backed tool, `echo` (a static result, compiled as a catalog), from the built
 * package's modules one by one under `dist` (a dist/cjs), not its entries' bundle: routerDefinition
 * knows the routers of its own module graph only. Plain Node loads it: the Node servers
 * (server-pulse.mjs) and the edge module the Native build evaluates (edge/catalog.mjs).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);

/** `{ catalog, schemas }` of `echo`, as `tools: { catalog, schemas, … }` takes them. */
export function echoArtifacts(dist) {
  const { EntityRouter, codec } = require(join(dist, 'router', 'index.js'));
  const { handlers } = require(join(dist, 'handlers', 'index.js'));
  const input = codec.object({ text: codec.string({ maxLength: 64 }) });
  const output = codec.object({ text: codec.string() });
  const router = new EntityRouter('bench').operation('echo', { description: 'Echo', input, output, handler: handlers.static({ text: 'hello' }) });
  const { compileRouter } = require(join(dist, 'compiler', 'index.js'));
  const { routerDefinition } = require(join(dist, 'router', 'router.js'));
  const { catalog, schemaRegistry } = compileRouter(routerDefinition(router));
  return { catalog, schemas: schemaRegistry };
}
