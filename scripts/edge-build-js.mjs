#!/usr/bin/env node
// npm run edge:build:js — the optional Fastly JavaScript package: esbuild bundle of edge/fastly-js.ts
// → js-compute-runtime (@fastly/js-compute 3.46) → bin/js/main.wasm → fastly compute pack with
// edge/js/fastly.toml → pkg/pulse-mcp-edge-js.tar.gz → fastly compute validate → import check.
// --from-fastly stops after bin/js/main.wasm (the Fastly CLI packs).
import { copyFileSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, FASTLY, WORK, EdgeError, run, bundleJsEntry } from './edge-lib.mjs';
import { checkWasm } from './edge-build.mjs';
import { writeCoreGlue } from './core-glue.mjs';

async function main() {
  const t0 = performance.now();
  const dir = join(WORK, 'js');
  mkdirSync(dir, { recursive: true });
  const bundle = join(dir, 'index.js');
  // The bundle takes the wasm2js core and the defaults from the glue of the committed core.
  writeCoreGlue();
  const key = await bundleJsEntry(bundle);
  const out = join(ROOT, 'bin', 'js', 'main.wasm');
  const tmp = join(dir, 'main.wasm');
  rmSync(tmp, { force: true });
  // js-compute leaves an empty file behind when it fails: only a checked module reaches bin/js.
  run(join(ROOT, 'node_modules', '.bin', 'js-compute-runtime'), [bundle, tmp], { cwd: ROOT });
  const info = checkWasm(tmp);
  mkdirSync(join(ROOT, 'bin', 'js'), { recursive: true });
  copyFileSync(tmp, out);
  // Lets the diff runner tell whether bin/js/main.wasm is built from the current sources.
  writeFileSync(join(WORK, 'js.build-key'), key + '\n');
  process.stdout.write(`edge:build:js: bin/js/main.wasm ${info.bytes} bytes, imports ${info.importModules.length} modules (fastly_* and wasi_snapshot_preview1 only)\n`);
  if (process.argv.includes('--from-fastly')) return;
  const packDir = join(dir, 'pack');
  rmSync(packDir, { recursive: true, force: true });
  mkdirSync(packDir, { recursive: true });
  copyFileSync(join(ROOT, 'edge', 'js', 'fastly.toml'), join(packDir, 'fastly.toml'));
  run(FASTLY, ['compute', 'pack', '--wasm-binary', out, '--non-interactive'], { cwd: packDir });
  const name = 'pulse-mcp-edge-js';
  const built = join(packDir, 'pkg', `${name}.tar.gz`);
  if (!existsSync(built)) throw new EdgeError('NO_PACKAGE', `fastly compute pack wrote no ${name}.tar.gz`);
  mkdirSync(join(ROOT, 'pkg'), { recursive: true });
  const pkg = join(ROOT, 'pkg', `${name}.tar.gz`);
  copyFileSync(built, pkg);
  run(FASTLY, ['compute', 'validate', '-p', pkg, '--non-interactive'], { cwd: packDir });
  process.stdout.write(`edge:build:js: pkg/${name}.tar.gz ${statSync(pkg).size} bytes, validated; done in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
}

main().catch((e) => {
  process.stderr.write(`edge:build:js: ${e.code ?? 'ERROR'}: ${e.code ? e.message : String(e && e.stack)}\n`);
  process.exit(1);
});
