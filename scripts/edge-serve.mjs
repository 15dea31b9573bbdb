#!/usr/bin/env node
// npm run edge:serve — the Native edge binary on Fastly's Viceroy (built into .tools/viceroy by
// scripts/viceroy.mjs when missing), or with EDGE_RUNTIME=node in the Node Native host
// (src/cli/compute-host), started through its Viceroy-compatible launcher as `fastly compute serve
// --viceroy-path` starts it: tooling is run, never imported. Backends, config and secret stores come
// from fastly.toml [local_server].
// Honours the same HOST, PORT and LEGACY_PROTOCOL as the example server (`npm start`):
//   HOST (default 127.0.0.1; loopback only), PORT (default 7676),
//   LEGACY_PROTOCOL unset → bin/main.wasm (the deployed, modern-only configuration),
//   LEGACY_PROTOCOL=2025-06-18 → bin/main-legacy.wasm (same router with legacyProtocol '2025-06-18').
// The profile is embedded in the binary at build time (Wizer snapshot), hence two binaries; both come
// from `npm run edge:build`.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './edge-lib.mjs';
import { startViceroy } from './viceroy.mjs';

const LEGACY = '2025-06-18';

function fail(message) {
  process.stderr.write(`edge:serve: ${message}\n`);
  process.exit(2);
}

const legacy = process.env.LEGACY_PROTOCOL || undefined;
if (legacy !== undefined && legacy !== LEGACY) fail(`LEGACY_PROTOCOL must be ${LEGACY} or unset`);
const host = process.env.HOST || '127.0.0.1';
const portText = process.env.PORT || '7676';
if (!/^[1-9][0-9]{0,4}$/.test(portText) || Number(portText) > 65535) fail('PORT must be a port number (1-65535)');
const runtime = process.env.EDGE_RUNTIME || 'viceroy';
if (runtime !== 'viceroy' && runtime !== 'node') fail('EDGE_RUNTIME must be viceroy (default) or node');
if (host !== '127.0.0.1') fail('HOST must be 127.0.0.1 (loopback only)');
const wasm = join(ROOT, 'bin', legacy ? 'main-legacy.wasm' : 'main.wasm');
if (!existsSync(wasm)) fail(`${legacy ? 'bin/main-legacy.wasm' : 'bin/main.wasm'} not found (run npm run edge:build)`);

let h;
try {
  const toml = join(ROOT, 'fastly.toml');
  const addr = `${host}:${portText}`;
  // The launcher passes PULSE_HOST_WORKERS on to the host through the environment.
  h = await startViceroy({ wasm, toml, addr, ...(runtime === 'node' ? { viceroy: join(ROOT, 'src', 'cli', 'compute-host', 'viceroy') } : {}) });
} catch (e) {
  // The message carries the runtime's own output, its log.
  process.stderr.write(`edge:serve: START: ${e.message}\n`);
  process.exit(1);
}
const what = legacy ? `bin/main-legacy.wasm, legacy ${LEGACY}` : 'bin/main.wasm';
process.stdout.write(`Pulse MCP edge (${what} on ${runtime === 'viceroy' ? 'Viceroy' : 'the Node Native host'}) listening on ${h.url}/mcp\n`);
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => h.close().then(() => process.exit(0)));
