import { type Target } from './types';
export declare const EVIDENCE_FORMAT_VERSION = 1;
export declare const EVIDENCE_KIND = "pulse.diff-evidence";
/** One operation's evidence: the run's date and, per target it ran on, its number of cases. */
export interface OperationEvidence {
    readonly date: string;
    /** Sorted by target; empty when the run sent no case naming the operation. */
    readonly targets: readonly {
        readonly target: Target;
        readonly cases: number;
    }[];
}
/**
 * Each operation's evidence from the report `text` (read from `where`), for router `routerId`
 * whose catalog hash is `catalogHash`. A report without that router gives every operation an
 * empty list: the run measured none of them.
 */
export declare function operationEvidence(text: string, where: string, router: {
    readonly routerId: string;
    readonly catalogHash: string;
    readonly operations: readonly string[];
}): ReadonlyMap<string, OperationEvidence>;
