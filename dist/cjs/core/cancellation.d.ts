/**
 * How the driver tells an effect's work it stopped waiting (the effect's budget ran out, the
 * request's deadline passed, the client left), without an `AbortController` per effect: most work
 * is never abandoned. A real `AbortSignal` is made only when asked for (`fetch`, a handler reading
 * `ctx.signal`); the Node exchange and the router's request scope listen here directly (the scope
 * finds this object under `CANCELLATION` in the handler context). Where no AbortController exists
 * (Fastly JavaScript) it is itself what `ctx.signal` offers.
 */
export declare const CANCELLATION: unique symbol;
export declare class Cancellation {
    #private;
    aborted: boolean;
    reason: unknown;
    addEventListener(_type: 'abort', listener: () => void): void;
    removeEventListener(_type: 'abort', listener: () => void): void;
    cancel(reason?: unknown): void;
    /** A real `AbortSignal` following this cancellation, made on first use; none without AbortController. */
    get signal(): AbortSignal | undefined;
}
