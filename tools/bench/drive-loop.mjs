// Bench helper: the Node host's per-request work without sockets. One request of the bench's kind
// (argv: discover | static | js) goes through createHostCore + drive() again and again, its body
// already arrived, so what is measured is the host glue and the core, not loopback TCP or the load
// generator. Prints one JSON line: the median µs per request over several rounds.
// PULSE_DIST=<dir> measures another build of dist/cjs.
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchRouter } from './bench-router.mjs';

const require = createRequire(import.meta.url);
const dist = resolve(process.env.PULSE_DIST ?? fileURLToPath(new URL('../../dist/cjs', import.meta.url)));
const { createHostCore, drive } = require(join(dist, 'core', 'driver.js'));
const { resolveOptions } = require(join(dist, 'options.js'));
// The package's modules one by one (not its entries' bundle): toolSource knows the routers of its
// own module graph only.
const router = require(join(dist, 'router', 'index.js'));
const { handlers } = require(join(dist, 'handlers', 'index.js'));

const ROUNDS = 7;
const PER_ROUND = 20_000;
const mode = process.argv[2];
if (!['discover', 'static', 'js'].includes(mode)) throw new Error('drive-loop: argv must be discover, static or js');

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' } };
const options = { serverInfo: { name: 'bench', version: '1.0.0' } };
let method = 'server/discover';
let tool;
if (mode !== 'discover') {
  const tools = router.toolSource(benchRouter({ ...router, handlers }));
  options.tools = { manifest: tools.manifest, handlers: tools.handlers };
  method = 'tools/call';
  tool = mode === 'js' ? 'echo_js' : 'echo';
}
const text = JSON.stringify(tool ? { jsonrpc: '2.0', id: 1, method, params: { name: tool, arguments: { text: 'hello' }, _meta: META } } : { jsonrpc: '2.0', id: 1, method, params: { _meta: META } });
const body = Buffer.from(text);
// As Node hands them over: raw header pairs, and reply bodies copied into its buffer pool.
// Tools are the static binding's (what mcp() builds); discovery alone is the host adapters' default.
const host = createHostCore(resolveOptions(options, 'host', tool ? 'static' : 'facade'), { copyOut: (view) => Buffer.from(view) });
const rawHeaders = [
  'Host', '127.0.0.1:3000', 'accept', 'application/json, text/event-stream', 'content-type', 'application/json',
  'mcp-protocol-version', '2026-07-28', 'mcp-method', method, ...(tool ? ['mcp-name', tool] : []),
  'Content-Length', String(body.length), 'Connection', 'keep-alive',
];
const head = { method: 'POST', target: '/mcp', headers: rawHeaders };

/** A body that has fully arrived: one chunk, then its end. */
function arrived() {
  let given = false;
  return {
    poll: () => (given ? { done: true } : ((given = true), { done: false, chunk: body })),
    read: async () => ({ done: true }),
    cancel() {},
  };
}

async function run(n) {
  for (let i = 0; i < n; i++) {
    const outcome = await drive(host, head, arrived(), { gone: false, promise: new Promise(() => {}) });
    if (outcome.response.status !== 200) throw new Error(`drive-loop: ${mode} answered ${outcome.response.status}`);
  }
}

await run(PER_ROUND);
const rounds = [];
for (let r = 0; r < ROUNDS; r++) {
  const t = process.hrtime.bigint();
  await run(PER_ROUND);
  rounds.push(Number(process.hrtime.bigint() - t) / PER_ROUND / 1000);
}
rounds.sort((a, b) => a - b);
process.stdout.write(`${JSON.stringify({ mode, medianUsPerRequest: Number(rounds[ROUNDS >> 1].toFixed(2)) })}\n`);
