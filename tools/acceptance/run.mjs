#!/usr/bin/env node
// The installed-package acceptance: the package as a user gets it. Packs it, installs the tarball
// outside the checkout with lifecycle scripts disabled, and from there checks the exact file list,
// every entry point from CommonJS and ESM, that implementation subpaths are refused, strict NodeNext
// type-checking of .cts and .mts consumers, the `pulse-mcp` executable, the official client against a
// server built from the installed package, the context server extracted, installed and run from the
// installed package alone, the Node Native host run from the installed package with the
// repository's Native binary (bin/main.wasm, built when missing), and every code snippet of the
// package guide run as written (./snippets.mjs: only ports, URLs and secrets differ; the one import
// the guide writes as prose becomes that statement) against servers and a loopback backend built
// from the installed package; then a Fastly project made by `pulse-mcp init`, built and served by
// the pinned Fastly CLI on Viceroy without a Rust toolchain (./edge-project.mjs).
// Nothing here imports the checkout's sources.
// Prints one line per step and ends with `N passed, N failed`; exits non-zero when a step failed.
//   --keep  leave the scratch directory (printed) for inspection
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { errorLine, freePort, run, start, waitForPort, withTimeout } from '../qualify/lib.mjs';
import { edgeProject } from './edge-project.mjs';
import { differingCopies, guideDir, guideText, loadSnippets, substitute } from './snippets.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const NAME = PKG.name;
const requireRoot = createRequire(join(ROOT, 'package.json'));
// The official client comes from the checkout's dev dependencies: it is the peer, not the product.
const { Client, StreamableHTTPClientTransport } = await import(requireRoot.resolve('@modelcontextprotocol/client'));

const SCRATCH = mkdtempSync(join(tmpdir(), 'pulse-acceptance-'));
const NPM_ENV = {
  ...process.env,
  npm_config_ignore_scripts: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  npm_config_loglevel: 'error',
};
const npm = (args, cwd, timeoutMs = 120_000) => run('npm', args, { cwd, env: NPM_ENV, timeoutMs });

let passed = 0;
let failed = 0;
async function step(name, fn) {
  const t0 = performance.now();
  try {
    const detail = await fn();
    passed++;
    process.stdout.write(`ok   ${name} (${Math.round(performance.now() - t0)} ms)${detail ? `: ${detail}` : ''}\n`);
    return true;
  } catch (e) {
    failed++;
    process.stdout.write(`FAIL ${name}: ${errorLine(e)}\n`);
    return false;
  }
}
function need(cond, what) {
  if (!cond) throw new Error(what);
}
function sh(r, what) {
  need(r.code === 0 && !r.timedOut, `${what} exited ${r.timedOut ? 'on its timeout' : r.code}: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' / ')}`);
  return r;
}

/** Every file under dir, as sorted relative paths with forward slashes. */
function walk(dir) {
  const files = [];
  const visit = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) visit(p);
      else files.push(relative(dir, p).split('\\').join('/'));
    }
  };
  visit(dir);
  return files.sort();
}

// The exact allowlist: package metadata, the README and the user documents, the notices, the core
// once as wasm (wasm2js beside the loader), and per compiled module its CommonJS file and
// declaration; per entry its ESM face; for Node, the bundle of the entries and per entry its two
// views of it; the Node Native host's ES modules and launcher.
const HOST_DIR = 'dist/cjs/cli/compute-host';
const HOST_FILES = ['host.mjs', 'worker.mjs', 'toml.mjs', 'compute-module.mjs', 'viceroy'].map((f) => `${HOST_DIR}/${f}`);
const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^docs\/[a-z0-9-]+\.md$/,
  /^LICENSE$/,
  /^NOTICE$/,
  /^wasm\/pulse_core\.wasm$/,
  /^wasm\/pulse_native_service\.wasm$/,
  /^dist\/cjs\/core\/generated\/core-wasm2js\.cjs$/,
  /^dist\/cjs\/([a-z0-9-]+\/)*[a-z0-9-]+\.(js|d\.ts)$/,
  /^dist\/esm\/[a-z0-9-]+\.(mjs|d\.mts)$/,
  /^dist\/node\/bundle\.js$/,
  /^dist\/node\/[a-z0-9-]+\.(js|d\.ts|mjs|d\.mts)$/,
  // A chunk esbuild names by its content would hold code two of the host's modules share.
  /^dist\/cjs\/cli\/compute-host\/([a-z0-9-]+|shared-[A-Z0-9]+)\.mjs$/,
  /^dist\/cjs\/cli\/compute-host\/viceroy$/,
];
const ENTRIES = Object.entries(PKG.exports).filter(([, t]) => typeof t === 'object');
/** Every file form of every export: its own, and Node's where it has one. */
const FORMS = ENTRIES.flatMap(([, t]) => (t.node ? [t, t.node] : [t]));

