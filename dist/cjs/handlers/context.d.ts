import type { McpCoreSource } from '../options';
import type { Budgets, OperationDefinition, RouterDefinition } from '../router/definition';
import { PulseRouterError } from '../router/errors';
/** What `ctx.signal` offers where no AbortController exists (Fastly JavaScript has none). */
export interface SignalLike {
    readonly aborted: boolean;
    readonly reason?: unknown;
    addEventListener(type: 'abort', listener: () => void): void;
    removeEventListener(type: 'abort', listener: () => void): void;
}
export interface KvStore {
    get(key: string): Promise<string | undefined> | string | undefined;
    put(key: string, value: string): Promise<void> | void;
    delete(key: string): Promise<void> | void;
}
export interface LogRecord {
    readonly level: 'debug' | 'info' | 'warn' | 'error';
    readonly operation: string;
    readonly message: string;
    readonly fields?: Readonly<Record<string, unknown>>;
    readonly time: number;
}
export type LogSink = (record: LogRecord) => void;
export interface Logger {
    debug(message: string, fields?: Record<string, unknown>): void;
    info(message: string, fields?: Record<string, unknown>): void;
    warn(message: string, fields?: Record<string, unknown>): void;
    error(message: string, fields?: Record<string, unknown>): void;
}
export interface ContextFetchInit {
    readonly method?: string;
    readonly headers?: Record<string, string> | [string, string][];
    readonly body?: string | Uint8Array | ArrayBuffer | null;
}
export interface HandlerContext {
    /** The operation this context runs. */
    readonly operation: string;
    /** Absolute deadline, milliseconds since the Unix epoch. */
    readonly deadline: number;
    /** Aborted at the deadline or when the host stops waiting. */
    readonly signal: AbortSignal | SignalLike;
    /** The router's static configuration values (frozen). */
    readonly config: Readonly<Record<string, string | number | boolean>>;
    /**
     * The client's answers to this operation's declared `inputs` (elicitation, sampling and roots
     * results, keyed as declared), checked for shape by the core; empty when it declares none and in
     * nested `ctx.call`s.
     */
    readonly inputResponses: Readonly<Record<string, unknown>>;
    /**
     * Reports progress when the client asked for it (`_meta.progressToken`) and the binding was made
     * with `progress: true`; otherwise does nothing.
     * The core bounds the reports (at most 32, strictly increasing) and drops the rest.
     */
    progress(progress: number, total?: number, message?: string): void;
    /** HTTP to a declared backend origin only; no redirects; the body is read within the byte budget. */
    fetch(url: string | URL, init?: ContextFetchInit): Promise<Response>;
    /** A host-provided secret; its value is masked in this request's logs. */
    secret(name: string): string | undefined;
    readonly kv: {
        get(key: string): Promise<string | undefined>;
        put(key: string, value: string): Promise<void>;
        delete(key: string): Promise<void>;
    };
    readonly log: Logger;
    /** Runs another operation of this router within the same request budgets. */
    call(operation: string, input?: unknown): Promise<unknown>;
}
export interface ContextOptions {
    /** Host-provided secrets; default none. */
    readonly secrets?: (name: string) => string | undefined;
    /** Host-provided KV store; default a bounded in-memory store owned by the tool source. */
    readonly kv?: KvStore;
    /** Where `ctx.log` records go; default nowhere. */
    readonly log?: LogSink;
    /** Where ctx.call's codec checks get the core (a `WebAssembly.Module` on workerd); default embedded. */
    readonly core?: McpCoreSource;
}
/** Nested ctx.call levels (the top-level handler is depth 0). */
export declare const MAX_CALL_DEPTH = 4;
/** KV operations per request, shared like the other budgets. */
export declare const KV_OPS_PER_REQUEST = 64;
/** Log records kept per request; later ones are dropped. */
export declare const LOG_RECORDS_PER_REQUEST = 64;
/** A bounded in-memory KV store (the default for Node and tests). */
export declare function createMemoryKv(maxKeys?: number): KvStore;
/** One request's shared budgets and effects. */
export declare class RequestScope {
    #private;
    readonly deadlineAt: number;
    readonly deadlineEpoch: number;
    fetchesLeft: number;
    bytesLeft: number;
    callsLeft: number;
    kvLeft: number;
    logsLeft: number;
    closed: boolean;
    constructor(budgetMs: number, budgets: Budgets, external?: AbortSignal | SignalLike);
    /** Aborted when the budget runs out or the request ends: outstanding fetches stop. */
    get signal(): AbortSignal | SignalLike;
    /** Whether the budget ran out (or the external signal fired). */
    get aborted(): boolean;
    remainingMs(): number;
    assertOpen(): void;
    /** Runs `work` until it settles or the budget expires, whichever comes first. */
    race<T>(work: () => T | Promise<T>): Promise<T>;
    close(): void;
    addSecret(value: string): void;
    redact(text: string): string;
}
/** What the core's codec decided for one ctx.call value (`Engine.check`). */
export type CheckResult = {
    ok: true;
    value: unknown;
} | {
    ok: false;
    path: string;
    message: string;
};
export interface ScopeEnvironment {
    readonly definition: RouterDefinition;
    /** Runs an operation's input or output codec in the core; throws when the core cannot answer. */
    readonly check: (op: string, direction: 'input' | 'output', value: unknown) => CheckResult;
    readonly operations: ReadonlyMap<string, OperationDefinition>;
    /** Origins of declared backends: ctx.fetch's allowlist. */
    readonly origins: ReadonlySet<string>;
    readonly options: ContextOptions;
    readonly kv: KvStore;
}
/** Builds the context of `operation` at call depth `depth` over a shared scope. */
export declare function createContext(env: ScopeEnvironment, scope: RequestScope, operation: string, depth: number, inputResponses?: Readonly<Record<string, unknown>>, report?: ((progress: number, total?: number, message?: string) => void) | undefined): HandlerContext;
/**
 * A ctx.call value the core's codec rejected (code `PULSE_ERR_CALL`). The message is fixed text plus
 * the core's path and fixed codec message; the value itself is never echoed.
 */
export declare class PulseCallValidationError extends PulseRouterError {
    readonly operation: string;
    readonly direction: 'input' | 'output';
    /** Where the codec stopped, e.g. `$.count` (from the core, bounded). */
    readonly path: string;
    /** The codec's fixed message, e.g. `Expected an integer` (from the core, bounded). */
    readonly reason: string;
    constructor(operation: string, direction: 'input' | 'output', path: string, reason: string);
}
export type HandlerOutcome = {
    ok: true;
    output: unknown;
} | {
    ok: false;
};
export interface HandlerRunner {
    /** Whether any operation has a JavaScript handler. */
    readonly hasJavaScript: boolean;
    /** Settled at once (no promise) when the handler returned a value rather than a promise. */
    run(op: string, input: unknown, opts: {
        timeoutMs: number;
        signal?: AbortSignal | SignalLike;
    }): HandlerOutcome | Promise<HandlerOutcome>;
}
/**
 * Runs the JavaScript handler for one core `handler` instruction. Every failure — unknown operation,
 * throw, rejection, timeout, output that is not plain JSON — is `{ ok: false }` with nothing of the
 * exception attached; the core turns it into a fixed-message tool error.
 */
export declare function createHandlerRunner(definition: RouterDefinition, options?: ContextOptions, manifest?: unknown): HandlerRunner;
