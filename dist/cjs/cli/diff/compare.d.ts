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
import { type WireResponse } from './http';
export declare const REFERENCE: Target;
export declare const COMPARED: readonly ["status", "content-type", "cache-control", "allow", "www-authenticate", "body"];
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
export declare function answerOf(res: WireResponse | null, sealedRequestState: boolean): Answer;
/** The fields `other` answered differently from `reference`; silence on either side is a status difference. */
export declare function differingFields(reference: Answer, other: Answer): Field[];
/** Sends every case to the reference and every other target, and compares. `targets` holds the reference. */
export declare function compareTargets(cases: readonly DiffCase[], targets: readonly TargetAddress[], options: CompareOptions): Promise<Comparison>;
/** One answer in full, for a disagreement: status and compared headers on one line, the body as a JSON string. */
export declare function formatAnswer(a: Answer): string;
/** The report lines of one case: `✓`/`✗`, the reference's status, the name; under a disagreement, both answers in full. */
export declare function caseLines(r: CaseResult): string[];
