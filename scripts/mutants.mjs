#!/usr/bin/env node
// npm run mutants — mutation testing of the security-critical code: a mutant no test kills is a rule
// the tests do not pin down.
//   Rust        cargo-mutants over RUST_FILES, judged by the core package's `cargo test` alone
//   TypeScript  StrykerJS (vitest runner, stryker.config.mjs) over the driver, the options and the
//               host adapters, judged by the vitest files listed there
// Options:
//   --files a.rs,b.ts  only these (basenames or repository paths) of the two sets
//   --rust-only / --ts-only
//   --dir D            mutate the tree of checkout D (for instance a `git worktree` of HEAD) instead
//                      of this one; its native/ and spec/ are copied to .test-results/mutants/tree
//                      first, so files edited meanwhile never reach a run (runs from different
//                      checkouts can go at once: each has its own copy). StrykerJS always runs
//                      from this checkout, which it copies to its own sandbox (.stryker-tmp) first
//   --survivors        re-test only the Rust survivors of the last run of these files (after adding
//                      tests: a killed mutant stays killed when tests are only added)
//   --report           run nothing: apply spec/mutants-equivalent.json again to the recorded results
//                      of these files (both tools) and rewrite the report
//   --timeout S        per-mutant test timeout in seconds (default: cargo-mutants' own, from the
//                      baseline); --nice N (default 15) shares the machine. Mutants run one at a
//                      time, in place in the copy.
// Writes .test-results/mutants.json and .test-results/mutants.md: per file the score
// killed / (killed + survived), timeouts counted as killed, mutants that do not compile (unviable)
// left out, and each survivor with its line and mutation. A survivor that matches an entry of
// spec/mutants-equivalent.json (same file, same mutation text) shows as equivalent instead (left
// out of the score), or, when the entry names `killedBy` (test files that fail when the mutation is
// made by hand: StrykerJS does not evaluate mutated module-level code again), as killed by hand
// (counted as killed). A run of some files keeps the earlier results of the others. Exits 1 when a
// file is below BAR.
// cargo-mutants 27.1.0 is built into .tools/cargo-mutants once (about 5 minutes).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { ROOT } from './edge-lib.mjs';

const CARGO_MUTANTS_VERSION = '27.1.0';
const TOOLS = join(ROOT, '.tools', 'cargo-mutants');
const CARGO_MUTANTS = join(TOOLS, 'bin', 'cargo-mutants');
const RUSTUP_BIN = join(homedir(), '.cargo', 'bin');
const RESULTS = join(ROOT, '.test-results');
const EQUIVALENT = join(ROOT, 'spec', 'mutants-equivalent.json');
const BAR = 0.9;

const RUST_FILES = [
  'authorization.rs',
  'rpc_client.rs',
  'hmac.rs',
  'mrtr.rs',
  'admission.rs',
  'head.rs',
  'envelope.rs',
  'codec.rs',
  'field_rules.rs',
  'config.rs',
].map((f) => `native/core/src/${f}`);
const TS_GLOBS = ['src/core/driver.ts', 'src/options.ts', 'src/adapter/**/*.ts'];

function fail(message) {
  process.stderr.write(`mutants: ${message}\n`);
  process.exit(2);
}

const argv = process.argv.slice(2);
function arg(name) {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  if (argv[i + 1] === undefined || argv[i + 1].startsWith('--')) fail(`${name} needs a value`);
  return argv[i + 1];
}
const KNOWN = new Set(['--files', '--rust-only', '--ts-only', '--dir', '--survivors', '--report', '--timeout', '--nice']);
for (const a of argv) if (a.startsWith('--') && !KNOWN.has(a)) fail(`unknown option ${a}`);

const rustOnly = argv.includes('--rust-only');
const tsOnly = argv.includes('--ts-only');
if (rustOnly && tsOnly) fail('--rust-only and --ts-only exclude each other');
const source = resolve(arg('--dir') ?? ROOT);
if (!existsSync(join(source, 'native', 'core', 'Cargo.toml'))) fail(`--dir ${source} is not a checkout of this repository`);
// One scratch area per source checkout, so that runs from two worktrees can go side by side.
const SCRATCH = join(RESULTS, 'mutants', source === ROOT ? 'self' : basename(source));
const timeout = arg('--timeout');
const niceness = arg('--nice') ?? '15';
for (const [name, v] of [['--timeout', timeout], ['--nice', niceness]]) {
  if (v !== undefined && !/^[0-9]+$/.test(v)) fail(`${name} must be a whole number`);
}

