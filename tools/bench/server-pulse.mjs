// Bench server from the built package (PULSE_DIST overrides dist/cjs), on 127.0.0.1 (ephemeral port
// printed). Without argv: the `/node` adapter answering discovery. With argv `binding`: the bench
// router (bench-router.mjs) through the static binding's Node listener, `mcp(...).nodeListener()`.
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchRouter } from './bench-router.mjs';

const require = createRequire(import.meta.url);
const dist = resolve(process.env.PULSE_DIST ?? fileURLToPath(new URL('../../dist/cjs', import.meta.url)));
/** An export as Node resolves it: the bundle's view beside dist/cjs, for builds that have one. */
const entry = (file) => (existsSync(join(dist, '..', 'node', file)) ? join(dist, '..', 'node', file) : join(dist, file));
const options = { serverInfo: { name: 'bench', version: '1.0.0' } };
// `catalog <port>`: `echo` as a catalog-backed tool of the upstream's `/rpc`. `authz <port>`: the
// same tool behind `authorization`, every request introspected at the upstream; `authz-cache`: the
// same with `authorization.cache` (after the first request every token is answered from the cache);
// `authz-off`: the same tool without it. `artifacts`: prints that tool's compiled artifacts and exits;
// with BENCH_CATALOG_ARTIFACTS=<that JSON file> the servers load them instead of compiling, as a
// deployed host does (the cold-start rows).
function artifacts() {
  // The package's modules one by one (not its entries' bundle): routerDefinition knows the routers
  // of its own module graph only.
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
if (process.argv[2] === 'artifacts') {
  process.stdout.write(`${JSON.stringify(artifacts())}\n`);
  process.exit(0);
}
const upstream = `http://127.0.0.1:${process.argv[3]}`;
if (['catalog', 'authz', 'authz-cache', 'authz-off'].includes(process.argv[2])) {
  const file = process.env.BENCH_CATALOG_ARTIFACTS;
  const { catalog, schemas } = file ? JSON.parse(readFileSync(file, 'utf8')) : artifacts();
  options.tools = { catalog, schemas, routerId: 'bench', target: 'node-javascript', endpoint: `${upstream}/rpc` };
  if (process.argv[2] === 'authz' || process.argv[2] === 'authz-cache') {
    options.authorization = {
      resource: 'http://127.0.0.1:1/mcp', issuer: upstream, introspectionEndpoint: `${upstream}/introspect`,
      clientId: 'bench', clientSecret: 'bench-secret', scopes: ['mcp:access'], operations: { echo: [] }, allowInsecureLoopback: true,
      ...(process.argv[2] === 'authz-cache' ? { cache: { maxAgeMs: 60_000 } } : {}),
    };
  }
}
let listener;
if (process.argv[2] === 'binding') {
  const pulse = require(entry('pulse.js'));
  listener = pulse.mcp({ router: benchRouter(pulse), serverInfo: options.serverInfo }).nodeListener();
} else {
  // Loaded here, so the binding's process loads only what a binding user's does (cold-start rows).
  listener = require(entry('node.js')).createMcpNodeHandler(options);
}
const server = http.createServer(listener);
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
