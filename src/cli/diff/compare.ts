/**
 * The comparison of a differential run: every case sent over its own connection to every target,
 * and each target's answer held to the reference's (node-javascript) on the status, the headers
 * that carry protocol meaning (content-type, cache-control, allow, www-authenticate) and the body,
 * byte for byte. A target that does not answer disagrees, whatever the others do; so does a
 * reference that does not answer. Per operation, the `tools/call` cases each target answered alike
 * are counted for the evidence report (the reference's: the ones it answered).
 */
import type { Target } from '../../compiler/types';
import type { DiffCase } from './cases';
import { exchange, type WireResponse } from './http';

export const REFERENCE: Target = 'node-javascript';
export const COMPARED = ['status', 'content-type', 'cache-control', 'allow', 'www-authenticate', 'body'] as const;
export type Field = (typeof COMPARED)[number];
/** What a target answered, per compared field (absent header: empty); null when it did not answer. */
export type Answer = Readonly<Record<Field, string>> | null;

/** A target being compared: where it listens. */
export interface TargetAddress {
  readonly target: Target;
  readonly port: number;
}

export interface CompareOptions {
  /** Bound of one exchange. */
  readonly timeoutMs: number;
  /** Cases in flight at once. */
  readonly concurrency: number;
  /**
   * A sealed requestState carries its expiry in wall-clock time, so it differs between targets asked
   * a moment apart: compared as "(sealed)" when the service seals it.
   */
  readonly sealedRequestState: boolean;
}

export interface CaseResult {
  readonly case: DiffCase;
  readonly answers: ReadonlyMap<Target, Answer>;
  /** Per target other than the reference: the fields it answered differently (`status` alone for no answer). */
  readonly differences: ReadonlyMap<Target, readonly Field[]>;
}

export interface Comparison {
  readonly results: readonly CaseResult[];
  /** Cases with a difference on some target, or no answer from the reference. */
  readonly disagreements: number;
  /** Per operation, per target: the `tools/call` cases naming it answered alike with the reference. */
  readonly alike: ReadonlyMap<string, ReadonlyMap<Target, number>>;
}

export function answerOf(res: WireResponse | null, sealedRequestState: boolean): Answer {
  if (res === null) return null;
  const body = res.body.toString('latin1');
  return {
    status: String(res.status),
    'content-type': res.headers['content-type'] ?? '',
    'cache-control': res.headers['cache-control'] ?? '',
    allow: res.headers['allow'] ?? '',
    'www-authenticate': res.headers['www-authenticate'] ?? '',
    body: sealedRequestState ? body.replace(/"requestState":"[^"]*"/g, '"requestState":"(sealed)"') : body,
  };
}

/** The fields `other` answered differently from `reference`; silence on either side is a status difference. */
export function differingFields(reference: Answer, other: Answer): Field[] {
  if (reference === null || other === null) return ['status'];
  return COMPARED.filter((f) => reference[f] !== other[f]);
}

async function pool<T>(items: readonly T[], n: number, f: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) await f(items[next++]!);
    }),
  );
}

/** Sends every case to the reference and every other target, and compares. `targets` holds the reference. */
export async function compareTargets(cases: readonly DiffCase[], targets: readonly TargetAddress[], options: CompareOptions): Promise<Comparison> {
  if (!targets.some((t) => t.target === REFERENCE)) throw new Error(`the comparison needs the reference target ${REFERENCE}`);
  const byCase = new Map<DiffCase, Map<Target, Answer>>();
  await pool(cases, options.concurrency, async (c) => {
    const answers = new Map<Target, Answer>();
    await Promise.all(targets.map(async (t) => answers.set(t.target, answerOf(await exchange(t.port, c.request, options.timeoutMs), options.sealedRequestState))));
    byCase.set(c, answers);
  });
  const alike = new Map<string, Map<Target, number>>();
  const counted = (operation: string, target: Target) => {
    const counts = alike.get(operation) ?? new Map<Target, number>();
    counts.set(target, (counts.get(target) ?? 0) + 1);
    alike.set(operation, counts);
  };
  let disagreements = 0;
  const results = cases.map((c): CaseResult => {
    const answers = byCase.get(c)!;
    const reference = answers.get(REFERENCE)!;
    const differences = new Map<Target, Field[]>();
    for (const t of targets) {
      if (t.target === REFERENCE) continue;
      const fields = differingFields(reference, answers.get(t.target)!);
      if (fields.length > 0) differences.set(t.target, fields);
      else if (c.operation !== undefined) counted(c.operation, t.target);
    }
    if (reference !== null && c.operation !== undefined) counted(c.operation, REFERENCE);
    if (reference === null || differences.size > 0) disagreements++;
    return { case: c, answers, differences };
  });
  return { results, disagreements, alike };
}

/** One answer in full, for a disagreement: status and compared headers on one line, the body as a JSON string. */
export function formatAnswer(a: Answer): string {
  if (a === null) return 'no answer';
  const head = COMPARED.filter((f) => f !== 'status' && f !== 'body' && a[f] !== '').map((f) => `${f}: ${a[f]}`);
  const body = Buffer.from(a.body, 'latin1').toString('utf8');
  return `${a.status}${head.length > 0 ? ` (${head.join('; ')})` : ''} body ${a.body.length} bytes ${JSON.stringify(body)}`;
}

/** The report lines of one case: `✓`/`✗`, the reference's status, the name; under a disagreement, both answers in full. */
export function caseLines(r: CaseResult): string[] {
  const reference = r.answers.get(REFERENCE)!;
  const status = reference === null ? '---' : reference.status;
  if (reference !== null && r.differences.size === 0) return [`  ✓ ${status} ${r.case.name}`];
  const lines = [`  ✗ ${status} ${r.case.name}`];
  if (r.differences.size === 0) lines.push(`      ${REFERENCE} (the reference) did not answer`);
  for (const [target, fields] of r.differences) {
    const other = r.answers.get(target)!;
    const what = reference === null ? (other === null ? 'did not answer, nor did the reference' : 'answered, the reference did not') : other === null ? 'did not answer' : `differs on ${fields.join(', ')}`;
    lines.push(`      ${target} ${what}`, `        ${REFERENCE.padEnd(16)} ${formatAnswer(reference)}`, `        ${target.padEnd(16)} ${formatAnswer(other)}`);
  }
  return lines;
}