const TS_FILES = listTs();
let rustFiles = RUST_FILES;
let tsFiles = TS_FILES;
const only = arg('--files');
if (only !== undefined) {
  const wanted = only.split(',').filter(Boolean);
  const pick = (set, w) => set.filter((f) => f === w || basename(f) === w);
  for (const w of wanted) {
    if (pick(RUST_FILES, w).length + pick(TS_FILES, w).length === 0) fail(`--files: ${w} is not in the mutated set`);
  }
  rustFiles = RUST_FILES.filter((f) => wanted.some((w) => pick([f], w).length));
  tsFiles = TS_FILES.filter((f) => wanted.some((w) => pick([f], w).length));
}
if (tsOnly) rustFiles = [];
if (rustOnly) tsFiles = [];
const survivorsOnly = argv.includes('--survivors');
if (survivorsOnly) tsFiles = [];
const reportOnly = argv.includes('--report');
if (reportOnly && survivorsOnly) fail('--report and --survivors exclude each other');

function listTs() {
  const out = [];
  const walk = (dir) => {
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.ts') && !p.endsWith('.d.ts')) out.push(p);
    }
  };
  walk('src/adapter');
  return ['src/core/driver.ts', 'src/options.ts', ...out.sort()];
}

const env = { ...process.env, PATH: `${join(TOOLS, 'bin')}:${RUSTUP_BIN}:${process.env.PATH}` };

function sh(cmd, args, options = {}) {
  return spawnSync(cmd, args, { env, encoding: 'utf8', maxBuffer: 256 << 20, ...options });
}

function ensureCargoMutants() {
  const have = sh(CARGO_MUTANTS, ['mutants', '--version']);
  if (have.status === 0 && have.stdout.includes(CARGO_MUTANTS_VERSION)) return;
  process.stderr.write(`mutants: building cargo-mutants ${CARGO_MUTANTS_VERSION} into .tools/cargo-mutants (about 5 minutes, once)\n`);
  const r = sh('cargo', ['install', '--locked', '--quiet', `cargo-mutants@${CARGO_MUTANTS_VERSION}`, '--root', TOOLS], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (r.status !== 0) fail(`cargo install cargo-mutants@${CARGO_MUTANTS_VERSION} failed`);
}

/** Copies native/ (but its build output) and spec/ (the tables the tests read) into the scratch tree. */
function snapshot() {
  const tree = join(SCRATCH, 'tree');
  for (const dir of ['native', 'spec']) {
    const from = join(source, dir);
    const to = join(tree, dir);
    mkdirSync(to, { recursive: true });
    // The scratch tree keeps its own target/ so that a second run builds incrementally.
    for (const e of readdirSync(to)) if (e !== 'target') rmSync(join(to, e), { recursive: true, force: true });
    for (const e of readdirSync(from)) {
      if (e === 'target' || (dir === 'native' && e === 'fuzz')) continue;
      cpSync(join(from, e), join(to, e), { recursive: true });
    }
  }
  return tree;
}

function commitOf(dir) {
  const r = spawnSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' });
  const dirty = spawnSync('git', ['-C', dir, 'status', '--porcelain', '--', 'native', 'src', 'spec'], { encoding: 'utf8' });
  return r.status === 0 ? `${r.stdout.trim()}${dirty.stdout.trim() ? ' (with uncommitted changes)' : ''}` : 'unknown';
}

/** One result per mutant: { file, line, mutation, status: killed|survived|timeout|unviable, seconds }. */
function runRust(files, retest) {
  ensureCargoMutants();
  const tree = snapshot();
  const out = join(SCRATCH, 'cargo');
  rmSync(out, { recursive: true, force: true });
  const args = [
    '-n', niceness, CARGO_MUTANTS, 'mutants',
    '--dir', join(tree, 'native'),
    // The copy is ours: mutate it where it lies, so the tests still find ../spec.
    '--in-place',
    '--package', 'pulse-core',
    '--test-workspace=false',
    '--no-shuffle',
    '--output', out,
    '--caught',
    ...files.flatMap((f) => ['--file', relative('native', f)]),
    // Exact names, position included: only those mutants run again.
    ...(retest ?? []).flatMap((r) => ['--re', `^${escapeRegExp(r.id)}$`]),
  ];
  if (timeout !== undefined) args.push('--timeout', timeout, '--minimum-test-timeout', timeout);
  const t0 = Date.now();
  process.stderr.write(`mutants: cargo-mutants over ${files.map((f) => basename(f)).join(', ')}\n`);
  // Without debug info each mutant builds and links about a third faster; the tests are the same.
  const r = sh('nice', args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...env, CARGO_PROFILE_DEV_DEBUG: '0', CARGO_PROFILE_TEST_DEBUG: '0' } });
  // 0: all caught, 2: some missed, 3: some timed out; anything else is no result.
  if (![0, 2, 3].includes(r.status)) fail(`cargo-mutants exited with ${r.status}; its logs are in ${relative(ROOT, out)}/mutants.out/log`);
  const outcomes = JSON.parse(readFileSync(join(out, 'mutants.out', 'outcomes.json'), 'utf8'));
  const results = [];
  for (const o of outcomes.outcomes) {
    const m = o.scenario && o.scenario.Mutant;
    if (!m) continue;
    const status = { CaughtMutant: 'killed', MissedMutant: 'survived', Timeout: 'timeout', Unviable: 'unviable' }[o.summary];
    if (!status) fail(`cargo-mutants outcome ${o.summary} is not understood`);
    const seconds = (o.phase_results || []).reduce((s, p) => s + (p.duration || 0), 0);
    results.push({ id: m.name, file: `native/${m.file}`, line: m.span.start.line, mutation: describe(m), status, seconds });
  }
  return { results, wall: (Date.now() - t0) / 1000 };
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** cargo-mutants' own wording without the position: "replace == with != in Hmac::verify". */
function describe(m) {
  return m.name.replace(/^[^:]+:\d+:\d+: /, '');
}

