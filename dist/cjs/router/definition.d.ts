/**
 * The frozen, plain-data shape of a declared router: what `EntityRouter` records and what the
 * compiler reads. Only `javascript` handlers carry a function; the compiler never calls it.
 */
import type { CodecDescriptor } from './codec-types';
export interface ToolHints {
    readonly readOnlyHint?: boolean;
    readonly destructiveHint?: boolean;
    readonly idempotentHint?: boolean;
    readonly openWorldHint?: boolean;
}
/** Native kinds run inside the core on every target; `javascript` runs in JavaScript hosts only. */
export type HandlerDefinition = {
    readonly kind: 'static';
    readonly result: unknown;
} | {
    readonly kind: 'corpus';
    readonly corpus: string;
    /** search: bounded full-text top-k; read: one entry by id; list: entries of a collection. */
    readonly action: 'search' | 'read' | 'list';
    readonly topK?: number;
    readonly maxBytes?: number;
} | {
    readonly kind: 'backend';
    readonly backend: string;
    readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    readonly path: string;
    readonly maxBytes: number;
    readonly timeoutMs: number;
} | {
    readonly kind: 'javascript';
    readonly fn: (ctx: unknown, input: unknown) => unknown;
};
export interface OperationDefinition {
    readonly name: string;
    readonly title?: string;
    readonly description?: string;
    readonly hints?: ToolHints;
    /** An object codec, or undefined for a tool that takes no input (`{}` only). */
    readonly input?: CodecDescriptor;
    /** Undefined for a tool with no output (its result text is `null`). */
    readonly output?: CodecDescriptor;
    /** The result is MCP content blocks (text, image, audio, resource, resource link), not output. */
    readonly content?: boolean;
    /** Rounds of input the client must supply before the handler runs (multi-round requests). */
    readonly inputs?: readonly InputRound[];
    /** Input field → `Mcp-Param-<Name>` header name (`x-mcp-header`). */
    readonly headerParams?: Readonly<Record<string, string>>;
    /** Reachable only with the backend's service credential (a catalog-backed host needs its token). */
    readonly authenticated?: boolean;
    readonly handler: HandlerDefinition;
}
/** One client request of a round: `elicitation/create`, `sampling/createMessage` or `roots/list`. */
export interface InputRequest {
    readonly method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
    readonly params?: Readonly<Record<string, unknown>>;
    /** Not required: the round completes without it when the client lacks the capability. */
    readonly optional?: boolean;
}
/** Requests the client answers together, keyed by the name the handler reads them under. */
export type InputRound = Readonly<Record<string, InputRequest>>;
export interface CorpusEntry {
    readonly id: string;
    readonly title: string;
    readonly collection: string;
    readonly text: string;
    readonly tags?: readonly string[];
}
export interface CorpusDefinition {
    readonly version: string;
    readonly entries: readonly CorpusEntry[];
}
export interface Budgets {
    readonly deadlineMs: number;
    readonly fetches: number;
    readonly fetchBytes: number;
    readonly calls: number;
}
export interface RouterDefinition {
    readonly id: string;
    readonly operations: readonly OperationDefinition[];
    readonly corpora: Readonly<Record<string, CorpusDefinition>>;
    /** Declared backends: the only destinations of `backend` handlers and of `ctx.fetch`. */
    readonly backends: Readonly<Record<string, {
        readonly url: string;
    }>>;
    readonly config: Readonly<Record<string, string | number | boolean>>;
    readonly budgets: Budgets;
}
