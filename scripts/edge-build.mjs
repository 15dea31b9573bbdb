#!/usr/bin/env node
// npm run edge:build — the Fastly Native package of the edge service:
//   1. engine configuration from edge/context.mjs, read without running it: `pulse-mcp build
//      edge/context.mjs --target fastly-native` reads the router and its mcp() binding, the
//      configuration is the binding's (POST /mcp, every Origin refused, the static ceilings lowered by
//      its limits) with the manifest; routers with JavaScript handlers fail closed here (edgeService
//      in ./edge-lib.mjs also takes a module of host options with catalog-backed tools),
//   2. cargo (Debian rustc 1.63) for wasm32-wasi with that configuration embedded (native/edge),
//   3. Wizer (the engine pre-built into the snapshot), wasm-opt -Oz → bin/main.wasm,
//   4. fastly compute pack → pkg/<name>.tar.gz, fastly compute validate,
//   5. our own check: main.wasm is a valid module importing only fastly_* and wasi_snapshot_preview1,
//   6. the legacy-enabled variant bin/main-legacy.wasm (same binding, legacyProtocol '2025-06-18'), served
//      by `LEGACY_PROTOCOL=2025-06-18 npm run edge:serve` locally; it is never packed or deployed.
// Flags: --from-fastly (called by `fastly compute build` through [scripts] build: stop after bin/main.wasm,
// the CLI packs), --config <file> (embed this configuration instead of edge/context.mjs's),
// --module <file> (another edge module), --out <wasm> (write the binary elsewhere; implies no
// packaging). The variant is built only by a plain `npm run edge:build` (edge/context.mjs, default output).
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROOT, FASTLY, WORK, EdgeError, run, edgeService, nativeBuildKey } from './edge-lib.mjs';
import { checkImports } from './lib/compute-module.mjs';
import { readToml } from './lib/toml.mjs';

const NATIVE = join(ROOT, 'native');
const TARGET_DIR = join(NATIVE, 'target', 'edge');
// Its own target directory: the configuration is a build input and the release profile links with
// full LTO, so sharing one directory would relink both binaries on every build.
const LEGACY_TARGET_DIR = join(NATIVE, 'target', 'edge-legacy');
export const LEGACY_PROTOCOL = '2025-06-18';
/** The deployed service. */
export const EDGE_MODULE = join(ROOT, 'edge', 'context.mjs');
const TRIPLE = 'wasm32-wasi';

function arg(name) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

/** cargo build of pulse-edge with `configPath` embedded; returns the raw wasm path. */
export function cargoEdge(configPath, targetDir = TARGET_DIR) {
  const flags = ['-C', 'target-feature=+simd128', '-C', 'link-arg=-zstack-size=65536', `--remap-path-prefix=${NATIVE}=/pulse`, `--remap-path-prefix=${targetDir}=/target`];
  // opt-level z: measured on the example app, main.wasm 687,548 → 631,104 bytes (code 311 → 254 KB)
  // for 15.6 → 18.2 µs of native core work on a 32 KiB request; every request instantiates the module.
  const env = { ...process.env, RUSTC: '/usr/bin/rustc', CARGO_TARGET_DIR: targetDir, CARGO_ENCODED_RUSTFLAGS: flags.join('\x1f'), CARGO_PROFILE_RELEASE_OPT_LEVEL: 'z', PULSE_EDGE_CONFIG: configPath };
  delete env.RUSTFLAGS;
  delete env.RUSTC_WRAPPER;
  run('/usr/bin/cargo', ['build', '--release', '--locked', '--target', TRIPLE, '-p', 'pulse-edge'], { cwd: NATIVE, env });
  const out = join(targetDir, TRIPLE, 'release', 'pulse-edge.wasm');
  if (!existsSync(out)) throw new EdgeError('NO_OUTPUT', 'cargo produced no pulse-edge.wasm');
  return out;
}

/**
 * Wizer runs the binary's `wizer.initialize` (the engine built from the embedded configuration) and
 * snapshots the result, so no request parses the manifest; then wasm-opt -Oz.
 */
export function preinitialize(raw, out) {
  // WASI is allowed only for libc start-up (an empty environment, no directories): nothing host-specific is captured.
  run(join(ROOT, 'node_modules', '.bin', 'wizer'), ['--allow-wasi', '--inherit-env', 'false', '--wasm-simd', 'true', '-o', out, raw]);
}

export function optimize(raw, out) {
  const snap = join(WORK, `wizer-${process.pid}.wasm`);
  preinitialize(raw, snap);
  const wasmOpt = existsSync('/usr/bin/wasm-opt') ? '/usr/bin/wasm-opt' : join(ROOT, 'node_modules', '.bin', 'wasm-opt');
  try {
    run(wasmOpt, ['-Oz', '--enable-simd', '--strip-debug', '--strip-producers', snap, '-o', out]);
  } finally {
    rmSync(snap, { force: true });
  }
}

/** Validates what `fastly compute validate` does not: a real module with only Compute imports. */
export function checkWasm(path) {
  const bytes = readFileSync(path);
  if (!WebAssembly.validate(bytes)) throw new EdgeError('INVALID_WASM', `${path} is not a valid WebAssembly module`);
  const module = new WebAssembly.Module(bytes);
  checkImports(module);
  const mods = [...new Set(WebAssembly.Module.imports(module).map((i) => i.module))].sort();
  return { bytes: bytes.length, importModules: mods, imports: WebAssembly.Module.imports(module).length };
}

