#!/usr/bin/env node
// npm run edge:build:js — the optional Fastly JavaScript package of the deployed service, built as a
// project builds one: `pulse-mcp build edge/context.mjs --target fastly-javascript` of the built
// package (dist/, rebuilt first when the sources are newer; js-compute bundles it through the
// package's own name and exports, as installed) → bin/js/main.wasm → fastly compute pack with
// edge/js/fastly.toml → pkg/pulse-mcp-edge-js.tar.gz → fastly compute validate.
// --from-fastly stops after bin/js/main.wasm (the Fastly CLI packs).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, FASTLY, WORK, EdgeError, run, bundleJsEntry } from './edge-lib.mjs';

async function main() {
  const t0 = performance.now();
  const dir = join(WORK, 'js');
  mkdirSync(dir, { recursive: true });
  run(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--if-needed'], { cwd: ROOT });
  const out = join(ROOT, 'bin', 'js', 'main.wasm');
  // The command writes bin/js/main.wasm only once it is checked as a Compute module, and prints the
  // runtime's limit (no CPU deadline).
  const built = spawnSync(process.execPath, [join(ROOT, 'dist', 'cjs', 'cli.js'), 'build', join('edge', 'context.mjs'), '--target', 'fastly-javascript', '--wasm', out], { cwd: ROOT, stdio: 'inherit' });
  if (built.error) throw new EdgeError('SPAWN', `cannot run pulse-mcp build: ${built.error.code ?? 'error'}`);
  if (built.status !== 0) throw new EdgeError('EXIT', `pulse-mcp build --target fastly-javascript exited with ${built.status}`);
  // Lets the diff runner tell whether bin/js/main.wasm is built from the current sources.
  writeFileSync(join(WORK, 'js.build-key'), (await bundleJsEntry(join(dir, 'index.js'))) + '\n');
  if (process.argv.includes('--from-fastly')) return;
  const packDir = join(dir, 'pack');
  rmSync(packDir, { recursive: true, force: true });
  mkdirSync(packDir, { recursive: true });
  copyFileSync(join(ROOT, 'edge', 'js', 'fastly.toml'), join(packDir, 'fastly.toml'));
  run(FASTLY, ['compute', 'pack', '--wasm-binary', out, '--non-interactive'], { cwd: packDir });
  const name = 'pulse-mcp-edge-js';
  const packed = join(packDir, 'pkg', `${name}.tar.gz`);
  if (!existsSync(packed)) throw new EdgeError('NO_PACKAGE', `fastly compute pack wrote no ${name}.tar.gz`);
  mkdirSync(join(ROOT, 'pkg'), { recursive: true });
  const pkg = join(ROOT, 'pkg', `${name}.tar.gz`);
  copyFileSync(packed, pkg);
  run(FASTLY, ['compute', 'validate', '-p', pkg, '--non-interactive'], { cwd: packDir });
  process.stdout.write(`edge:build:js: pkg/${name}.tar.gz ${statSync(pkg).size} bytes, validated; done in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
}

main().catch((e) => {
  process.stderr.write(`edge:build:js: ${e.code ?? 'ERROR'}: ${e.code ? e.message : String(e && e.stack)}\n`);
  process.exit(1);
});
