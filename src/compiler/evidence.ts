/**
 * Measured target evidence for the inspection artifact: which targets a differential run served an
 * operation on, read from the report it writes (`pulse-mcp diff`: diff-evidence.json; the repository's
 * `npm run diff`: .test-results/diff-evidence.json; format
 * below). Only what the report states is taken; a report that cannot be about this build of the
 * router (another catalog hash, or an operation the router does not declare) is refused rather
 * than trusted, and no evidence is ever derived from eligibility.
 *
 *   { "formatVersion": 1, "kind": "pulse.diff-evidence", "date": "<ISO 8601, the run's start>",
 *     "routers": { "<routerId>": { "catalogHash": "sha256:…",
 *                                  "operations": { "<name>": { "<target>": <cases>, … } } } } }
 *
 * `<cases>` counts the run's `tools/call` requests naming the operation that the target answered
 * alike with the reference host (node-javascript itself: answered).
 */
import { fail } from './errors';
import { targetRefusal, type Target } from './types';

export const EVIDENCE_FORMAT_VERSION = 1;
export const EVIDENCE_KIND = 'pulse.diff-evidence';

/** One operation's evidence: the run's date and, per target it ran on, its number of cases. */
export interface OperationEvidence {
  readonly date: string;
  /** Sorted by target; empty when the run sent no case naming the operation. */
  readonly targets: readonly { readonly target: Target; readonly cases: number }[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const own = (o: Record<string, unknown>, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/**
 * Each operation's evidence from the report `text` (read from `where`), for router `routerId`
 * whose catalog hash is `catalogHash`. A report without that router gives every operation an
 * empty list: the run measured none of them.
 */
export function operationEvidence(
  text: string,
  where: string,
  router: { readonly routerId: string; readonly catalogHash: string; readonly operations: readonly string[] },
): ReadonlyMap<string, OperationEvidence> {
  let report: unknown;
  try {
    report = JSON.parse(text);
  } catch {
    return fail(`${where}: is not JSON; pass the report pulse-mcp diff writes (diff-evidence.json)`);
  }
  if (!isObject(report) || report.kind !== EVIDENCE_KIND) return fail(`${where}: kind must be "${EVIDENCE_KIND}" (the report pulse-mcp diff writes, diff-evidence.json)`);
  if (report.formatVersion !== EVIDENCE_FORMAT_VERSION) fail(`${where}: unknown formatVersion ${JSON.stringify(report.formatVersion)}; this release reads ${EVIDENCE_FORMAT_VERSION}`);
  const { date, routers } = report;
  if (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(date) || !Number.isFinite(Date.parse(date)))
    fail(`${where}: date must be the run's time in ISO 8601 UTC (2026-01-31T12:00:00.000Z)`);
  if (!isObject(routers)) return fail(`${where}: routers must be an object of router ids`);

  const measured = new Map<string, { target: Target; cases: number }[]>(router.operations.map((name) => [name, []]));
  if (own(routers, router.routerId)) {
    const at = `${where}: routers.${router.routerId}`;
    const entry = routers[router.routerId];
    if (!isObject(entry) || !isObject(entry.operations)) return fail(`${at}: must be { catalogHash, operations }`);
    for (const [name, counts] of Object.entries(entry.operations)) {
      const list = measured.get(name);
      if (list === undefined)
        fail(`${at}: names operation "${name}", which the router does not declare; the report is of another version of the router: run pulse-mcp diff again`);
      if (!isObject(counts)) fail(`${at}.operations.${name}: must map targets to numbers of cases`);
      for (const [target, cases] of Object.entries(counts)) {
        const refused = targetRefusal(`${at}.operations.${name}`, target);
        if (refused !== undefined) fail(refused);
        if (!Number.isSafeInteger(cases) || (cases as number) < 1) fail(`${at}.operations.${name}.${target}: must be a positive number of cases`);
        list.push({ target: target as Target, cases: cases as number });
      }
    }
    // Checked after the names, whose message says more; a description edited since the run fails here.
    if (entry.catalogHash !== router.catalogHash)
      fail(`${at}: measured catalog ${JSON.stringify(entry.catalogHash)}, not this build's ${router.catalogHash}; run pulse-mcp diff again`);
  }
  const out = new Map<string, OperationEvidence>();
  for (const [name, list] of measured) out.set(name, { date, targets: list.sort((a, b) => (a.target < b.target ? -1 : 1)) });
  return out;
}