function checkFileList(files) {
  const stray = files.filter((f) => !ALLOWED.some((re) => re.test(f)));
  need(stray.length === 0, `files outside the allowlist: ${stray.join(', ')}`);
  const required = ['package.json', 'README.md', 'LICENSE', 'NOTICE', 'wasm/pulse_core.wasm', 'wasm/pulse_native_service.wasm', 'dist/cjs/core/generated/core-wasm2js.cjs', PKG.bin['pulse-mcp'].replace(/^\.\//, ''), ...HOST_FILES, ...PKG.files.filter((f) => f.startsWith('docs/'))];
  for (const t of FORMS) required.push(t.import.replace(/^\.\//, ''), t.require.replace(/^\.\//, ''));
  const missing = required.filter((f) => !files.includes(f));
  need(missing.length === 0, `missing: ${missing.join(', ')}`);
  // Declarations travel with their modules, and nothing compiled is shipped without one.
  const js = files.filter((f) => /^dist\/cjs\/.*\.js$/.test(f));
  const undeclared = js.filter((f) => !files.includes(f.replace(/\.js$/, '.d.ts')));
  need(undeclared.length === 0, `modules without declarations: ${undeclared.join(', ')}`);
  const orphans = files.filter((f) => f.endsWith('.d.ts') && !files.includes(f.replace(/\.d\.ts$/, '.js')));
  need(orphans.length === 0, `declarations without modules: ${orphans.join(', ')}`);
  for (const t of FORMS) need(files.includes(t.require.replace(/^\.\//, '').replace(/\.js$/, '.d.ts')), `${t.require} has no .d.ts`);
  for (const t of FORMS) need(files.includes(t.import.replace(/^\.\//, '').replace(/\.mjs$/, '.d.mts')), `${t.import} has no .d.mts`);
}

const state = {};

await step('build the package (dist/)', async () => {
  sh(await run(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--if-needed'], { cwd: ROOT, timeoutMs: 180_000 }), 'scripts/build.mjs');
});

await step('npm pack: the exact file allowlist', async () => {
  const r = sh(await npm(['pack', '--json', '--pack-destination', SCRATCH], ROOT), 'npm pack');
  const [info] = JSON.parse(r.stdout.slice(r.stdout.indexOf('[')));
  state.tarball = join(SCRATCH, info.filename);
  const files = info.files.map((f) => f.path).sort();
  state.packed = files;
  checkFileList(files);
  return `${info.filename}, ${files.length} files, ${info.size} B packed, ${info.unpackedSize} B unpacked`;
});

const CONSUMER = join(SCRATCH, 'consumer');
const installed = () => join(CONSUMER, 'node_modules', ...NAME.split('/'));

await step('npm install the tarball outside the checkout, lifecycle scripts disabled', async () => {
  need(state.tarball, 'no tarball');
  need(relative(ROOT, CONSUMER).startsWith('..'), 'the consumer must live outside the checkout');
  mkdirSync(CONSUMER, { recursive: true });
  writeFileSync(join(CONSUMER, 'package.json'), `${JSON.stringify({ name: 'pulse-consumer', version: '1.0.0', private: true }, null, 2)}\n`);
  sh(await npm(['install', '--ignore-scripts', '--offline', state.tarball], CONSUMER), 'npm install');
  const files = walk(installed());
  const differ = files.length !== state.packed.length || files.some((f, i) => f !== state.packed[i]);
  need(!differ, `installed files differ from the tarball: ${files.filter((f) => !state.packed.includes(f)).join(', ')}`);
  // No runtime dependencies: the install brought nothing else.
  const others = readdirSync(join(CONSUMER, 'node_modules')).filter((d) => !d.startsWith('.') && d !== NAME.split('/')[0]);
  need(others.length === 0, `the install pulled in ${others.join(', ')}`);
  return `${files.length} files, no other packages`;
});

/** Runs a script with the consumer's resolution (a file inside CONSUMER) on this Node. */
async function inConsumer(file, text) {
  const path = join(CONSUMER, file);
  writeFileSync(path, text);
  return sh(await run(process.execPath, [path], { cwd: CONSUMER, timeoutMs: 30_000 }), file);
}

/** Entries that import an optional peer dependency: loaded only once the consumer installs it. */
const PEERS = { './otel': '@opentelemetry/api' };

for (const [sub] of ENTRIES) {
  const spec = sub === '.' ? NAME : `${NAME}/${sub.slice(2)}`;
  const peer = PEERS[sub];
  await step(`import ${spec} from CommonJS and ESM: the same bindings${peer ? `, once its optional peer ${peer} is installed` : ''}`, async () => {
    if (peer) {
      // Without the peer the entry fails to load and names what is missing.
      const without = await run(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(spec)})`], { cwd: CONSUMER, timeoutMs: 30_000 });
      need(without.code !== 0 && without.stderr.includes(peer), `without ${peer}: exit ${without.code}, ${without.stderr.trim().slice(0, 300)}`);
      const version = JSON.parse(readFileSync(join(ROOT, 'node_modules', ...peer.split('/'), 'package.json'), 'utf8')).version;
      sh(await npm(['install', '--ignore-scripts', '--prefer-offline', '--no-save', `${peer}@${version}`], CONSUMER), `npm install ${peer}`);
    }
    // One process loads both faces: the ESM wrapper re-exports the CommonJS objects, not copies.
    const r = await inConsumer(
      `entry-${sub === '.' ? 'root' : sub.slice(2)}.mjs`,
      `import { createRequire } from 'node:module';
const esm = await import(${JSON.stringify(spec)});
const cjs = createRequire(import.meta.url)(${JSON.stringify(spec)});
const names = Object.keys(esm).filter((n) => n !== 'default').sort();
const cjsNames = Object.keys(cjs).filter((n) => n !== '__esModule').sort();
const same = names.length > 0 && names.join() === cjsNames.join() && names.every((n) => esm[n] === cjs[n]);
process.stdout.write(JSON.stringify({ same, names, cjsNames }));
`,
    );
    const { same, names, cjsNames } = JSON.parse(r.stdout);
    need(same, `ESM [${names}] vs CommonJS [${cjsNames}]`);
    // And from a plain CommonJS file, in its own process.
    const c = await inConsumer(`entry-${sub === '.' ? 'root' : sub.slice(2)}.cjs`, `process.stdout.write(Object.keys(require(${JSON.stringify(spec)})).join());\n`);
    need(c.stdout.split(',').filter((n) => n !== '__esModule').sort().join() === names.join(), 'require() in a .cjs file gives other names');
    return `${names.length} names`;
  });
}

// The entries of the library itself; an entry over an optional peer exports no error class.
const LIBRARY_ENTRIES = ENTRIES.filter(([sub]) => PEERS[sub] === undefined);
const ERROR_CLASSES = ['PulseError', 'PulseConfigError', 'PulseCoreError', 'PulseRouterError', 'ManifestError', 'isPulseRouterError'];
await step('the error classes: one identity across every entry, CommonJS and ESM', async () => {
  const r = await inConsumer('errors.mjs', `import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const specs = ${JSON.stringify(LIBRARY_ENTRIES.map(([sub]) => (sub === '.' ? NAME : `${NAME}/${sub.slice(2)}`)))};
const faces = [...specs.map((s) => require(s)), ...(await Promise.all(specs.map((s) => import(s))))];
const root = faces[0];
const differing = ${JSON.stringify(ERROR_CLASSES)}.filter((n) => typeof root[n] !== 'function' || faces.some((f) => f[n] !== root[n]));
let caught;
try { require(${JSON.stringify(`${NAME}/node`)}).createMcpNodeHandler({ path: 'mcp' }); } catch (e) { caught = e instanceof root.PulseConfigError && e instanceof faces.at(-1).PulseError; }
process.stdout.write(JSON.stringify({ differing, caught }));
`);
  const got = JSON.parse(r.stdout);
  need(got.differing.length === 0 && got.caught === true, JSON.stringify(got));
  return `${ERROR_CLASSES.length} names × ${LIBRARY_ENTRIES.length * 2} faces`;
});

await step('package.json and pulse_core.wasm resolve as exported', async () => {
  const r = await inConsumer('resolve.cjs', `const fs = require('node:fs');
const pkg = require(${JSON.stringify(`${NAME}/package.json`)});
const wasm = fs.readFileSync(require.resolve(${JSON.stringify(`${NAME}/pulse_core.wasm`)}));
process.stdout.write(JSON.stringify({ version: pkg.version, magic: wasm.subarray(0, 4).toString('hex'), valid: WebAssembly.validate(wasm) }));
`);
  const got = JSON.parse(r.stdout);
  need(got.version === PKG.version && got.magic === '0061736d' && got.valid, JSON.stringify(got));
});

await step('the wasm2js core: never loaded where WebAssembly exists, and answers alike where it does not', async () => {
  const probe = (hide) =>
    inConsumer(
      `core-${hide ? 'wasm2js' : 'wasm'}.cjs`,
      `const saved = globalThis.WebAssembly;
${hide ? 'delete globalThis.WebAssembly;' : ''}
const { createMcpHttpHandler } = require(${JSON.stringify(NAME)});
const handler = createMcpHttpHandler({ serverInfo: { name: 'acceptance', version: '1' } });
globalThis.WebAssembly = saved; // the handler has chosen its core; Node's own modules need it back
const wasm2js = Object.keys(require.cache).some((f) => f.endsWith('core-wasm2js.cjs'));
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'a', version: '1' } };
const bodies = [
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } }),
  '{"jsonrpc":"2.0","id":2,"method":',
  JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: meta } }),
];
(async () => {
  const out = [];
  for (const body of bodies) {
    const method = body.endsWith(':') ? 'server/discover' : JSON.parse(body).method;
    const r = await handler.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method }, body }));
    out.push(r.status + ' ' + (await r.text()));
  }
  process.stdout.write(JSON.stringify({ wasm2js, out }));
})();
`,
    );
  const wasm = JSON.parse((await probe(false)).stdout);
  const w2j = JSON.parse((await probe(true)).stdout);
  need(!wasm.wasm2js, 'the wasm2js core was loaded although WebAssembly exists');
  need(w2j.wasm2js, 'without WebAssembly the wasm2js core was not loaded');
  need(JSON.stringify(w2j.out) === JSON.stringify(wasm.out), `the cores answer differently: ${JSON.stringify(w2j.out).slice(0, 200)}`);
  need(wasm.out[0].startsWith('200 ') && wasm.out[1].startsWith('400 '), `unexpected replies: ${wasm.out.join(' | ').slice(0, 200)}`);
  return `${wasm.out.length} replies identical`;
});

const REFUSED = ['dist/cjs/index.js', 'dist/cjs/core/loader.js', 'dist/cjs/core/generated/core-wasm2js.cjs', 'dist/esm/index.mjs', 'dist/cjs/compiler/cli.js', 'wasm/pulse_core.wasm', 'src/index.ts', 'router'];
await step('implementation subpaths are refused from CommonJS and ESM', async () => {
  const r = await inConsumer('subpaths.mjs', `import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const out = {};
for (const sub of ${JSON.stringify(REFUSED)}) {
  const spec = ${JSON.stringify(NAME)} + '/' + sub;
  let viaRequire = 'loaded', viaImport = 'loaded';
  try { require(spec); } catch (e) { viaRequire = e.code; }
  try { await import(spec); } catch (e) { viaImport = e.code; }
  out[sub] = [viaRequire, viaImport];
}
process.stdout.write(JSON.stringify(out));
`);
  const got = JSON.parse(r.stdout);
  const wrong = Object.entries(got).filter(([, codes]) => codes.some((c) => c !== 'ERR_PACKAGE_PATH_NOT_EXPORTED'));
  need(wrong.length === 0, `not refused: ${wrong.map(([s, c]) => `${s} (${c})`).join(', ')}`);
  return `${REFUSED.length} subpaths`;
});

// Consumers of every entry, typed: the .cts through require-style imports, the .mts through ESM.
const TYPED = {
  'consumer.cts': `import { createMcpHttpHandler, type McpLimits, type PulseConfigError } from '${NAME}';
import { createMcpNodeHandler } from '${NAME}/node';
import { EntityRouter, codec, mcp } from '${NAME}/pulse';
import http = require('node:http');

const limits: Partial<McpLimits> = { requestBytes: 65536 };
const router = new EntityRouter('typed').operation('echo', {
  description: 'Echo a word',
  input: codec.object({ word: codec.string({ maxLength: 32 }) }),
  output: codec.object({ word: codec.string({ maxLength: 32 }) }),
  handler: (_ctx, input) => ({ word: input.word.toUpperCase() }),
});
const fetchHandler: (request: Request) => Promise<Response> = createMcpHttpHandler({ limits }).fetch;
const host: http.Server = http.createServer(createMcpNodeHandler({ limits }));
const binding = mcp({ router, serverInfo: { name: 'typed', version: '1' } });
const handle: (ctx: { request: Request }) => Promise<Response> = binding.handle;
const server: http.Server = http.createServer(binding.nodeListener());
const code = (e: PulseConfigError): string => e.code;
export const used: unknown[] = [fetchHandler, host, handle, server, code];
`,
  'consumer.mts': `import { createMcpHttpHandler, type McpHttpOptions } from '${NAME}';
import { createMcpNodeHandler } from '${NAME}/node';
import * as pulse from '${NAME}/pulse';

const options: McpHttpOptions = { path: '/mcp', limits: { deadlineMs: 5000 } };
const handler = createMcpHttpHandler(options);
const response: Promise<Response> = handler.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST' }));
export const used: unknown[] = [response, createMcpNodeHandler, pulse.codec.string({ maxLength: 8 })];
`,
};

await step('.cts and .mts consumers type-check under strict NodeNext, no skipLibCheck', async () => {
  const dir = join(CONSUMER, 'typed');
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(TYPED)) writeFileSync(join(dir, file), text);
  const tsconfig = (files) => ({
    compilerOptions: {
      strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', noEmit: true,
      skipLibCheck: false, types: ['node'], typeRoots: [join(ROOT, 'node_modules/@types')], lib: ['ES2022', 'DOM'],
    },
    files,
  });
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig(Object.keys(TYPED))));
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  const r = await run(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { cwd: dir, timeoutMs: 120_000 });
  need(r.code === 0, `tsc: ${r.stdout.trim().split('\n').slice(0, 6).join(' / ')}`);
  // The check has teeth: a wrong option type is an error at its place.
  writeFileSync(join(dir, 'wrong.mts'), `import { createMcpNodeHandler } from '${NAME}/node';\ncreateMcpNodeHandler({ limits: { requestBytes: 'big' } });\n`);
  writeFileSync(join(dir, 'tsconfig.wrong.json'), JSON.stringify(tsconfig(['wrong.mts'])));
  const w = await run(process.execPath, [tsc, '-p', join(dir, 'tsconfig.wrong.json')], { cwd: dir, timeoutMs: 120_000 });
  need(w.code !== 0 && /wrong\.mts\(2,\d+\): error TS2322/.test(w.stdout), `a wrong option type was not reported: ${w.stdout.trim().slice(0, 300)}`);
  return 'both clean; a wrong option type is TS2322 at wrong.mts:2';
});

await step('npx pulse-mcp --help and --version from the installed tarball', async () => {
  // --no-install: the registry is never asked for a package of that name.
  const help = sh(await run('npx', ['--no-install', 'pulse-mcp', '--help'], { cwd: CONSUMER, env: NPM_ENV, timeoutMs: 30_000 }), 'npx pulse-mcp --help');
  need(/^pulse-mcp: /.test(help.stdout) && help.stdout.includes('usage:\n  pulse-mcp build <module> --target fastly-native --wasm <file>') && help.stdout.includes('\n  pulse-mcp compile <router module> --out <dir>'), `--help printed ${JSON.stringify(help.stdout.slice(0, 120))}`);
  const version = sh(await run('npx', ['--no-install', 'pulse-mcp', '--version'], { cwd: CONSUMER, env: NPM_ENV, timeoutMs: 30_000 }), 'npx pulse-mcp --version');
  need(version.stdout === `${PKG.version}\n`, `--version printed ${JSON.stringify(version.stdout)}`);
  const bad = await run('npx', ['--no-install', 'pulse-mcp', 'frobnicate'], { cwd: CONSUMER, env: NPM_ENV, timeoutMs: 30_000 });
  need(bad.code === 2 && bad.stderr.startsWith('pulse-mcp: unknown command frobnicate\n'), `an unknown command gave exit ${bad.code}`);
});

await step('npx pulse-mcp build: needs its optional peer, then equals pulse-mcp compile', async () => {
  const dir = join(CONSUMER, 'lowered');
  mkdirSync(dir, { recursive: true });
  cpSync(join(ROOT, 'examples/catalog/router.mjs'), join(dir, 'router.mjs'));
  const npx = (args) => run('npx', ['--no-install', 'pulse-mcp', ...args], { cwd: CONSUMER, env: NPM_ENV, timeoutMs: 60_000 });
  // Without TypeScript installed, build says what to install (the library itself depends on nothing).
  const without = await npx(['build', 'lowered/router.mjs', '--out', 'lowered/build']);
  need(without.code === 1 && without.stderr.includes('npm install --save-dev typescript'), `without typescript: exit ${without.code}, ${without.stderr.trim()}`);
  const tsVersion = JSON.parse(readFileSync(join(ROOT, 'node_modules/typescript/package.json'), 'utf8')).version;
  // The same TypeScript the checkout pins, from npm's cache when it is there.
  sh(await npm(['install', '--ignore-scripts', '--prefer-offline', '--no-save', `typescript@${tsVersion}`], CONSUMER), 'npm install typescript');
  sh(await npx(['build', 'lowered/router.mjs', '--out', 'lowered/build']), 'pulse-mcp build');
  sh(await npx(['compile', 'lowered/router.mjs', '--out', 'lowered/compiled']), 'pulse-mcp compile');
  for (const f of ['entities-catalog.json', 'schema-json-registry.json']) {
    need(readFileSync(join(dir, 'build', f), 'utf8') === readFileSync(join(dir, 'compiled', f), 'utf8'), `${f} differs between build and compile`);
  }
  return `typescript ${tsVersion}; catalog and registry identical to compile's`;
});

/** Starts `node file` in cwd on a free loopback port; resolves once it printed its listening line. */
async function serve(cwd, file, env = {}) {
  const port = await freePort();
  const p = start(process.execPath, [file], { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, HOST: '127.0.0.1', PORT: String(port), ...env } });
  await waitForPort(port, 15_000, p.exited);
  const url = `http://127.0.0.1:${port}/mcp`;
  const deadline = Date.now() + 5000;
  while (!p.out.stdout.endsWith(`listening on ${url}\n`) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  need(p.out.stdout.endsWith(`listening on ${url}\n`), `its last start-up line is not "… listening on ${url}": ${JSON.stringify(p.out.stdout.slice(-200))}`);
  return { p, url };
}

async function connect(url, transportOptions) {
  const client = new Client({ name: 'pulse-acceptance', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await withTimeout(client.connect(new StreamableHTTPClientTransport(new URL(url), transportOptions)), 10_000, 'connect');
  return client;
}

/** SIGTERM, then the exit: graceful means code 0 before the grace runs out. */
async function stopGracefully(p) {
  process.kill(p.child.pid, 'SIGTERM');
  const r = await withTimeout(p.exited, 5000, 'exit after SIGTERM').catch(async (e) => {
    await p.stop(100);
    throw e;
  });
  need(r.code === 0, `exit ${r.code} (${r.signal ?? 'no signal'}) after SIGTERM`);
}

await step("the official client, repeated discovery against the static binding's Node listener from the installed package", async () => {
  writeFileSync(join(CONSUMER, 'server.mjs'), `import http from 'node:http';
import { EntityRouter, codec, mcp } from '${NAME}/pulse';

const router = new EntityRouter('installed').operation('shout', {
  description: 'Upper-cases a word',
  input: codec.object({ word: codec.string({ minLength: 1, maxLength: 32 }) }),
  output: codec.object({ word: codec.string({ maxLength: 32 }) }),
  handler: (_ctx, input) => ({ word: input.word.toUpperCase() }),
});
const binding = mcp({ router, serverInfo: { name: 'installed', version: ${JSON.stringify(PKG.version)} } });
const server = http.createServer(binding.nodeListener());
server.listen(Number(process.env.PORT), process.env.HOST, () => {
  process.stdout.write('installed server listening on http://' + process.env.HOST + ':' + server.address().port + '/mcp\\n');
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
`);
  const { p, url } = await serve(CONSUMER, 'server.mjs');
  try {
    const rounds = 5;
    for (let i = 0; i < rounds; i++) {
      const client = await connect(url);
      try {
        need(client.getNegotiatedProtocolVersion() === '2026-07-28', `round ${i}: negotiated ${client.getNegotiatedProtocolVersion()}`);
        need(isDeepStrictEqual(client.getServerVersion(), { name: 'installed', version: PKG.version }), `round ${i}: serverInfo ${JSON.stringify(client.getServerVersion())}`);
        const { tools } = await client.listTools();
        need(tools.map((t) => t.name).join() === 'shout', `round ${i}: tools ${tools.map((t) => t.name)}`);
        const r = await client.callTool({ name: 'shout', arguments: { word: `pulse${i}` } });
        need(r.isError !== true && r.structuredContent?.word === `PULSE${i}`, `round ${i}: ${JSON.stringify(r).slice(0, 200)}`);
      } finally {
        await client.close();
      }
    }
    await stopGracefully(p);
    return `${rounds} fresh clients: discover, list, call`;
  } finally {
    await p.stop(500);
  }
});

// The context example's five tools, each with valid input.
const CONTEXT_CALLS = {
  starter_plan: { query: 'fastly edge' },
  search_docs: { query: 'deadline', limit: 3 },
  read_section: { id: 'http-413' },
  list_examples: {},
  explain_diagnostic: { id: 'http-413' },
};

await step('the context server, extracted and installed against the tarball, runs from the installed package alone', async () => {
  // The repository's layout, so the server's relative import holds: examples/server.mjs binds
  // edge/context.mjs (the deployed router, statically) and reads edge/corpus.json through it.
  const app = join(SCRATCH, 'context-app');
  for (const f of ['examples/server.mjs', 'edge/context.mjs', 'edge/corpus.json']) {
    mkdirSync(dirname(join(app, f)), { recursive: true });
    cpSync(join(ROOT, f), join(app, f));
  }
  writeFileSync(join(app, 'package.json'), `${JSON.stringify({
    name: 'context-app', version: '1.0.0', private: true,
    scripts: { start: 'node examples/server.mjs' },
    dependencies: { [NAME]: `file:${state.tarball}` },
  }, null, 2)}\n`);
  sh(await npm(['install', '--ignore-scripts', '--offline'], app), 'npm install');
  const { p, url } = await serve(app, 'examples/server.mjs');
  try {
    const client = await connect(url);
    try {
      const { tools } = await client.listTools();
      need(tools.map((t) => t.name).sort().join() === Object.keys(CONTEXT_CALLS).sort().join(), `tools: ${tools.map((t) => t.name)}`);
      for (const [name, args] of Object.entries(CONTEXT_CALLS)) {
        const r = await client.callTool({ name, arguments: args });
        need(r.isError !== true && typeof r.structuredContent === 'object' && r.structuredContent !== null, `${name}: ${JSON.stringify(r).slice(0, 200)}`);
      }
    } finally {
      await client.close();
    }
    await stopGracefully(p);
  } finally {
    await p.stop(500);
  }
  return `5 tools called, corpus ${statSync(join(app, 'edge/corpus.json')).size} B, exit 0 on SIGTERM`;
});

// The package guide's snippets, each run as written against the installed package: one step each.
const SNIPPETS = loadSnippets();
const GUIDE = join(CONSUMER, 'guide');
const MODERN = '2026-07-28';
const LEGACY = '2025-06-18';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'pulse-acceptance', version: '1.0.0' },
};
const listenOn = (port) => [['server.listen(3000, ', `server.listen(${port}, `]];
const REQUIRE_NODE = `const { createMcpNodeHandler } = require(${JSON.stringify(`${NAME}/node`)});\n`;
const READ_ARTIFACTS = `const fs = require('node:fs');
const catalog = JSON.parse(fs.readFileSync('dist/entities-catalog.json', 'utf8'));
const schemas = JSON.parse(fs.readFileSync('dist/schema-json-registry.json', 'utf8'));
`;
const listenLine = (port) => `\nrequire('node:http').createServer(handler).listen(${port}, '127.0.0.1');\n`;

{
  const name = "the guide's snippets: the copies in tools/acceptance/snippets are its text";
  const dir = guideDir(ROOT);
  if (dir === null) process.stdout.write(`skip ${name}: no ../shared/seeds beside the checkout\n`);
  else {
    await step(name, async () => {
      const differ = differingCopies(SNIPPETS, guideText(dir));
      need(differ.length === 0, `not in the guide as copied: ${differ.join(', ')}`);
      return `${Object.keys(SNIPPETS).length} copies`;
    });
  }
}

/**
 * Writes `text` to guide/<file>, runs it there with only PATH, HOME and `env`, waits until 127.0.0.1:port
 * accepts, then calls fn(url, process); the process is stopped afterwards. A server that exits
 * first is reported with the error line it printed.
 */
async function hostFrom(file, text, port, env, fn) {
  writeFileSync(join(GUIDE, file), text);
  const p = start(process.execPath, [file], { cwd: GUIDE, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } });
  try {
    await waitForPort(port, 15_000, p.exited).catch((e) => {
      const lines = p.out.stderr.split('\n');
      throw new Error(`${file}: ${e.message}: ${lines.find((l) => /^\w*Error\b/.test(l)) ?? lines.filter(Boolean).slice(-2).join(' / ')}`);
    });
    return await fn(`http://127.0.0.1:${port}/mcp`, p);
  } finally {
    await p.stop(500);
  }
}

