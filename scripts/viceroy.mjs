#!/usr/bin/env node
// Viceroy, Fastly's own local Compute runtime, pinned and built from the Rust crate registry into
// .tools/viceroy (rustup's stable cargo; Viceroy needs Rust 1.90 or newer). The first build takes
// about 11 minutes on 2 cores; afterwards `ensureViceroy` is quiet and instant.
//   node scripts/viceroy.mjs   installs it when missing and prints its version
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitForPort } from './lib/net.mjs';
import { ROOT } from './edge-lib.mjs';

export const VICEROY_VERSION = '0.22.0';
export const VICEROY = join(ROOT, '.tools', 'viceroy', 'bin', 'viceroy');
const START_TIMEOUT_MS = 30_000;

function installedVersion() {
  if (!existsSync(VICEROY)) return undefined;
  const r = spawnSync(VICEROY, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim().split(/\s+/).pop() : undefined;
}

/** Set once this process has seen the pinned version: later calls spawn nothing. */
let verified = false;

/** The Viceroy binary, built first when missing or of another version. Throws with cargo's output. */
export function ensureViceroy({ log = (m) => process.stderr.write(`${m}\n`) } = {}) {
  if (verified) return VICEROY;
  if (installedVersion() === VICEROY_VERSION) {
    verified = true;
    return VICEROY;
  }
  const rustup = join(homedir(), '.cargo', 'bin', 'cargo');
  const cargo = existsSync(rustup) ? rustup : 'cargo';
  log(`viceroy: building ${VICEROY_VERSION} into .tools/viceroy (about 11 minutes the first time)`);
  const r = spawnSync(cargo, ['install', '--locked', '--quiet', `viceroy@${VICEROY_VERSION}`, '--root', join(ROOT, '.tools', 'viceroy')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.error || r.status !== 0 || installedVersion() !== VICEROY_VERSION) {
    const why = r.error ? r.error.message : (r.stderr || '').trim().split('\n').slice(-15).join('\n');
    throw new Error(`viceroy: cargo install viceroy@${VICEROY_VERSION} failed:\n${why}`);
  }
  verified = true;
  return VICEROY;
}

/**
 * Serves `wasm` on Viceroy with the backends, config and secret stores of `toml`, on a loopback
 * `addr` (`127.0.0.1:0` is not supported by Viceroy: give a port). `viceroy` is another program with
 * Viceroy's command line (what `fastly compute serve --viceroy-path` takes); the pinned build by
 * default. Resolves once it accepts connections; `close()` stops it by its PID.
 */
export async function startViceroy({ wasm, toml, addr, viceroy }) {
  const [host, port] = addr.split(':');
  if (host !== '127.0.0.1' || !/^[1-9][0-9]{0,4}$/.test(port)) throw new Error('viceroy: addr must be 127.0.0.1:<port>');
  const child = spawn(viceroy ?? ensureViceroy(), ['-C', toml, '--addr', addr, wasm], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (d) => {
    output = (output + d).slice(-8192);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((done) => child.once('exit', done));
  try {
    await waitForPort(Number(port), START_TIMEOUT_MS, exited);
  } catch (e) {
    child.kill('SIGKILL');
    throw new Error(`viceroy did not serve on ${addr} (${e.message}):\n${output}`);
  }
  const close = () =>
    new Promise((done) => {
      if (child.exitCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  return { url: `http://${addr}`, pid: child.pid, output: () => output, close };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    ensureViceroy();
    process.stdout.write(`viceroy ${installedVersion()} at .tools/viceroy/bin/viceroy\n`);
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  }
}
