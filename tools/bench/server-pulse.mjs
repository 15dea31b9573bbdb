// Bench server from the built package (PULSE_DIST overrides dist/cjs), on 127.0.0.1 (ephemeral port
// printed). Without argv: the `/node` adapter answering discovery. With argv `binding`: the bench
// router (bench-router.mjs) through the static binding's Node listener, `mcp(...).nodeListener()`.
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchRouter } from './bench-router.mjs';
import { echoArtifacts } from './echo-catalog.mjs';
import { UNREACHED_RATE_LIMIT } from './rate-limit.mjs';

const require = createRequire(import.meta.url);
const dist = resolve(process.env.PULSE_DIST ?? fileURLToPath(new URL('../../dist/cjs', import.meta.url)));
/** An export as Node resolves it: the bundle's view beside dist/cjs, for builds that have one. */
const entry = (file) => (existsSync(join(dist, '..', 'node', file)) ? join(dist, '..', 'node', file) : join(dist, file));
const options = { serverInfo: { name: 'bench', version: '1.0.0' } };
// `catalog <port>`: `echo` as a catalog-backed tool of the upstream's `/rpc`. `authz <port>`: the
// same tool behind `authorization`, every request introspected at the upstream; `authz-cache`: the
// same with `authorization.cache` (after the first request every token is answered from the cache);
// `authz-cache-limited`: that with a `rateLimit` never reached (rate-limit.mjs); `authz-off`: the
// same tool without authorization. `artifacts`: prints that tool's compiled artifacts and exits;
// with BENCH_CATALOG_ARTIFACTS=<that JSON file> the servers load them instead of compiling, as a
// deployed host does (the cold-start rows).
if (process.argv[2] === 'artifacts') {
  process.stdout.write(`${JSON.stringify(echoArtifacts(dist))}\n`);
  process.exit(0);
}
const upstream = `http://127.0.0.1:${process.argv[3]}`;
if (['catalog', 'authz', 'authz-cache', 'authz-cache-limited', 'authz-off'].includes(process.argv[2])) {
  const file = process.env.BENCH_CATALOG_ARTIFACTS;
  const { catalog, schemas } = file ? JSON.parse(readFileSync(file, 'utf8')) : echoArtifacts(dist);
  options.tools = { catalog, schemas, routerId: 'bench', target: 'node-javascript', endpoint: `${upstream}/rpc` };
  if (process.argv[2].startsWith('authz') && process.argv[2] !== 'authz-off') {
    options.authorization = {
      resource: 'http://127.0.0.1:1/mcp', issuer: upstream, introspectionEndpoint: `${upstream}/introspect`,
      clientId: 'bench', clientSecret: 'bench-secret', scopes: ['mcp:access'], operations: { echo: [] }, allowInsecureLoopback: true,
      ...(process.argv[2].startsWith('authz-cache') ? { cache: { maxAgeMs: 60_000 } } : {}),
    };
  }
  if (process.argv[2] === 'authz-cache-limited') options.rateLimit = UNREACHED_RATE_LIMIT;
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