/** One JSON-RPC POST with the JSON/SSE Accept list; the body parsed when there is one. */
async function post(url, body, headers = {}) {
  const r = await withTimeout(
    fetch(url, { method: 'POST', headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }),
    10_000,
    `POST ${url}`,
  );
  const text = await r.text();
  return { status: r.status, headers: r.headers, text, json: text === '' ? undefined : JSON.parse(text) };
}

/** The same modern request from inside a consumer script, to a function taking a Web Request. */
const CHILD_RPC = `const META = ${JSON.stringify(META)};
async function rpc(send, id, method, params, name) {
  const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '${MODERN}', 'mcp-method': method };
  if (name !== undefined) headers['mcp-name'] = name;
  const request = new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } }) });
  const response = await send(request);
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : JSON.parse(text) };
}
`;

/** A discovery through the official client: the pinned revision, this package's version, `capabilities`. */
async function discoverWithClient(url, capabilities, transportOptions) {
  const client = await connect(url, transportOptions);
  try {
    need(client.getNegotiatedProtocolVersion() === MODERN, `negotiated ${client.getNegotiatedProtocolVersion()}`);
    need(client.getServerVersion()?.version === PKG.version, `serverInfo ${JSON.stringify(client.getServerVersion())}`);
    need(isDeepStrictEqual(client.getServerCapabilities(), capabilities), `capabilities ${JSON.stringify(client.getServerCapabilities())}`);
  } finally {
    await client.close();
  }
}

