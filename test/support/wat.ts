// WebAssembly text assembled with binaryen's wasm-as (Debian's, installed with the toolchain, else
// the npm build), for the guests the Node Native host tests run.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');

/** The module `wat` describes, assembled in `dir`. */
export function assemble(dir: string, wat: string): Uint8Array<ArrayBuffer> {
  const src = join(dir, `g-${Math.random().toString(36).slice(2)}.wat`);
  writeFileSync(src, wat);
  const out = src.replace(/\.wat$/, '.wasm');
  const wasmAs = existsSync('/usr/bin/wasm-as') ? '/usr/bin/wasm-as' : join(ROOT, 'node_modules', '.bin', 'wasm-as');
  const r = spawnSync(wasmAs, [src, '-o', out], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return new Uint8Array(readFileSync(out));
}
