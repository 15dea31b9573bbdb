#!/usr/bin/env node
// npm run edge:build — the Fastly Native package of the deployed service, built as a package user
// builds theirs:
//   1. `pulse-mcp build edge/context.mjs --target fastly-native --wasm bin/main.wasm --fastly-toml
//      fastly.toml`, the built package's own command: the declarations are read without running the
//      module, the names the service uses are checked against fastly.toml, and the package's prebuilt
//      Native service (wasm/pulse_native_service.wasm) is configured and pre-initialised by Wizer;
//   2. fastly compute pack → pkg/<name>.tar.gz, fastly compute validate, and our own check of the
//      packed main.wasm (a valid module importing only fastly_* and wasi_snapshot_preview1);
//   3. the legacy-enabled variant bin/main-legacy.wasm (same binding, legacyProtocol '2025-06-18'),
//      served by `LEGACY_PROTOCOL=2025-06-18 npm run edge:serve` locally; it is never packed or deployed.
// Flags: --from-fastly (called by `fastly compute build` through [scripts] build: stop after
// bin/main.wasm, the CLI packs), --module <file> --out <wasm> (another edge module, its binary
// elsewhere; no packaging).
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ROOT, FASTLY, WORK, EdgeError, run, configFor, nativeBinary, packageCli } from './edge-lib.mjs';
import { checkImports } from '../src/cli/compute-host/compute-module.mjs';

export const LEGACY_PROTOCOL = '2025-06-18';
/** The deployed service. */
export const EDGE_MODULE = join(ROOT, 'edge', 'context.mjs');

function arg(name) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

/** Validates what `fastly compute validate` does not: a real module with only Compute imports. */
export function checkWasm(path) {
  const bytes = readFileSync(path);
  if (!WebAssembly.validate(bytes)) throw new EdgeError('INVALID_WASM', `${path} is not a valid WebAssembly module`);
  const module = new WebAssembly.Module(bytes);
  checkImports(module);
  return { bytes: bytes.length, importModules: [...new Set(WebAssembly.Module.imports(module).map((i) => i.module))].sort() };
}

function manifestName() {
  const m = /^name\s*=\s*"([^"]+)"/m.exec(readFileSync(join(ROOT, 'fastly.toml'), 'utf8'));
  if (!m) throw new EdgeError('MANIFEST', 'fastly.toml has no name');
  return m[1];
}

async function main() {
  const t0 = performance.now();
  const fromFastly = process.argv.includes('--from-fastly');
  const module = resolve(arg('--module') ?? EDGE_MODULE);
  const out = resolve(arg('--out') ?? join(ROOT, 'bin', 'main.wasm'));
  // bin/main.wasm is the deployed service's binary only.
  if (arg('--module') && !arg('--out')) throw new EdgeError('USAGE', '--module builds another edge module: give its binary a place with --out <wasm>');
  packageCli(); // the package, built when its sources changed
  const cli = join(ROOT, 'dist', 'cjs', 'cli.js');
  process.stdout.write(run(process.execPath, [cli, 'build', relative(ROOT, module), '--target', 'fastly-native', '--wasm', relative(ROOT, out), '--fastly-toml', 'fastly.toml'], { cwd: ROOT }));
  if (fromFastly || arg('--out')) return;
  const line = (s) => process.stdout.write(`edge:build: ${s}\n`);
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
  mkdirSync(WORK, { recursive: true });
  const packed = join(WORK, 'packed-main.wasm');
  writeFileSync(packed, run('tar', ['-xzOf', pkg, `${name}/bin/main.wasm`], { encoding: 'buffer' }));
  checkWasm(packed);
  line(`pkg/${name}.tar.gz ${statSync(pkg).size} bytes, validated; packed main.wasm imports only fastly_* and wasi_snapshot_preview1`);
  const legacy = await nativeBinary(await configFor(module, { overrides: { legacyProtocol: LEGACY_PROTOCOL } }), join(ROOT, 'bin', 'main-legacy.wasm'));
  line(`bin/main-legacy.wasm ${legacy.bytes} bytes (legacyProtocol ${LEGACY_PROTOCOL}; local edge:serve only, not packed)`);
  line(`done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e) => {
    process.stderr.write(`edge:build: ${e.code ?? 'ERROR'}: ${e.code ? e.message : String(e && e.stack)}\n`);
    process.exit(1);
  });
}
