#!/usr/bin/env node
// npm run fastly -- <args>: the pinned Fastly CLI (@fastly/cli-linux-x64). `npx fastly` would resolve
// to another npm package (Fastly's API client), not the CLI. `compute serve` gets the project's
// pinned Viceroy (scripts/viceroy.mjs) unless --viceroy-path is given.
import { spawnSync } from 'node:child_process';
import { FASTLY } from './edge-lib.mjs';
import { ensureViceroy } from './viceroy.mjs';

const args = process.argv.slice(2);
const serving = args[0] === 'compute' && args[1] === 'serve';
if (serving && !args.some((a) => a.startsWith('--viceroy-path'))) args.push(`--viceroy-path=${ensureViceroy()}`);
const r = spawnSync(FASTLY, args, { stdio: 'inherit' });
if (r.error) {
  process.stderr.write(`fastly: cannot run ${FASTLY}: ${r.error.code ?? r.error.message} (run npm ci)\n`);
  process.exit(2);
}
process.exit(r.status ?? 1);
