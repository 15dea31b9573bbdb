#!/usr/bin/env node
// npm run edge:serve — the Native edge binary in the Node Native host (wasm/native-host), honouring
// the same HOST, PORT and LEGACY_PROTOCOL as the example server (`npm start`):
//   HOST (default 127.0.0.1; the host binds loopback only), PORT (default 7676),
//   LEGACY_PROTOCOL unset → bin/main.wasm (the deployed, modern-only configuration),
//   LEGACY_PROTOCOL=2025-06-18 → bin/main-legacy.wasm (same router with legacyProtocol '2025-06-18').
// The profile is embedded in the binary at build time (Wizer snapshot), hence two binaries; both come
// from `npm run edge:build`.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startHost } from '../tools/compute-host/host.mjs';
import { ROOT } from './edge-lib.mjs';

const LEGACY = '2025-06-18';

function fail(message) {
  process.stderr.write(`edge:serve: ${message}\n`);
  process.exit(2);
}

const legacy = process.env.LEGACY_PROTOCOL || undefined;
if (legacy !== undefined && legacy !== LEGACY) fail(`LEGACY_PROTOCOL must be ${LEGACY} or unset`);
const host = process.env.HOST || '127.0.0.1';
const portText = process.env.PORT || '7676';
if (!/^[0-9]{1,5}$/.test(portText) || Number(portText) > 65535) fail('PORT must be a port number');
const wasm = join(ROOT, 'bin', legacy ? 'main-legacy.wasm' : 'main.wasm');
if (!existsSync(wasm)) fail(`${legacy ? 'bin/main-legacy.wasm' : 'bin/main.wasm'} not found (run npm run edge:build)`);

let h;
try {
  h = await startHost({ wasm, toml: join(ROOT, 'fastly.toml'), addr: `${host}:${portText}`, workers: Number(process.env.PULSE_HOST_WORKERS || 2) });
} catch (e) {
  // Host errors carry fixed messages (e.g. ADDR_NOT_LOOPBACK); anything else is not echoed.
  process.stderr.write(`edge:serve: ${e.code || 'START'}: ${e.code ? e.message : 'failed to start'}\n`);
  process.exit(1);
}
process.stdout.write(`Pulse MCP edge (${legacy ? `bin/main-legacy.wasm, legacy ${LEGACY}` : 'bin/main.wasm'}) listening on ${h.url}/mcp\n`);
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => h.close().then(() => process.exit(0)));