await step('the Node Native host from the installed package serves a Compute module (bin/main.wasm) configured by fastly.toml', async () => {
  // The repository's Native binary, built when missing; copied, so the host reads nothing of the checkout.
  const built = join(ROOT, 'bin', 'main.wasm');
  if (!existsSync(built)) sh(await run(process.execPath, [join(ROOT, 'scripts', 'edge-build.mjs')], { cwd: ROOT, timeoutMs: 1_800_000 }), 'scripts/edge-build.mjs');
  const dir = join(CONSUMER, 'compute');
  mkdirSync(dir, { recursive: true });
  cpSync(built, join(dir, 'main.wasm'));
  writeFileSync(join(dir, 'fastly.toml'), 'manifest_version = 3\nname = "installed-host"\nlanguage = "other"\n\n[local_server.backends.origin]\nurl = "http://127.0.0.1:7681"\n');
  const shipped = join(installed(), HOST_DIR);
  // npm keeps the launcher executable: it answers as Viceroy does.
  const version = sh(await run(join(shipped, 'viceroy'), ['--version'], { cwd: dir, env: { PATH: process.env.PATH, HOME: process.env.HOME }, timeoutMs: 10_000 }), 'the viceroy launcher');
  need(version.stdout.startsWith('pulse-native-host '), `viceroy --version printed ${JSON.stringify(version.stdout)}`);
  const port = await freePort();
  const p = start(process.execPath, [join(shipped, 'host.mjs'), '-C', 'fastly.toml', '--addr', `127.0.0.1:${port}`, 'main.wasm'], { cwd: dir, env: { PATH: process.env.PATH, HOME: process.env.HOME } });
  try {
    await waitForPort(port, 15_000, p.exited).catch((e) => {
      throw new Error(`${e.message}: ${p.out.stderr.trim().split('\n').slice(-2).join(' / ')}`);
    });
    const url = `http://127.0.0.1:${port}/mcp`;
    need(p.out.stdout === `Listening on http://127.0.0.1:${port}\n`, `its start-up line: ${JSON.stringify(p.out.stdout.slice(0, 200))}`);
    const r = await post(url, { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } }, { 'mcp-protocol-version': MODERN, 'mcp-method': 'server/discover' });
    need(r.status === 200 && r.json?.result?.resultType === 'complete' && isDeepStrictEqual(r.json.result.supportedVersions, [MODERN]), `discovery: ${r.status} ${r.text.slice(0, 200)}`);
    const client = await connect(url);
    let tools;
    try {
      tools = (await client.listTools()).tools.map((t) => t.name);
    } finally {
      await client.close();
    }
    need(tools.length > 0, 'no tools listed');
    await stopGracefully(p);
    return `${url}: discovery 200, ${tools.length} tools listed by the official client, exit 0 on SIGTERM`;
  } finally {
    await p.stop(500);
  }
});

