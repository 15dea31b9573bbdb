// Bench server: the Pulse Node host from the built package (PULSE_DIST overrides dist/cjs), on
// 127.0.0.1 (ephemeral port printed). With argv `tools` it serves the bench router (bench-router.mjs).
import http from 'node:http';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchRouter } from './bench-router.mjs';

const require = createRequire(import.meta.url);
const dist = resolve(process.env.PULSE_DIST ?? fileURLToPath(new URL('../../dist/cjs', import.meta.url)));
const { createMcpNodeHandler } = require(join(dist, 'node.js'));
const options = { serverInfo: { name: 'bench', version: '1.0.0' } };
if (process.argv[2] === 'tools') {
  const pulse = require(join(dist, 'pulse.js'));
  options.tools = pulse.toolSource(benchRouter(pulse));
}
// `catalog <port>`: `echo` as a catalog-backed tool of the upstream's `/rpc`. `authz <port>`: a
// static `echo` behind `authorization`, every request introspected at the upstream; `authz-off`:
// the same tool without it.
const upstream = `http://127.0.0.1:${process.argv[3]}`;
if (['catalog', 'authz', 'authz-off'].includes(process.argv[2])) {
  const { EntityRouter, codec, handlers, toolSource } = require(join(dist, 'pulse.js'));
  const input = codec.object({ text: codec.string({ maxLength: 64 }) });
  const output = codec.object({ text: codec.string() });
  const router = new EntityRouter('bench').operation('echo', { description: 'Echo', input, output, handler: handlers.static({ text: 'hello' }) });
  if (process.argv[2] === 'catalog') {
    const { compileRouter } = require(join(dist, 'compiler', 'index.js'));
    const { routerDefinition } = require(join(dist, 'router', 'router.js'));
    const { catalog, schemaRegistry } = compileRouter(routerDefinition(router));
    options.tools = { catalog, schemas: schemaRegistry, routerId: 'bench', target: 'node', endpoint: `${upstream}/rpc` };
  } else {
    options.tools = toolSource(router);
  }
  if (process.argv[2] === 'authz') {
    options.authorization = {
      resource: 'http://127.0.0.1:1/mcp', issuer: upstream, introspectionEndpoint: `${upstream}/introspect`,
      clientId: 'bench', clientSecret: 'bench-secret', scopes: ['mcp:access'], operations: { echo: [] }, allowInsecureLoopback: true,
    };
  }
}
const server = http.createServer(createMcpNodeHandler(options));
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
