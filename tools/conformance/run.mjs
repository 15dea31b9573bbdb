#!/usr/bin/env node
// npm run conformance — the official MCP conformance suite, pinned in tools/conformance/package.json
// (with the Node it needs), against the fixtures in examples/conformance:
//   node-javascript  examples/conformance/server.mjs, the Node host;
//   node-native      the Native build of the same fixtures without JavaScript handlers
//                    (examples/conformance/native.mjs) in the Node Native host (src/cli/compute-host);
//   fastly-native    the same Native build on Fastly's Viceroy (scripts/viceroy.mjs builds it if missing).
// Counted, per target: every scenario the 2026-07-28 requirements score, plus the pending
// http-header-validation, http-custom-header-server-validation and json-schema-2020-12. A scenario
// passes when none of its checks is a FAILURE. Printed but not counted: extensions (tasks). On the
// Native targets, a scenario whose fixture needs a JavaScript handler is reported as not applicable. Ends with one line `N passed, N failed`.
// Flags: --target node-javascript|node-native|fastly-native (default all three). Results: .test-results/conformance/<target>/.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');
const OUT = join(ROOT, '.test-results', 'conformance');
const REVISION = '2026-07-28';
const PENDING_COUNTED = ['http-header-validation', 'http-custom-header-server-validation', 'json-schema-2020-12'];
/** Scenarios that call one fixture tool; on the Native targets they apply only when that tool is native. */
const SCENARIO_TOOL = { 'tools-call-error': 'test_error_handling', 'tools-call-with-progress': 'test_tool_with_progress' };
const SCENARIO_TIMEOUT_MS = 15_000;
const TARGETS = ['node-javascript', 'node-native', 'fastly-native'];
const SUITE_TIMEOUT_MS = 600_000;

function fail(message) {
  process.stderr.write(`conformance: ${message}\n`);
  process.exit(2);
}

function arg(name) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

/** Installs the pinned suite once (and again when its lock file changes). */
function ensureSuite() {
  const lock = readFileSync(join(HERE, 'package-lock.json'));
  const stamp = join(HERE, 'node_modules', '.pulse-lock');
  if (existsSync(stamp) && readFileSync(stamp).equals(lock)) return;
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: HERE, stdio: 'inherit' });
  if (r.status !== 0) fail('npm ci in tools/conformance failed');
  writeFileSync(stamp, lock);
}

function ensureBuilt() {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--if-needed'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) fail('the package build failed');
}

async function freePort() {
  const server = net.createServer();
  await new Promise((ok, no) => {
    server.once('error', no);
    server.listen(0, '127.0.0.1', ok);
  });
  const { port } = server.address();
  await new Promise((ok) => server.close(ok));
  return port;
}

/** The scored scenario names of the requirements file. */
function scoredScenarios() {
  const require = createRequire(join(HERE, 'package.json'));
  const YAML = require('yaml');
  const file = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'requirements', `${REVISION}.yaml`);
  const doc = YAML.parse(readFileSync(file, 'utf8'));
  const names = (doc.server ?? []).map((s) => (typeof s === 'string' ? s : s.scenario ?? s.name));
  if (names.length === 0 || names.some((n) => typeof n !== 'string')) fail(`cannot read the scored scenarios of ${file}`);
  return names;
}

/**
 * Runs the suite against `url`; returns scenario → failing check ids (empty = passed). Async: the
 * edge host serves from this process's event loop.
 */
async function runSuite(url, dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const node = join(HERE, 'node_modules', '.bin', 'node');
  const cli = join(HERE, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
  const args = [cli, 'server', '--url', url, '--requirements', REVISION, '--timeout', String(SCENARIO_TIMEOUT_MS), '-o', dir];
  const child = spawn(node, args, { cwd: HERE, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), SUITE_TIMEOUT_MS);
  const code = await new Promise((ok) => child.once('close', ok));
  clearTimeout(timer);
  writeFileSync(join(dir, 'suite.log'), log);
  if (code === null) fail(`the suite did not finish within ${SUITE_TIMEOUT_MS / 1000} s (log: ${join(dir, 'suite.log')})`);
  const results = new Map();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const m = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry.name);
    const file = join(dir, entry.name, 'checks.json');
    if (!m || !existsSync(file)) continue;
    const checks = JSON.parse(readFileSync(file, 'utf8'));
    results.set(m[1], checks.filter((c) => c.status === 'FAILURE').map((c) => `${c.id}: ${c.errorMessage ?? 'failed'}`));
  }
  return results;
}

