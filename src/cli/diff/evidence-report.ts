/**
 * The differential run's evidence report: per router it served and per operation, how many of the
 * run's `tools/call` cases naming it each target answered alike with the reference (node-javascript;
 * for the reference itself, that it answered). The format is the one `pulse-mcp build --evidence`
 * reads (../../compiler/evidence); `pulse-mcp diff` and the repository's own run both write it here.
 */
import { EVIDENCE_FORMAT_VERSION, EVIDENCE_KIND } from '../../compiler/evidence';
import type { Target } from '../../compiler/types';

/** A router a profile serves: from its embedded configuration, the tools the core was given. */
export interface Served {
  readonly routerId: string;
  readonly catalogHash: string;
  readonly operations: ReadonlySet<string>;
}

/** Per router id: its catalog hash and, per operation, the cases each target answered alike with the reference. */
export type Evidence = Map<string, { catalogHash: string; operations: Map<string, Map<Target, number>> }>;

/** Every router the run serves, each operation at zero cases; two builds of one router id cannot be told apart. */
export function evidenceOf(served: ReadonlyMap<string, Served>): Evidence {
  const out: Evidence = new Map();
  for (const s of served.values()) {
    const known = out.get(s.routerId);
    if (known !== undefined && known.catalogHash !== s.catalogHash) throw new Error(`diff: two profiles serve router ${s.routerId} with different catalogs; give one of them another router id`);
    const operations = known?.operations ?? new Map<string, Map<Target, number>>();
    for (const name of s.operations) if (!operations.has(name)) operations.set(name, new Map());
    out.set(s.routerId, { catalogHash: s.catalogHash, operations });
  }
  return out;
}

export function count(evidence: Evidence, call: { routerId: string; name: string }, target: Target): void {
  const counts = evidence.get(call.routerId)!.operations.get(call.name)!;
  counts.set(target, (counts.get(target) ?? 0) + 1);
}

/** The report, routers and targets sorted; `date` is the run's start. */
export function evidenceReport(date: string, evidence: Evidence): unknown {
  const byName = <T>(a: [string, T], b: [string, T]) => (a[0] < b[0] ? -1 : 1);
  const routers: Record<string, unknown> = {};
  for (const [id, r] of [...evidence].sort(byName)) {
    const operations: Record<string, Record<string, number>> = {};
    for (const [name, counts] of r.operations) operations[name] = Object.fromEntries([...counts].sort(byName));
    routers[id] = { catalogHash: r.catalogHash, operations };
  }
  return { formatVersion: EVIDENCE_FORMAT_VERSION, kind: EVIDENCE_KIND, date, routers };
}
