#!/usr/bin/env node
// `npm pack` and `npm publish` (prepack): the tarball carries dist/ as committed, which `npm test`
// holds equal to a fresh build of the same commit, so a fresh clone packs a working package without
// installing anything (`npm pack --ignore-scripts` as well, which skips this check). Here:
//   - with the dev dependencies installed, the package is rebuilt when its sources are newer than
//     dist/ (scripts/build.mjs --if-needed);
//   - without them (a clone before `npm ci`), dist/ is packed only when git shows no change to what
//     it is built from; otherwise this fails, saying what to run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** What dist/ is built from (scripts/build.mjs): a change to any of them is a new dist/. */
const INPUTS = ['src', 'wasm', 'package.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.mjs', 'scripts/core-glue.mjs'];

function fail(message) {
  process.stderr.write(`prepack: ${message}\n`);
  process.exit(1);
}

if (existsSync(join(ROOT, 'node_modules', 'typescript', 'package.json'))) {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--if-needed'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) fail('the package did not build; see above');
} else {
  const git = spawnSync('git', ['status', '--porcelain', '--', ...INPUTS, 'dist'], { cwd: ROOT, encoding: 'utf8' });
  if (git.status !== 0) fail('the dev dependencies are not installed and this is no git checkout, so dist/ cannot be known to match the sources: run npm ci, then npm pack');
  if (git.stdout.trim() !== '') fail(`the sources differ from the committed dist/:\n${git.stdout.trimEnd()}\nrun npm ci && npm run build, then npm pack`);
}