mkdirSync(GUIDE, { recursive: true });

await step('guide: CommonJS host (require, createMcpNodeHandler(), listen), discovered by the official client', async () => {
  const port = await freePort();
  return hostFrom('commonjs-host.cjs', `${substitute(SNIPPETS['commonjs-host'], listenOn(port))}\n`, port, {}, async (url) => {
    await discoverWithClient(url, {});
    return `${url}, capabilities {}`;
  });
});

await step("guide: ESM host (import { createMcpNodeHandler } from '@pulse-compute/mcp/node'), discovered by the official client", async () => {
  const port = await freePort();
  // The CommonJS host with its two require lines as imports, the guide's import as written.
  const text = substitute(SNIPPETS['commonjs-host'], [
    ["const http = require('node:http');", "import http from 'node:http';"],
    [`const { createMcpNodeHandler } = require('${NAME}/node');`, `${SNIPPETS['esm-import']};`],
    ...listenOn(port),
  ]);
  return hostFrom('esm-host.mjs', `${text}\n`, port, {}, async (url) => {
    await discoverWithClient(url, {});
    return url;
  });
});

await step("guide: Fetch host (import { createMcpHttpHandler } from '@pulse-compute/mcp'), a Web Request to handler.fetch", async () => {
  const r = await inConsumer('guide/fetch-host.mjs', `${SNIPPETS['fetch-import']};
const handler = createMcpHttpHandler();
${CHILD_RPC}
const discover = await rpc((request) => handler.fetch(request), 1, 'server/discover', {});
process.stdout.write(JSON.stringify(discover));
`);
  const { status, body } = JSON.parse(r.stdout);
  need(status === 200 && body?.result?.resultType === 'complete', `discovery: ${status} ${JSON.stringify(body).slice(0, 200)}`);
  need(isDeepStrictEqual(body.result.supportedVersions, [MODERN]) && isDeepStrictEqual(body.result.capabilities, {}), `discovery result ${JSON.stringify(body.result).slice(0, 200)}`);
  need(body.result._meta?.['io.modelcontextprotocol/serverInfo']?.version === PKG.version, `serverInfo ${JSON.stringify(body.result._meta)}`);
  return '200, resultType complete, capabilities {}';
});

