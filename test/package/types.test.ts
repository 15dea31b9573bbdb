// Declarations type-check for .mts and .cts consumers under NodeNext, resolved through the package's
// own name and exports map against the built package (dist/), no source aliases, no skipLibCheck.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../support/run';

const root = path.resolve(__dirname, '..', '..');
const dir = path.join(root, 'test', 'types');

describe('consumer declarations (NodeNext)', () => {
  it('consumer.mts and consumer.cts compile with tsc --noEmit', async () => {
    for (const f of ['consumer.mts', 'consumer.cts']) expect(existsSync(path.join(dir, f)), `test/types/${f}`).toBe(true);
    expect(existsSync(path.join(root, 'dist')), 'dist/ built (npm run build)').toBe(true);
    const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const r = await run(process.execPath, [tsc, '-p', path.join(dir, 'tsconfig.json')], { cwd: root, timeoutMs: 120_000 });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  }, 130_000);
});
