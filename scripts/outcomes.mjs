// Writes spec/outcomes.json, the admission outcome table that `cargo test` (native/core) and the
// host suites (vitest) both read, from its authored form beside it, spec/outcomes.rows.ts.
// `--check` fails when the committed file differs from a fresh write.
import { readFileSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { bundleForNode, ROOT, WORK } from './edge-lib.mjs';

const OUT = join(ROOT, 'spec', 'outcomes.json');
const check = process.argv.includes('--check');

const bundle = join(WORK, `outcomes-${process.pid}.mjs`);
const url = await bundleForNode(join(ROOT, 'test', 'support', 'outcomes.data.ts'), bundle);
let text;
try {
  text = (await import(url)).outcomesJson();
} finally {
  rmSync(bundle, { force: true });
}

if (check) {
  let committed = '';
  try {
    committed = readFileSync(OUT, 'utf8');
  } catch {}
  if (committed !== text) {
    process.stderr.write('spec/outcomes.json is stale: run npm run build:outcomes\n');
    process.exit(1);
  }
} else {
  writeFileSync(OUT, text);
  process.stdout.write(`spec/outcomes.json: ${JSON.parse(text).rows.length} rows, ${text.length} bytes\n`);
}