await step('guide: the .mcp.json entry, written with its port, is JSON whose url the official client discovers', async () => {
  const port = await freePort();
  const entry = substitute(SNIPPETS['mcp-json'], [['http://127.0.0.1:3000/mcp', `http://127.0.0.1:${port}/mcp`]]);
  writeFileSync(join(GUIDE, '.mcp.json'), `${entry}\n`);
  const server = JSON.parse(readFileSync(join(GUIDE, '.mcp.json'), 'utf8')).mcpServers?.pulse;
  need(server?.type === 'http' && typeof server.url === 'string', `mcpServers.pulse is ${JSON.stringify(server)}`);
  // The client expands ${VAR} in headers from its environment; here the variable is a made-up token.
  const env = { PULSE_MCP_ACCESS_TOKEN: randomBytes(24).toString('base64url') };
  const headers = Object.fromEntries(
    Object.entries(server.headers).map(([k, v]) => [k, v.replace(/\$\{(\w+)\}/g, (_, n) => {
      need(n in env, `the entry names \${${n}}`);
      return env[n];
    })]),
  );
  // Served by the guide's CommonJS host on that port.
  return hostFrom('mcp-json-host.cjs', `${substitute(SNIPPETS['commonjs-host'], listenOn(port))}\n`, port, {}, async (url) => {
    need(server.url === url, `url ${server.url}, host on ${url}`);
    await discoverWithClient(server.url, {}, { requestInit: { headers } });
    return `${server.url} with its Authorization header`;
  });
});