/** Backend names the configuration's manifest sends to (every `{"kind":"backend","backend":…}`). */
export function backendNames(configJson) {
  const names = new Set();
  const walk = (v) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      if (v.kind === 'backend' && typeof v.backend === 'string') names.add(v.backend);
      Object.values(v).forEach(walk);
    }
  };
  walk(JSON.parse(configJson));
  return [...names].sort();
}

/** Fails closed when the router calls a backend fastly.toml does not declare. */
function checkBackendsDeclared(configJson) {
  const m = readToml(join(ROOT, 'fastly.toml'));
  const declared = new Set([...Object.keys(m.setup?.backends ?? {}), ...Object.keys(m.local_server?.backends ?? {})]);
  const missing = backendNames(configJson).filter((n) => !declared.has(n));
  if (missing.length) throw new EdgeError('BACKEND_UNDECLARED', `the router calls backends fastly.toml does not declare: ${missing.join(', ')} (add [setup.backends.<name>] for publish and [local_server.backends.<name>] to serve locally)`);
}

function manifestName() {
  const m = /^name\s*=\s*"([^"]+)"/m.exec(readFileSync(join(ROOT, 'fastly.toml'), 'utf8'));
  if (!m) throw new EdgeError('MANIFEST', 'fastly.toml has no name');
  return m[1];
}

/** Builds one Native binary for a configuration JSON text; used by the diff runner too. */
export function buildNative(configJson, outWasm, targetDir = TARGET_DIR) {
  mkdirSync(WORK, { recursive: true });
  const cfgPath = join(WORK, `config-${Buffer.from(targetDir).toString('hex').slice(-16)}.json`);
  if (!existsSync(cfgPath) || readFileSync(cfgPath, 'utf8') !== configJson) writeFileSync(cfgPath, configJson);
  const raw = cargoEdge(cfgPath, targetDir);
  mkdirSync(resolve(outWasm, '..'), { recursive: true });
  optimize(raw, outWasm);
  return checkWasm(outWasm);
}

async function main() {
  const t0 = performance.now();
  // A fresh machine has no Debian rustc for wasm32 yet: the project's own set-up installs it
  // (quiet and instant when present).
  run('sh', [join(ROOT, 'scripts', 'setup.sh')], { stdio: ['ignore', 'ignore', 'inherit'] });
  const fromFastly = process.argv.includes('--from-fastly');
  const configFile = arg('--config');
  const out = resolve(arg('--out') ?? join(ROOT, 'bin', 'main.wasm'));
  // bin/main.wasm is the deployed service's binary only.
  if (arg('--module') && !arg('--out')) throw new EdgeError('USAGE', '--module builds another edge module: give its binary a place with --out <wasm>');
  const service = configFile ? undefined : await edgeService(resolve(arg('--module') ?? EDGE_MODULE));
  const configJson = service ? service.config() : readFileSync(resolve(configFile), 'utf8');
  checkBackendsDeclared(configJson);
  const info = buildNative(configJson, out);
  // Lets the diff runner tell whether bin/main.wasm embeds the current configuration.
  if (out === join(ROOT, 'bin', 'main.wasm')) writeFileSync(join(WORK, 'main.build-key'), nativeBuildKey(configJson) + '\n');
  const line = (s) => process.stdout.write(`edge:build: ${s}\n`);
  line(`${out.replace(ROOT + '/', '')} ${info.bytes} bytes, imports ${info.importModules.join(', ')}`);
  if (fromFastly || arg('--out')) return;
  const name = manifestName();
  run(FASTLY, ['compute', 'pack', '--wasm-binary', out, '--non-interactive'], { cwd: ROOT });
  const pkg = join(ROOT, 'pkg', `${name}.tar.gz`);
  if (!existsSync(pkg)) throw new EdgeError('NO_PACKAGE', `fastly compute pack wrote no pkg/${name}.tar.gz`);
  // The CLI's staging copies (pkg/package/, pkg/package.tar.gz): pkg/ keeps the packages only.
  rmSync(join(ROOT, 'pkg', 'package'), { recursive: true, force: true });
  rmSync(join(ROOT, 'pkg', 'package.tar.gz'), { force: true });
  run(FASTLY, ['compute', 'validate', '-p', pkg, '--non-interactive'], { cwd: ROOT });
  const listing = run('tar', ['-tzf', pkg]).split('\n').filter(Boolean);
  for (const want of [`${name}/fastly.toml`, `${name}/bin/main.wasm`]) if (!listing.includes(want)) throw new EdgeError('PACKAGE_LAYOUT', `package lacks ${want}`);
  const packed = join(WORK, 'packed-main.wasm');
  writeFileSync(packed, run('tar', ['-xzOf', pkg, `${name}/bin/main.wasm`], { encoding: 'buffer' }));
  checkWasm(packed);
  line(`pkg/${name}.tar.gz ${statSync(pkg).size} bytes, validated; packed main.wasm imports only fastly_* and wasi_snapshot_preview1`);
  if (service) {
    const legacyJson = service.config({ legacyProtocol: LEGACY_PROTOCOL });
    const legacyOut = join(ROOT, 'bin', 'main-legacy.wasm');
    const legacy = buildNative(legacyJson, legacyOut, LEGACY_TARGET_DIR);
    // Lets `npm run qualify` tell whether the variant embeds the current configuration and sources.
    writeFileSync(join(WORK, 'main-legacy.build-key'), nativeBuildKey(legacyJson) + '\n');
    line(`bin/main-legacy.wasm ${legacy.bytes} bytes (legacyProtocol ${LEGACY_PROTOCOL}; local edge:serve only, not packed)`);
  }
  line(`done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e) => {
    process.stderr.write(`edge:build: ${e.code ?? 'ERROR'}: ${e.code ? e.message : String(e && e.stack)}\n`);
    process.exit(1);
  });
}
