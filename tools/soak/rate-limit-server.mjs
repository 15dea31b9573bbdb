// The rate-limit soak's server (a child of rate-limit.mjs, run with --expose-gc): the Node host of
// the built package (dist/cjs, PULSE_DIST overrides) serving the bench router's JavaScript tool
// `echo_js` with the `rateLimit` given as JSON in argv[2], on 127.0.0.1 (port sent over IPC). Built
// from createHostCore and nodeListener, as createMcpNodeHandler builds it, so that the store's
// `size` can be read. It plays its own trusted proxy: the client address is the `x-soak-client`
// header. Asked `sample` over IPC, it collects garbage and answers its memory and the store's size,
// with the largest size seen after any request.
import http from 'node:http';
import https from 'node:https';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchRouter } from '../bench/bench-router.mjs';

const require = createRequire(import.meta.url);
const dist = resolve(process.env.PULSE_DIST ?? fileURLToPath(new URL('../../dist/cjs', import.meta.url)));
const { createHostCore } = require(join(dist, 'core', 'driver.js'));
const { nodeListener, nodeModules } = require(join(dist, 'adapter', 'node', 'listener.js'));
const { resolveOptions } = require(join(dist, 'options.js'));
// The package's modules one by one (not its entries' bundle): toolSource knows the routers of its
// own module graph only.
const router = require(join(dist, 'router', 'index.js'));
const { handlers } = require(join(dist, 'handlers', 'index.js'));

if (typeof global.gc !== 'function') throw new Error('soak server: run with --expose-gc');
const rateLimit = JSON.parse(process.argv[2]);
const tools = router.toolSource(benchRouter({ ...router, handlers }));
const options = { serverInfo: { name: 'soak', version: '1.0.0' }, tools: { manifest: tools.manifest, handlers: tools.handlers }, rateLimit };
const host = createHostCore(resolveOptions(options, 'host', 'static'), { copyOut: (view) => Buffer.from(view) });
if (host.rates === undefined) throw new Error('soak server: the host core has no rate store');
const listener = nodeListener(host, nodeModules(http, () => https));

const largest = { entries: 0, bytes: 0 };
const server = http.createServer((req, res) => {
  res.once('finish', () => {
    const { entries, bytes } = host.rates.size;
    if (entries > largest.entries) largest.entries = entries;
    if (bytes > largest.bytes) largest.bytes = bytes;
  });
  listener(req, res, { clientAddress: req.headers['x-soak-client'] });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (m) => {
  if (m !== 'sample') return;
  global.gc();
  const { rss, heapUsed } = process.memoryUsage();
  process.send({ rss, heapUsed, store: host.rates.size, largest: { ...largest } });
});
process.on('disconnect', () => server.close(() => process.exit(0)));
