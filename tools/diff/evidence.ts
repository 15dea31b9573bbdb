/**
 * The repository run's side of the evidence report (.test-results/diff-evidence.json): which
 * operation a corpus case calls. The report itself is written by src/cli/diff/evidence-report.ts,
 * shared with `pulse-mcp diff`; its format is the one `pulse-mcp build --evidence` reads
 * (src/compiler/evidence.ts).
 */
import type { Served } from '../../src/cli/diff/evidence-report';
import type { Case } from './corpus';

/** The operation a case's `tools/call` names, when the profile serves it; discovery, unknown tools and unreadable bodies name none. */
export function calledOperation(c: Case, served: Served | undefined): { routerId: string; name: string } | undefined {
  if (served === undefined) return undefined;
  const r = c.request;
  const parts = r.chunks ?? (r.body === undefined ? [] : [r.body]);
  const text = Buffer.concat(parts.map((b) => (typeof b === 'string' ? Buffer.from(b, 'utf8') : Buffer.from(b)))).toString('utf8');
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined;
  }
  const m = message as { method?: unknown; params?: { name?: unknown } } | null;
  if (m === null || typeof m !== 'object' || m.method !== 'tools/call' || typeof m.params?.name !== 'string') return undefined;
  return served.operations.has(m.params.name) ? { routerId: served.routerId, name: m.params.name } : undefined;
}
