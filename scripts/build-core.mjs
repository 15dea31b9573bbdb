#!/usr/bin/env node
// Builds the Rust core for the JavaScript hosts and writes its committed artifacts:
//   wasm/pulse_core.wasm            SIMD and bulk-memory build for speed: opt-level 3, wasm-opt -O3
//                                   (one-caller inlining bounded, for the first call's compile time)
//                                   (Node, Deno, Bun, workerd)
//   wasm/pulse_core.wasm2js.js      wasm2js of the MVP build for size (opt-level s, wasm-opt -Oz), an
//                                   ES module exporting a factory
//                                   (runtimes without WebAssembly, e.g. Fastly's JavaScript runtime)
//   wasm/pulse_native_service.wasm  the Fastly Compute Native service (native/edge: the core behind raw
//                                   hostcalls) for wasm32-wasi, without a configuration: `pulse-mcp build
//                                   --wasm` configures a copy with Wizer (src/cli/native-service.ts), so
//                                   package users build Compute binaries without Rust. opt-level z,
//                                   simd128, a 64 KiB stack, its static data on one host page,
//                                   wasm-opt -Oz; `wizer.initialize` kept
//   wasm/manifest.json              sizes and sha256 of each
// These are the only committed forms of the core. The glue the TypeScript sources import is derived
// from them (scripts/core-glue.mjs, gitignored), refreshed here after a build.
// Output is byte-identical across clean builds with the Debian toolchain (scripts/setup.sh).
//   --check  rebuild into a temporary directory and exit 1 if the committed artifacts differ.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCoreGlue } from './core-glue.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const NATIVE = join(ROOT, 'native');
const CARGO = '/usr/bin/cargo';
const RUSTC = '/usr/bin/rustc';
// Debian's binaryen by absolute path: npm's `binaryen` (a dev dependency's dependency) puts another
// wasm-opt/wasm2js version first on PATH under `npm run`/vitest, which changes the output bytes.
const WASM_OPT = '/usr/bin/wasm-opt';
const WASM2JS = '/usr/bin/wasm2js';
const TARGET = 'wasm32-unknown-unknown';

/** Committed artifact paths, relative to the repository root. */
const OUTPUTS = {
  wasm: 'wasm/pulse_core.wasm',
  wasm2js: 'wasm/pulse_core.wasm2js.js',
  nativeService: 'wasm/pulse_native_service.wasm',
  manifest: 'wasm/manifest.json',
};

function fail(message) {
  process.stderr.write(`build-core: ${message}\n`);
  process.exit(1);
}

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', ...options });
  if (result.error) fail(`cannot run ${cmd}: ${result.error.code ?? result.error.message} (run scripts/setup.sh)`);
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr);
    fail(`${cmd} ${args[0]} exited with ${result.status}`);
  }
  return result.stdout;
}

function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * One cargo build of pulse-core; separate target dirs keep both variants incremental. The wasm
 * variant is built for speed: measured on a validated tools/call in the Node host, opt-level 3 with
 * bulk memory and wasm-opt -O3 take 6.4 µs of core work where opt-level s and -Oz take 9.0, for 68
 * KB more module. The wasm2js variant, over twice the size as JavaScript, stays built for size.
 */
function cargoBuild(targetDir, simd) {
  // Path prefixes are remapped so the checkout and target locations never reach the binary.
  const flags = [
    '-C', 'link-arg=-zstack-size=65536',
    `--remap-path-prefix=${NATIVE}=/pulse`,
    `--remap-path-prefix=${targetDir}=/target`,
  ];
  if (simd) flags.push('-C', 'target-feature=+simd128,+bulk-memory');
  const env = { ...process.env, RUSTC, CARGO_TARGET_DIR: targetDir, CARGO_ENCODED_RUSTFLAGS: flags.join('\x1f') };
  if (simd) env.CARGO_PROFILE_RELEASE_OPT_LEVEL = '3';
  else delete env.CARGO_PROFILE_RELEASE_OPT_LEVEL;
  delete env.RUSTFLAGS;
  delete env.RUSTC_WRAPPER;
  run(CARGO, ['build', '--release', '--locked', '--target', TARGET, '-p', 'pulse-core'], { cwd: NATIVE, env });
  const out = join(targetDir, TARGET, 'release', 'pulse_core.wasm');
  if (!existsSync(out)) fail(`cargo produced no ${out}`);
  return out;
}

