import type { Target } from '../../compiler/types';
/** A router a profile serves: from its embedded configuration, the tools the core was given. */
export interface Served {
    readonly routerId: string;
    readonly catalogHash: string;
    readonly operations: ReadonlySet<string>;
}
/** Per router id: its catalog hash and, per operation, the cases each target answered alike with the reference. */
export type Evidence = Map<string, {
    catalogHash: string;
    operations: Map<string, Map<Target, number>>;
}>;
/** Every router the run serves, each operation at zero cases; two builds of one router id cannot be told apart. */
export declare function evidenceOf(served: ReadonlyMap<string, Served>): Evidence;
export declare function count(evidence: Evidence, call: {
    routerId: string;
    name: string;
}, target: Target): void;
/** The report, routers and targets sorted; `date` is the run's start. */
export declare function evidenceReport(date: string, evidence: Evidence): unknown;