function runTs(files) {
  const out = join(SCRATCH, 'stryker');
  rmSync(out, { recursive: true, force: true });
  const t0 = Date.now();
  process.stderr.write(`mutants: StrykerJS over ${files.join(', ')}\n`);
  const r = sh('nice', ['-n', niceness, process.execPath, join(ROOT, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js'), 'run', 'stryker.config.mjs'], {
    cwd: ROOT,
    env: { ...env, PULSE_MUTANTS_MUTATE: files.join(','), PULSE_MUTANTS_REPORT: join(out, 'mutation.json') },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status !== 0) fail(`stryker exited with ${r.status}`);
  const report = JSON.parse(readFileSync(join(out, 'mutation.json'), 'utf8'));
  const results = [];
  for (const [file, entry] of Object.entries(report.files)) {
    // An incremental run reports the reused results of files it did not mutate too: not this run's.
    if (!files.includes(relative(ROOT, resolve(ROOT, file)))) continue;
    const lines = entry.source.split('\n');
    for (const m of entry.mutants) {
      const status = {
        Killed: 'killed',
        Timeout: 'timeout',
        Survived: 'survived',
        NoCoverage: 'survived',
        CompileError: 'unviable',
        RuntimeError: 'unviable',
      }[m.status];
      if (!status) continue; // Ignored: excluded by the configuration
      const { start, end } = m.location;
      const original = start.line === end.line ? lines[start.line - 1].slice(start.column - 1, end.column - 1) : `${lines[start.line - 1].slice(start.column - 1)}…`;
      const mutation = `${m.mutatorName}: ${clip(original)} → ${clip(m.replacement ?? '')}`;
      const path = relative(ROOT, resolve(ROOT, file));
      results.push({ id: `${path}:${start.line}:${start.column}: ${mutation}`, file: path, line: start.line, mutation, status, seconds: undefined });
    }
  }
  return { results, wall: (Date.now() - t0) / 1000 };
}

function clip(text) {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 80 ? `${one.slice(0, 77)}…` : one;
}

function loadEquivalent() {
  if (!existsSync(EQUIVALENT)) return [];
  const list = JSON.parse(readFileSync(EQUIVALENT, 'utf8'));
  if (!Array.isArray(list)) fail('spec/mutants-equivalent.json must hold an array');
  for (const [i, e] of list.entries()) {
    const keys = Object.keys(e ?? {}).filter((k) => k !== 'count' && k !== 'killedBy').sort().join(',');
    const ok =
      keys === 'file,mutation,why' &&
      (!('count' in e) || (Number.isInteger(e.count) && e.count > 1)) &&
      (!('killedBy' in e) || (typeof e.killedBy === 'string' && e.killedBy.trim() !== '')) &&
      typeof e.file === 'string' &&
      typeof e.mutation === 'string' &&
      typeof e.why === 'string' &&
      e.why.trim() !== '';
    if (!ok) {
      fail(`spec/mutants-equivalent.json entry ${i} must be { file, mutation, why } or { file, mutation, killedBy, why } (and count when the same text survives more than once)`);
    }
  }
  return list;
}

function summarize(results, equivalent, tool, wall) {
  const files = {};
  const used = new Map();
  for (const r of results) {
    const f = (files[r.file] ??= { tool, killed: 0, timeout: 0, survived: 0, killedByHand: 0, equivalent: 0, unviable: 0, survivors: [], handKills: [], equivalents: [] });
    if (r.status === 'survived') {
      // An entry covers as many survivors of its text as its count says (one by default).
      const eq = equivalent.find((e) => e.file === r.file && e.mutation === r.mutation && (used.get(e) ?? 0) < (e.count ?? 1));
      if (eq) used.set(eq, (used.get(eq) ?? 0) + 1);
      if (eq && eq.killedBy !== undefined) {
        f.killedByHand++;
        f.handKills.push({ line: r.line, mutation: r.mutation, killedBy: eq.killedBy, why: eq.why });
      } else if (eq) {
        f.equivalent++;
        f.equivalents.push({ line: r.line, mutation: r.mutation, why: eq.why });
      } else {
        f.survived++;
        f.survivors.push({ line: r.line, mutation: r.mutation });
      }
    } else f[r.status]++;
  }
  const timed = results.filter((r) => r.seconds !== undefined);
  for (const [file, f] of Object.entries(files)) {
    const judged = f.killed + f.timeout + f.killedByHand + f.survived;
    f.score = judged === 0 ? null : Math.round(((f.killed + f.timeout + f.killedByHand) / judged) * 1000) / 1000;
    f.mutants = judged + f.equivalent + f.unviable;
    // An entry whose mutation no longer survives as often as it says (caught now, or the code
    // changed) is stale.
    f.staleEquivalents = equivalent.filter((e) => e.file === file && (used.get(e) ?? 0) < (e.count ?? 1)).map((e) => e.mutation);
    f.results = results.filter((r) => r.file === file).map(({ id, line, mutation, status, seconds }) => ({ id, line, mutation, status, seconds }));
    const mine = timed.filter((r) => r.file === file);
    f.secondsPerMutant = mine.length ? Math.round((mine.reduce((s, r) => s + r.seconds, 0) / mine.length) * 10) / 10 : Math.round((wall / Math.max(results.length, 1)) * 10) / 10;
  }
  return files;
}

function writeReports(fresh, commit) {
  const path = join(RESULTS, 'mutants.json');
  const previous = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : { files: {} };
  const ranAt = new Date().toISOString();
  const files = { ...previous.files };
  // --report rewrites the summary of a recorded run: its time and commit stay.
  for (const [file, f] of Object.entries(fresh)) files[file] = reportOnly ? { ...f, ranAt: previous.files[file].ranAt, commit: previous.files[file].commit } : { ...f, ranAt, commit };
  const report = {
    score: 'killed / (killed + survived); timeouts and survivors killed by hand count as killed; unviable mutants (do not compile) and recorded equivalents are left out',
    bar: BAR,
    files: Object.fromEntries(Object.entries(files).sort(([a], [b]) => a.localeCompare(b))),
  };
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
  const md = [
    '# Mutation testing',
    '',
    `Score = killed / (killed + survived). Timeouts count as killed, and so do survivors recorded in \`spec/mutants-equivalent.json\` as killed by hand (the named tests fail when the mutation is made by hand); unviable mutants (they do not compile) are left out, and so are survivors recorded there as equivalent. Bar: ${BAR * 100} % per file.`,
    '',
    '| file | tool | score | killed | timeout | killed by hand | survived | equivalent | unviable | s/mutant | commit | ran |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |',
  ];
  for (const [file, f] of Object.entries(report.files)) {
    const score = f.score === null ? '—' : `${(f.score * 100).toFixed(1)} %`;
    md.push(`| \`${file}\` | ${f.tool} | ${score} | ${f.killed} | ${f.timeout} | ${f.killedByHand ?? 0} | ${f.survived} | ${f.equivalent} | ${f.unviable} | ${f.secondsPerMutant} | ${f.commit} | ${f.ranAt} |`);
  }
  for (const [file, f] of Object.entries(report.files)) {
    const handKills = f.handKills ?? [];
    if (!f.survivors.length && !f.equivalents.length && !handKills.length && !f.staleEquivalents.length) continue;
    md.push('', `## ${file}`, '');
    for (const s of f.survivors) md.push(`- survived, line ${s.line}: \`${s.mutation}\``);
    for (const s of f.equivalents) md.push(`- equivalent, line ${s.line}: \`${s.mutation}\` — ${s.why}`);
    for (const s of f.staleEquivalents) md.push(`- stale entry in spec/mutants-equivalent.json (no such survivor): \`${s}\``);
    if (handKills.length) {
      md.push('', '### killed by hand', '');
      for (const s of handKills) md.push(`- line ${s.line}: \`${s.mutation}\` — fails ${s.killedBy}: ${s.why}`);
    }
  }
  writeFileSync(join(RESULTS, 'mutants.md'), `${md.join('\n')}\n`);
  return report;
}

const equivalent = loadEquivalent();
const commit = commitOf(source);
const fresh = {};
if (reportOnly) {
  const previous = existsSync(join(RESULTS, 'mutants.json')) ? JSON.parse(readFileSync(join(RESULTS, 'mutants.json'), 'utf8')).files : {};
  for (const f of [...rustFiles, ...tsFiles]) {
    if (!previous[f]) continue;
    if (!previous[f].results) fail(`--report: ${f} has no recorded results`);
    const again = summarize(previous[f].results.map((r) => ({ ...r, file: f })), equivalent, previous[f].tool, 0)[f];
    fresh[f] = { ...again, secondsPerMutant: previous[f].secondsPerMutant };
  }
} else if (rustFiles.length && survivorsOnly) {
  const previous = existsSync(join(RESULTS, 'mutants.json')) ? JSON.parse(readFileSync(join(RESULTS, 'mutants.json'), 'utf8')).files : {};
  const before = rustFiles.flatMap((f) => {
    if (!previous[f] || !previous[f].results) fail(`--survivors: ${f} has no earlier run to start from`);
    return previous[f].results.map((r) => ({ ...r, file: f }));
  });
  const retest = before.filter((r) => r.status === 'survived');
  const again = retest.length ? runRust(rustFiles, retest) : { results: [], wall: 0 };
  const retested = new Map(again.results.map((r) => [r.id, r]));
  const results = before.map((r) => retested.get(r.id) ?? r);
  Object.assign(fresh, summarize(results, equivalent, `cargo-mutants ${CARGO_MUTANTS_VERSION}`, again.wall));
  process.stderr.write(`mutants: ${again.results.length} of ${retest.length} Rust survivors re-tested in ${again.wall.toFixed(0)} s\n`);
} else if (rustFiles.length) {
  const { results, wall } = runRust(rustFiles);
  Object.assign(fresh, summarize(results, equivalent, `cargo-mutants ${CARGO_MUTANTS_VERSION}`, wall));
  process.stderr.write(`mutants: ${results.length} Rust mutants in ${wall.toFixed(0)} s\n`);
}
if (tsFiles.length && !reportOnly) {
  const { results, wall } = runTs(tsFiles);
  Object.assign(fresh, summarize(results, equivalent, 'StrykerJS 9.6.1', wall));
  process.stderr.write(`mutants: ${results.length} TypeScript mutants in ${wall.toFixed(0)} s\n`);
}
writeReports(fresh, commit);
let below = 0;
for (const [file, f] of Object.entries(fresh)) {
  const score = f.score === null ? '—' : `${(f.score * 100).toFixed(1)} %`;
  if (f.score !== null && f.score < BAR) below++;
  process.stdout.write(
    `  ${f.score === null || f.score >= BAR ? '✓' : '✗'}  ${file}: ${score} (${f.killed + f.timeout} killed, ${f.killedByHand} killed by hand, ${f.survived} survived, ${f.equivalent} equivalent, ${f.unviable} unviable)\n`,
  );
}
process.stdout.write(`report: .test-results/mutants.md\n${Object.keys(fresh).length - below} passed, ${below} failed\n`);
process.exitCode = below === 0 ? 0 : 1;
