// pulse-mcp diff end to end on a small static service: the module on Node, its Native binary built
// now in the Node Native host and on Viceroy, no disagreement, and an evidence report that
// pulse-mcp build --evidence turns into per-operation evidence.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main';

const ROOT = resolve(__dirname, '..', '..');
const MODULE = join(ROOT, 'test', 'fixtures', 'diff', 'service.mjs');
const VICEROY = join(ROOT, '.tools', 'viceroy', 'bin', 'viceroy');
const dir = mkdtempSync(join(tmpdir(), 'pulse-diff-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
  try {
    return { code: await main(argv), out: out.join(''), err: err.join('') };
  } finally {
    vi.restoreAllMocks();
  }
}

it.skipIf(!existsSync(VICEROY))('serves the module on node-javascript, node-native and fastly-native alike and writes evidence build accepts', async () => {
  const report = join(dir, 'diff-evidence.json');
  const diff = await run(['diff', MODULE, '--viceroy', VICEROY, '--report', report]);
  expect([diff.code, diff.err]).toEqual([0, '']);
  expect(diff.out).toMatch(/^pulse-mcp diff \S+service\.mjs: router diff_sample \(4 operations, static profile\), (\d+) cases\n/);
  expect(diff.out).toMatch(/\n {2}node-native +the Native binary built from the module now \(\d+\.\d s\) in the Node Native host on 127\.0\.0\.1:\d+\n/);
  expect(diff.out).toContain(`  fastly-native    viceroy 0.22.0 (${VICEROY}, from --viceroy) on 127.0.0.1:`);
  const caseLines = diff.out.split('\n').filter((l) => /^ {2}[✓✗] /.test(l));
  const cases = Number(/, (\d+) cases\n/.exec(diff.out)![1]);
  expect(caseLines).toHaveLength(cases);
  expect(caseLines.filter((l) => l.startsWith('  ✗'))).toEqual([]);
  expect(diff.out).toMatch(new RegExp(`\\n${cases} cases × 2 targets against node-javascript: all alike \\(requests \\d+\\.\\d s, total \\d+\\.\\d s\\); evidence written to ${report.replace(/[.]/g, '\\.')}\\n$`));

  const out = join(dir, 'build');
  const build = await run(['build', MODULE, '--out', out, '--evidence', report]);
  expect([build.code, build.err]).toEqual([0, '']);
  const inspection = JSON.parse(readFileSync(join(out, 'entities-inspection.json'), 'utf8')) as { operations: { name: string; evidence: { date: string; targets: { target: string; cases: number }[] } }[] };
  const date = (JSON.parse(readFileSync(report, 'utf8')) as { date: string }).date;
  for (const op of inspection.operations) {
    const calls = caseLines.filter((l) => l.includes(` tools/call ${op.name}: `)).length;
    expect(calls).toBeGreaterThanOrEqual(3);
    expect(op.evidence).toEqual({ date, targets: ['fastly-native', 'node-javascript', 'node-native'].map((target) => ({ target, cases: calls })) });
  }
  expect(inspection.operations.map((o) => o.name)).toEqual(['version', 'notes_search', 'notes_read', 'shape']);
});

it('refuses a module that is not a service, and usage errors with status 2', async () => {
  expect(await run(['diff'])).toMatchObject({ code: 2, err: expect.stringMatching(/^pulse-mcp: diff needs a module\n/) });
  expect(await run(['diff', MODULE, '--report'])).toMatchObject({ code: 2, err: expect.stringMatching(/^pulse-mcp: --report takes the path of the evidence report to write\n/) });
  const notService = join(ROOT, 'test', 'fixtures', 'lower', 'full.mjs');
  expect(await run(['diff', notService])).toMatchObject({ code: 1, err: expect.stringMatching(/^pulse-mcp: \S+full\.mjs exports default, router; a service module must export `const server = mcp/) });
});
