#!/usr/bin/env node
// npm run fuzz — coverage-guided fuzzing of the core (native/fuzz, cargo-fuzz on rustup's nightly):
//   json_parser  the streaming JSON parser against serde_json (value, verdict, chunking)
//   request      the request state machine over fuzzed heads, bodies, chunkings and effect answers
//   codec        codec programs and inputs (no panic, canonical output decodes to itself)
//   state        the requestState verifier (no forgery opens; sealed state opens only for its
//                binding, before its expiry, untampered)
// Corpora live in native/fuzz/corpus/<target> (in the repository). A campaign (--runs) adds what it
// finds there; a timed run (--seconds) reads them and writes its finds to native/fuzz/target/ only,
// so `npm test` leaves the checkout clean.
//   --runs N     executions per target (a campaign: npm run fuzz -- --runs 10000000)
//   --seconds S  time per target instead (npm test runs --seconds 40: under 3 minutes in all)
//   --target T   one target only
// cargo-fuzz 0.13.1 is built into .tools/cargo-fuzz once (about 2 minutes). Ends with one line
// `N passed, N failed` (a target passes when it ran its budget without a crash or disagreement).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './edge-lib.mjs';

const TARGETS = ['json_parser', 'request', 'codec', 'state', 'introspection'];
const CARGO_FUZZ_VERSION = '0.13.1';
const TOOLS = join(ROOT, '.tools', 'cargo-fuzz');
const FUZZ = join(ROOT, 'native', 'fuzz');
const RUSTUP_BIN = join(homedir(), '.cargo', 'bin');

function fail(message) {
  process.stderr.write(`fuzz: ${message}\n`);
  process.exit(2);
}

function arg(name) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

const env = { ...process.env, PATH: `${join(TOOLS, 'bin')}:${RUSTUP_BIN}:${process.env.PATH}` };

function sh(cmd, args, options = {}) {
  return spawnSync(cmd, args, { env, encoding: 'utf8', maxBuffer: 256 << 20, ...options });
}

function ensureToolchain() {
  if (sh('rustup', ['run', 'nightly', 'rustc', '--version']).status !== 0) {
    process.stderr.write('fuzz: installing the nightly toolchain (minimal profile)\n');
    const r = sh('rustup', ['toolchain', 'install', 'nightly', '--profile', 'minimal'], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) fail('rustup could not install the nightly toolchain that cargo-fuzz needs');
  }
  const have = sh(join(TOOLS, 'bin', 'cargo-fuzz'), ['--version']);
  if (have.status === 0 && have.stdout.includes(CARGO_FUZZ_VERSION)) return;
  process.stderr.write(`fuzz: building cargo-fuzz ${CARGO_FUZZ_VERSION} into .tools/cargo-fuzz (about 2 minutes, once)\n`);
  const r = sh('cargo', ['install', '--locked', '--quiet', `cargo-fuzz@${CARGO_FUZZ_VERSION}`, '--root', TOOLS], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) fail(`cargo install cargo-fuzz@${CARGO_FUZZ_VERSION} failed`);
}

const runs = arg('--runs');
const seconds = arg('--seconds');
const only = arg('--target');
if (runs !== undefined && !/^[1-9][0-9]*$/.test(runs)) fail('--runs must be a positive integer');
if (seconds !== undefined && !/^[1-9][0-9]*$/.test(seconds)) fail('--seconds must be a positive integer');
if (only !== undefined && !TARGETS.includes(only)) fail(`--target must be one of ${TARGETS.join(', ')}`);
const budget = runs !== undefined ? [`-runs=${runs}`] : [`-max_total_time=${seconds ?? 60}`];

ensureToolchain();
const build = sh('cargo', ['+nightly', 'fuzz', 'build', '--release'], { cwd: FUZZ, stdio: ['ignore', 'ignore', 'pipe'] });
if (build.status !== 0) {
  process.stderr.write(build.stderr.split('\n').slice(-30).join('\n'));
  fail('cargo fuzz build failed');
}

let passed = 0;
let failed = 0;
for (const target of only ? [only] : TARGETS) {
  const corpus = join(FUZZ, 'corpus', target);
  mkdirSync(corpus, { recursive: true });
  // libFuzzer writes new inputs into the first corpus directory it is given.
  const scratch = join(FUZZ, 'target', 'new-corpus', target);
  mkdirSync(scratch, { recursive: true });
  const dirs = runs !== undefined ? [corpus] : [scratch, corpus];
  const t0 = Date.now();
  // A finding stops the run and leaves its input in native/fuzz/artifacts/<target>.
  const r = sh('cargo', ['+nightly', 'fuzz', 'run', '--release', target, ...dirs, '--', ...budget, '-print_final_stats=1'], {
    cwd: FUZZ,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stats = /stat::number_of_executed_units:\s*(\d+)/.exec(r.stderr);
  const executions = stats ? Number(stats[1]) : 0;
  const took = ((Date.now() - t0) / 1000).toFixed(0);
  const inputs = readdirSync(corpus).length;
  if (r.status === 0 && executions > 0) {
    passed++;
    process.stdout.write(`  ✓  ${target}: ${executions} executions in ${took} s, 0 crashes; corpus ${inputs} inputs\n`);
  } else {
    failed++;
    const finding = r.stderr.split('\n').filter((l) => /panicked|assertion|left:|right:|Test unit written|SUMMARY/.test(l));
    process.stdout.write(`  ✗  ${target}: failed after ${executions} executions in ${took} s\n${finding.map((l) => `       ${l}\n`).join('')}`);
  }
}
if (failed > 0) process.stdout.write('findings: native/fuzz/artifacts/<target>/\n');
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exitCode = failed === 0 ? 0 : 1;