/** Starts `node examples/conformance/server.mjs` and resolves with its URL once it listens. */
function startNodeServer(port) {
  const child = spawn(process.execPath, [join(ROOT, 'examples', 'conformance', 'server.mjs')], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((ok, no) => {
    let out = '';
    const timer = setTimeout(() => no(new Error('the conformance server did not start within 20 s')), 20_000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = / listening on (http:\/\/\S+\/mcp)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok({ url: m[1], close: () => new Promise((done) => (child.exitCode !== null ? done() : (child.once('exit', done), child.kill('SIGTERM')))) });
      }
    });
    child.stderr.on('data', (d) => process.stderr.write(d));
    child.once('exit', (code) => {
      clearTimeout(timer);
      no(new Error(`the conformance server exited (${code}) before listening`));
    });
  });
}

/**
 * Configures the package's Native service with the native fixtures for `port` (as `pulse-mcp build
 * --wasm` does) and serves it on `runtime`: the Node
 * Native host (`node-native`) or Fastly's Viceroy (`fastly-native`).
 */
async function startEdge(port, runtime) {
  const { boundRouterConfig, nativeBinary } = await import('../../scripts/edge-lib.mjs');
  const { startHost } = await import('../../src/cli/compute-host/host.mjs');
  const origin = `http://127.0.0.1:${port}`;
  // The requestState key lives in a secret store, as on Fastly: drawn for this run, written to a
  // local manifest in the work directory, read by the service on every request.
  const secret = { secretStore: 'conformance', key: 'request-state' };
  const overrides = { allowedOrigins: [origin, `http://localhost:${port}`], requestStateKey: secret };
  const configJson = await boundRouterConfig(join(ROOT, 'examples', 'conformance', 'native.mjs'), { overrides });
  const work = join(ROOT, 'native', 'target', 'edge-work');
  const wasm = join(work, 'conformance.wasm');
  await nativeBinary(configJson, wasm);
  const toml = join(work, 'conformance-fastly.toml');
  const stateKey = randomBytes(32).toString('hex');
  writeFileSync(
    toml,
    `manifest_version = 3\nname = "pulse-conformance"\nlanguage = "other"\n\n[[local_server.secret_stores.${secret.secretStore}]]\nkey = "${secret.key}"\ndata = "${stateKey}"\n`,
    { mode: 0o600 },
  );
  const addr = `127.0.0.1:${port}`;
  const h = runtime === 'fastly-native' ? await (await import('../../scripts/viceroy.mjs')).startViceroy({ wasm, toml, addr }) : await startHost({ wasm, toml, addr, workers: 2 });
  return { url: `${h.url}/mcp`, close: () => h.close() };
}

async function main() {
  const only = arg('--target');
  if (only !== undefined && !TARGETS.includes(only)) fail(`--target must be one of ${TARGETS.join(', ')}`);
  const targets = only ? [only] : TARGETS;
  ensureSuite();
  ensureBuilt();
  const counted = [...scoredScenarios(), ...PENDING_COUNTED];
  const { NATIVE_TOOLS } = await import('../../examples/conformance/router.mjs');
  let passed = 0;
  let failed = 0;
  for (const target of targets) {
    const port = await freePort();
    const server = target === 'node-javascript' ? await startNodeServer(port) : await startEdge(port, target);
    let results;
    try {
      results = await runSuite(server.url, join(OUT, target));
    } finally {
      await server.close();
    }
    process.stdout.write(`\n== ${target} (${server.url})\n`);
    for (const name of counted) {
      const tool = SCENARIO_TOOL[name];
      if (target !== 'node-javascript' && tool !== undefined && !NATIVE_TOOLS.includes(tool)) {
        process.stdout.write(`  -  ${name}: not applicable (${tool} has a JavaScript handler, which the Native build does not run)\n`);
        continue;
      }
      const failures = results.get(name);
      if (failures === undefined) {
        failed++;
        process.stdout.write(`  ✗  ${name}: no result\n`);
      } else if (failures.length > 0) {
        failed++;
        process.stdout.write(`  ✗  ${name}\n${failures.map((f) => `       ${f}\n`).join('')}`);
      } else {
        passed++;
        process.stdout.write(`  ✓  ${name}\n`);
      }
    }
    const extension = [...results.keys()].filter((n) => !counted.includes(n));
    if (extension.length > 0) process.stdout.write(`  ·  not counted (extensions): ${extension.join(', ')}\n`);
  }
  process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
  process.exitCode = failed === 0 ? 0 : 1;
}

main().catch((e) => fail(e instanceof Error ? e.message : String(e)));
