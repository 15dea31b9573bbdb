import type { WireRequest } from './http';
export interface DiffCase {
    readonly name: string;
    readonly request: WireRequest;
    /** The declared operation a `tools/call` case names: what the evidence counts. */
    readonly operation?: string;
}
/** A declared operation as `tools/list` publishes it. */
export interface DeclaredOperation {
    readonly name: string;
    readonly inputSchema: Readonly<Record<string, unknown>>;
}
/** Where the service answers and the admission limits the cases are built at. */
export interface Admission {
    /** The endpoint's exact path. */
    readonly path: string;
    readonly requestBytes: number;
    readonly depth: number;
}
/** The `tools/list` request, whose answer lists the operations and their inputSchemas. */
export declare function toolsListRequest(path: string): WireRequest;
/** Every case for a service declaring `operations`, served at `admission.path` and admitted at its limits. */
export declare function diffCases(operations: readonly DeclaredOperation[], admission: Admission): DiffCase[];