await step("guide's backend: a router compiled with the installed `pulse-mcp compile`, served with jsonRpc(router) on loopback", async () => {
  for (const f of ['router.mjs', 'backend.mjs']) cpSync(join(ROOT, 'tools/acceptance/fixtures/guide', f), join(GUIDE, f));
  sh(await run('npx', ['--no-install', 'pulse-mcp', 'compile', 'guide/router.mjs', '--out', 'guide/dist'], { cwd: CONSUMER, env: NPM_ENV, timeoutMs: 60_000 }), 'pulse-mcp compile');
  const built = readdirSync(join(GUIDE, 'dist')).sort();
  need(built.includes('entities-catalog.json') && built.includes('schema-json-registry.json'), `compile wrote ${built}`);
  const port = await freePort();
  const p = start(process.execPath, ['backend.mjs'], { cwd: GUIDE, env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port) } });
  state.backend = { p, port };
  await waitForPort(port, 15_000, p.exited);
  const r = await post(`http://127.0.0.1:${port}/`, { jsonrpc: '2.0', id: 1, method: 'system.status' });
  need(r.status === 200 && isDeepStrictEqual(r.json, { jsonrpc: '2.0', id: 1, result: { ok: true } }), `system.status: ${r.status} ${r.text.slice(0, 200)}`);
  return `${built.join(', ')}; backend on 127.0.0.1:${port}`;
});

/** The backend's request lines written while fn runs. */
async function backendLines(fn) {
  need(state.backend, 'no backend');
  const mark = state.backend.p.out.stdout.length;
  await fn();
  // The backend logs before it answers, so its line is in by the time the call returned.
  return state.backend.p.out.stdout.slice(mark).split('\n').filter(Boolean);
}

await step("guide: catalog-backed tools (target 'node-javascript', dist/ artifacts), a tool called through to the backend", async () => {
  need(state.backend, 'no backend');
  const port = await freePort();
  const text = REQUIRE_NODE + substitute(SNIPPETS['catalog-tools'], [['127.0.0.1:4000', `127.0.0.1:${state.backend.port}`]]) + listenLine(port);
  return hostFrom('catalog-host.cjs', text, port, {}, async (url) => {
    const client = await connect(url);
    try {
      need(isDeepStrictEqual(client.getServerCapabilities(), { tools: { listChanged: false } }), `capabilities ${JSON.stringify(client.getServerCapabilities())}`);
      const { tools } = await client.listTools();
      need(tools.map((t) => t.name).sort().join() === 'customer.lookup,system.status', `tools ${tools.map((t) => t.name)}`);
      let r;
      const lines = await backendLines(async () => {
        r = await client.callTool({ name: 'customer.lookup', arguments: { id: 'c-42' } });
      });
      need(r.isError !== true && isDeepStrictEqual(r.structuredContent, { id: 'c-42', name: 'Customer c-42' }), `customer.lookup: ${JSON.stringify(r).slice(0, 200)}`);
      need(isDeepStrictEqual(lines, ['backend: POST / customer.lookup without authorization']), `the backend saw ${JSON.stringify(lines)}`);
    } finally {
      await client.close();
    }
    return 'listed 2 tools; customer.lookup answered by the backend in one request';
  });
});

