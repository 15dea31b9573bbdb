/**
 * Handler builders for the native kinds (static, corpus, backend), which run inside the core on every
 * target. A plain function passed as `handler` is the `javascript` kind instead (JavaScript hosts only).
 */
import type { HandlerDefinition } from '../router/definition';
import { BACKEND_METHODS } from '../router/rules';
export type NativeHandler = Exclude<HandlerDefinition, {
    kind: 'javascript';
}>;
export declare function isNativeHandler(v: unknown): v is NativeHandler;
/**
 * True when `v` is plain JSON data (no functions, cycles, non-finite numbers, class instances) of at
 * most STATIC_RESULT_DEPTH nested arrays and objects, counted as the core counts them.
 */
export declare function isPlainJson(v: unknown, outer?: number): boolean;
export declare function utf8Length(s: string): number;
export declare function deepFreeze<T>(v: T): T;
/**
 * The JSON text of a static result within the core's rule (STATIC_RESULT_RULE), or `undefined`:
 * checked early, for the router and the compiler; the core checks the manifest again.
 */
export declare function staticResultText(value: unknown): string | undefined;
/** A fixed result, copied and frozen at declaration. */
declare function staticResult(value: unknown): NativeHandler;
/** Bounded corpus access: `search` (top-k full text), `read` (one entry by id), `list` (all entries). */
declare function corpus(opts: {
    corpus: string;
    action: 'search' | 'read' | 'list';
    topK?: number;
    maxBytes?: number;
}): NativeHandler;
/** One governed HTTP call to a declared backend; the core builds the body from the decoded input. */
declare function backend(opts: {
    backend: string;
    method: (typeof BACKEND_METHODS)[number];
    path: string;
    maxBytes: number;
    timeoutMs: number;
}): NativeHandler;
export declare const handlers: Readonly<{
    static: typeof staticResult;
    corpus: typeof corpus;
    backend: typeof backend;
}>;
export {};