/** The host's page: the unit of a copy-on-write fault when an instance first touches the snapshot. */
const HOST_PAGE = 4096;
/** Links it takes to place the static data: each measures where `.data` falls and pads what is left. */
const MAX_LINKS = 4;

/** One link of the Native service with `pad` bytes of `.rodata` padding; returns the wasm and the linker map. */
function linkService(targetDir, pad) {
  const map = join(targetDir, 'pulse-edge.map');
  const flags = [
    '-C', 'target-feature=+simd128',
    '-C', 'link-arg=-zstack-size=65536',
    '-C', `link-arg=--Map=${map}`,
    `--remap-path-prefix=${NATIVE}=/pulse`,
    `--remap-path-prefix=${targetDir}=/target`,
  ];
  const env = {
    ...process.env,
    RUSTC,
    CARGO_TARGET_DIR: targetDir,
    CARGO_ENCODED_RUSTFLAGS: flags.join('\x1f'),
    CARGO_PROFILE_RELEASE_OPT_LEVEL: 'z',
    PULSE_EDGE_RODATA_PAD: String(pad),
  };
  delete env.RUSTFLAGS;
  delete env.RUSTC_WRAPPER;
  run(CARGO, ['build', '--release', '--locked', '--target', 'wasm32-wasi', '-p', 'pulse-edge'], { cwd: NATIVE, env });
  const out = join(targetDir, 'wasm32-wasi', 'release', 'pulse-edge.wasm');
  if (!existsSync(out)) fail(`cargo produced no ${out}`);
  return { wasm: out, map: readFileSync(map, 'utf8') };
}

/** Where the linker put `.data` and where `.bss` ends, from its map. */
function staticData(map) {
  const section = (name) => {
    const m = new RegExp(`^\\s*([0-9a-f]+)\\s+[0-9a-f]+\\s+([0-9a-f]+) \\.${name}$`, 'm').exec(map);
    if (!m) fail(`the linker map of the Native service has no .${name}`);
    return { start: parseInt(m[1], 16), end: parseInt(m[1], 16) + parseInt(m[2], 16) };
  };
  return { start: section('data').start, end: section('bss').end };
}

/**
 * The Native service (native/edge) for wasm32-wasi. opt-level z: measured on the example app, the
 * configured binary's code fell from 311 to 254 KB for 15.6 → 18.2 µs of core work on a 32 KiB
 * request, and Compute instantiates the module for every request. Its static data starts on a host
 * page (native/edge/src/layout.rs): measured on Viceroy, a discover request takes 12 page faults
 * with it on one page and 13 across two, about a tenth of the throughput at 32 connections. Each
 * link measures where `.data` falls; the `.rodata` padding grows by what is left to the next page.
 */
function cargoService(targetDir) {
  let pad = 0;
  for (let link = 1; link <= MAX_LINKS; link++) {
    const built = linkService(targetDir, pad);
    const placed = staticData(built.map);
    const short = (HOST_PAGE - (placed.start % HOST_PAGE)) % HOST_PAGE;
    if (short === 0) {
      if (placed.end - placed.start > HOST_PAGE) fail(`the Native service's static data is ${placed.end - placed.start} bytes, more than one ${HOST_PAGE}-byte page`);
      return built.wasm;
    }
    pad = (pad + short) % HOST_PAGE;
  }
  return fail(`the Native service's static data did not start on a page after ${MAX_LINKS} links`);
}

/**
 * wasm2js emits an ES module that instantiates once at import time and keeps its views in module
 * globals. Wrap the whole text in a factory so every handler gets its own instance and memory.
 */
function wasm2jsFactory(text) {
  if (/^\s*import\b/m.test(text)) fail('the core imports host functions; wasm2js output would need them');
  const lines = text.split('\n');
  const body = [];
  for (const line of lines) {
    if (/^export var \w+ = retasmFunc\.\w+;$/.test(line)) continue;
    if (/^export\b/.test(line)) fail(`unexpected wasm2js export line: ${line.slice(0, 80)}`);
    body.push(line);
  }
  if (!body.some((l) => l.startsWith('var retasmFunc = asmFunc('))) fail('unexpected wasm2js output shape');
  // Indentation is over half of wasm2js's text; the output has no multi-line string literals.
  const code = body.map((l) => l.trimStart()).filter((l) => l.length > 0).join('\n');
  return (
    '// Generated by scripts/build-core.mjs from the non-SIMD build of native/core; do not edit.\n' +
    '// wasm2js (binaryen) output wrapped in a factory: one independent instance per call.\n' +
    `export function createPulseCore() {\n${code}\nreturn retasmFunc;\n}\n`
  );
}