await step("guide: Codex profile (legacyProtocol: '2025-06-18', tools: backendTools), legacy initialize and a call", async () => {
  need(state.backend, 'no backend');
  const port = await freePort();
  // backendTools is the guide's catalog-backed configuration itself, its `tools` member as a value.
  const backendTools = substitute(SNIPPETS['catalog-tools'], [
    ['const handler = createMcpNodeHandler({\n  tools: {', 'const backendTools = {'],
    ['  },\n});', '};'],
    ['127.0.0.1:4000', `127.0.0.1:${state.backend.port}`],
  ]);
  const text = `${REQUIRE_NODE}${backendTools}\n${SNIPPETS['codex-legacy']}${listenLine(port)}`;
  return hostFrom('codex-host.cjs', text, port, {}, async (url) => {
    const init = await post(url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'codex-acceptance', version: '1' } } });
    need(init.status === 200 && init.json?.id === 0, `initialize: ${init.status} ${init.text.slice(0, 200)}`);
    const { protocolVersion, capabilities, serverInfo } = init.json.result ?? {};
    need(protocolVersion === LEGACY && isDeepStrictEqual(capabilities, { tools: { listChanged: false } }) && serverInfo?.version === PKG.version, `initialize result ${JSON.stringify(init.json.result)}`);
    const headers = { 'mcp-protocol-version': LEGACY };
    const initialized = await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
    need(initialized.status === 202 && initialized.text === '', `notifications/initialized: ${initialized.status} ${initialized.text.slice(0, 100)}`);
    const list = await post(url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers);
    need(list.status === 200 && list.json?.result?.tools?.map((t) => t.name).sort().join() === 'customer.lookup,system.status', `tools/list: ${list.status} ${list.text.slice(0, 200)}`);
    let call;
    const lines = await backendLines(async () => {
      call = await post(url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'system.status', arguments: {} } }, headers);
    });
    need(call.status === 200 && isDeepStrictEqual(call.json, { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: '{"ok":true}' }], structuredContent: { ok: true }, isError: false } }), `tools/call: ${call.status} ${call.text.slice(0, 200)}`);
    need(isDeepStrictEqual(lines, ['backend: POST / system.status without authorization']), `the backend saw ${JSON.stringify(lines)}`);
    return 'initialize 2025-06-18, initialized 202, tools/list, tools/call in the legacy envelope';
  });
});

await step('guide: OAuth resource server (its .example URLs as written), 401 with the Bearer challenge for an unauthenticated POST', async () => {
  const port = await freePort();
  // The secrets the guide reads from the environment: made-up values, never sent anywhere here.
  const secret = () => randomBytes(24).toString('base64url');
  const env = { PULSE_MCP_BACKEND_TOKEN: secret(), PULSE_MCP_INTROSPECTION_CLIENT_ID: 'acceptance-rs', PULSE_MCP_INTROSPECTION_CLIENT_SECRET: secret() };
  const text = REQUIRE_NODE + READ_ARTIFACTS + SNIPPETS.oauth + listenLine(port);
  return hostFrom('oauth-host.cjs', text, port, env, async (url) => {
    const metadataUrl = 'https://mcp.example/.well-known/oauth-protected-resource/mcp';
    for (const [id, method, params, name] of [[1, 'server/discover', {}], [2, 'tools/call', { name: 'system.status', arguments: {} }, 'system.status']]) {
      const r = await post(url, { jsonrpc: '2.0', id, method, params: { ...params, _meta: META } }, { 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) });
      const challenge = r.headers.get('www-authenticate');
      need(r.status === 401 && challenge === `Bearer resource_metadata="${metadataUrl}", scope="mcp:access"`, `${method} without a token: ${r.status}, WWW-Authenticate ${JSON.stringify(challenge)}`);
    }
    const m = await withTimeout(fetch(`http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`), 10_000, 'GET metadata');
    const doc = await m.json();
    need(m.status === 200 && doc.resource === 'https://mcp.example/mcp' && isDeepStrictEqual(doc.authorization_servers, ['https://issuer.example']) && isDeepStrictEqual(doc.scopes_supported, ['mcp:access']), `metadata: ${m.status} ${JSON.stringify(doc).slice(0, 200)}`);
    return 'discover and tools/call: 401 Bearer resource_metadata + scope; metadata served';
  });
});

await step("guide: static binding (EntityRouter, jsonRpc, mcp from '/pulse'; handle returns server.handle(ctx)), discovery and a call", async () => {
  // The guide writes this import as prose; here it is the statement it names.
  const imports = substitute(SNIPPETS['static-import'], [['Import {', 'import {'], [`from ${NAME}/pulse`, `from '${NAME}/pulse'`]]);
  writeFileSync(join(GUIDE, 'docs.mjs'), `${imports};
import { codec } from '${NAME}/pulse';

const tools = new EntityRouter('docs').operation('docs_lookup', {
  description: 'Returns the title of a page.',
  input: codec.object({ page: codec.string({ minLength: 1, maxLength: 64 }) }),
  output: codec.object({ page: codec.string({ maxLength: 64 }), title: codec.string({ maxLength: 128 }) }),
  handler: (_ctx, input) => ({ page: input.page, title: 'About ' + input.page }),
});

${SNIPPETS['static-server']};

export default {
  handle(ctx) {
    return ${SNIPPETS['static-handle']};
  },
};
`);
  const r = await inConsumer('guide/static-drive.mjs', `import app from './docs.mjs';
${CHILD_RPC}
const send = (request) => app.handle({ request });
const discover = await rpc(send, 1, 'server/discover', {});
const call = await rpc(send, 2, 'tools/call', { name: 'docs_lookup', arguments: { page: 'limits' } }, 'docs_lookup');
process.stdout.write(JSON.stringify({ discover, call }));
`);
  const { discover, call } = JSON.parse(r.stdout);
  need(discover.status === 200 && discover.body?.result?.resultType === 'complete', `discovery: ${discover.status} ${JSON.stringify(discover.body).slice(0, 200)}`);
  need(isDeepStrictEqual(discover.body.result.capabilities, { tools: { listChanged: false } }), `capabilities ${JSON.stringify(discover.body.result.capabilities)}`);
  need(isDeepStrictEqual(discover.body.result._meta?.['io.modelcontextprotocol/serverInfo'], { name: 'docs', version: '1' }), `serverInfo ${JSON.stringify(discover.body.result._meta)}`);
  need(call.status === 200 && call.body?.result?.isError !== true && isDeepStrictEqual(call.body?.result?.structuredContent, { page: 'limits', title: 'About limits' }), `docs_lookup: ${call.status} ${JSON.stringify(call.body).slice(0, 200)}`);
  return 'serverInfo docs/1, docs_lookup answered';
});

if (state.backend) await state.backend.p.stop(500);

await edgeProject({ root: ROOT, scratch: SCRATCH, tarball: state.tarball, npmEnv: NPM_ENV, step, need, sh, connect });

if (process.argv.includes('--keep')) process.stdout.write(`scratch kept: ${SCRATCH}\n`);
else rmSync(SCRATCH, { recursive: true, force: true });
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exitCode = failed === 0 ? 0 : 1;
