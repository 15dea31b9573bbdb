// Reproducibility: a fresh build of the core must equal the committed artifacts under wasm/.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../support/run';

const root = path.resolve(__dirname, '..', '..');

describe('committed core artifacts', () => {
  it('node scripts/build-core.mjs --check exits 0', async () => {
    const script = path.join(root, 'scripts', 'build-core.mjs');
    expect(existsSync(script), 'scripts/build-core.mjs exists').toBe(true);
    const r = await run(process.execPath, [script, '--check'], { cwd: root, timeoutMs: 600_000 });
    expect(r.status, `exit ${r.status}\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`).toBe(0);
  }, 620_000);
});