function generate(outDir) {
  const work = join(outDir, 'work');
  mkdirSync(work, { recursive: true });
  const simdRaw = cargoBuild(join(outDir, 'target-simd'), true);
  const mvpRaw = cargoBuild(join(outDir, 'target-mvp'), false);
  const wasmPath = join(work, 'pulse_core.wasm');
  const mvpPath = join(work, 'pulse_core.mvp.wasm');
  const strip = ['--strip-debug', '--strip-producers'];
  // A function with one caller is inlined only up to 500 bytes: unbounded, -O3 grew Config::parse to
  // 75 KB and Request::step to 42 KB, which V8 compiles whole on their first call (a process's first
  // engine and request); bounded, no function passes 16 KB, a process's first engine and first
  // request take 4-7 ms less CPU (Node 20 to 24), and steady throughput is unchanged.
  run(WASM_OPT, ['-O3', '--one-caller-inline-max-function-size=500', '--enable-simd', '--enable-bulk-memory', ...strip, simdRaw, '-o', wasmPath]);
  run(WASM_OPT, ['-Oz', ...strip, mvpRaw, '-o', mvpPath]);
  const jsRaw = join(work, 'pulse_core.raw.js');
  run(WASM2JS, ['-O2', mvpPath, '-o', jsRaw]);
  const servicePath = join(work, 'pulse_native_service.wasm');
  run(WASM_OPT, ['-Oz', '--enable-simd', ...strip, cargoService(join(outDir, 'target-service')), '-o', servicePath]);

  const wasm = readFileSync(wasmPath);
  const wasm2js = Buffer.from(wasm2jsFactory(readFileSync(jsRaw, 'utf8')), 'utf8');
  const wasmSha = sha256(wasm);
  const wasm2jsSha = sha256(wasm2js);
  const service = readFileSync(servicePath);
  const versionOf = (cmd, args) => run(cmd, args).trim().split('\n')[0];
  const manifest = {
    wasm: { file: 'pulse_core.wasm', bytes: wasm.length, sha256: wasmSha, features: ['simd128', 'bulk-memory'] },
    wasm2js: { file: 'pulse_core.wasm2js.js', bytes: wasm2js.length, sha256: wasm2jsSha, features: [] },
    nativeService: { file: 'pulse_native_service.wasm', bytes: service.length, sha256: sha256(service), features: ['simd128'], target: 'wasm32-wasi' },
    toolchain: { rustc: versionOf(RUSTC, ['--version']), binaryen: versionOf(WASM_OPT, ['--version']) },
  };
  return {
    [OUTPUTS.wasm]: wasm,
    [OUTPUTS.wasm2js]: wasm2js,
    [OUTPUTS.nativeService]: service,
    [OUTPUTS.manifest]: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`),
  };
}

const check = process.argv.includes('--check');
if (check) {
  const dir = mkdtempSync(join(tmpdir(), 'pulse-core-check-'));
  try {
    const fresh = generate(dir);
    const differ = Object.entries(fresh).filter(([path, bytes]) => {
      const committed = join(ROOT, path);
      return !existsSync(committed) || !readFileSync(committed).equals(bytes);
    });
    if (differ.length > 0) {
      process.stderr.write(`build-core --check: stale or non-reproducible artifacts:\n${differ.map(([p]) => `  ${p}\n`).join('')}`);
      process.exit(1);
    }
    process.stdout.write('build-core --check: committed artifacts match a fresh build\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
} else {
  const fresh = generate(join(NATIVE, 'target', 'js'));
  for (const [path, bytes] of Object.entries(fresh)) {
    mkdirSync(dirname(join(ROOT, path)), { recursive: true });
    writeFileSync(join(ROOT, path), bytes);
  }
  writeCoreGlue();
  const m = JSON.parse(fresh[OUTPUTS.manifest].toString());
  process.stdout.write(`build-core: wasm ${m.wasm.bytes} B (${m.wasm.sha256.slice(0, 12)}), wasm2js ${m.wasm2js.bytes} B, Native service ${m.nativeService.bytes} B\n`);
}
