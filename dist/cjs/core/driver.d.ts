/**
 * The TypeScript mirror of the core's Rust driver (`native/core/src/driver.rs`): the same loop over
 * one request, every wait bounded by the core's `timeoutMs()`, effects performed and answered
 * with typed calls, and the same guard against a core that keeps answering `continue` with no time
 * left. Adapters only translate their runtime's request, body and response objects.
 */
import type { McpHandlerRunner, ResolvedOptions } from '../options';
import { Cancellation } from './cancellation';
import { Engine, type CacheEntry, type CopyOut, type HttpEffect, type RateAnswer, type RateEffect, type RespondAction } from './engine';
export type ReadResult = {
    readonly done: false;
    readonly chunk: Uint8Array;
} | {
    readonly done: true;
} | {
    readonly error: true;
    readonly done?: undefined;
};
/** A request body as the driver pulls it: at most one `read()` outstanding. */
export interface BodySource {
    read(): Promise<ReadResult>;
    /**
     * What `read()` would give at once, without waiting (a chunk or the end the runtime already
     * holds), or `undefined`. Lets the driver skip arming a timer for a wait that cannot happen.
     */
    poll?(): ReadResult | undefined;
    /** Release the source without waiting for it (an uncooperative source may never settle). */
    cancel(): void;
}
export interface RequestHead {
    readonly method: string;
    readonly target: string;
    /** Flat `[name, value, name, value…]`, the form of Node's `rawHeaders`. */
    readonly headers: readonly string[];
    /** The client's address (the TCP peer, or what a trusted proxy vouches for), when the host knows it. */
    readonly client?: string | undefined;
}
export interface Outcome {
    /** When `streamed`, its body is the stream's last event: write the body only, then end. */
    readonly response: RespondAction;
    /** A progress event was sent through the host's `StreamSink`: the head is already written. */
    readonly streamed: boolean;
    /** The body was read to its end; otherwise the host must not reuse the connection. */
    readonly bodyComplete: boolean;
    /** The client went away; nothing should be sent. */
    readonly gone: boolean;
}
/**
 * Where a host writes an event-stream reply as it happens (progress of a JavaScript handler). The
 * first event comes with the reply head; later events are raw bytes. Hosts that cannot stream pass
 * none, and their handlers get no `progress` function.
 */
export interface StreamSink {
    start(head: RespondAction): void;
    write(bytes: Uint8Array): void;
}
/** Resolves once when the client goes away. */
export interface Departure {
    readonly promise: Promise<void>;
    readonly gone: boolean;
}
/** Monotonic milliseconds; the core never reads a clock. */
export type Clock = () => number;
/** What one handler (of either host) is built from: its engine and its JavaScript handler runner. */
export interface HostCore {
    readonly engine: Engine;
    /** The admitted request body size (`limits.requestBytes`). */
    readonly requestBytes: number;
    readonly handlers: McpHandlerRunner | undefined;
    /** How this host performs an HTTP effect's exchange. */
    readonly exchange: HttpExchange;
    /** The host's monotonic clock; the runtime's when absent. */
    readonly now?: Clock;
    /** The introspection cache's store, with `authorization.cache` only. */
    readonly cache?: IntrospectionCache;
    /** The rate limits' store, with `rateLimit` only. */
    readonly rates?: RateCounter;
}
/** Where a host counts for the rate limits: the core decides entries, budgets and replies. */
export interface RateCounter {
    /** Performs `effect` at `now` (the host clock's milliseconds). */
    perform(effect: RateEffect, now: number): RateAnswer;
}
/** Where a host keeps introspection results: the core decides keys, values and ttls. */
export interface IntrospectionCache {
    /** The fresh value under `key`, or `undefined`. */
    get(key: string): string | undefined;
    set(entry: CacheEntry): void;
}
export type HttpResult = {
    status: number;
    body: Uint8Array;
} | 'unreachable';
/**
 * One HTTP effect's exchange: exactly the effect's method, URL, headers and body (the runtime adds
 * only framing), no redirect followed, the body read until its end or until more than `maxBytes`
 * arrived; `'unreachable'` for any failure. `cancellation` abandons it. The driver bounds the wait.
 */
export type HttpExchange = (effect: HttpEffect, cancellation: Cancellation) => Promise<HttpResult>;
/** How a host performs effects and takes reply bytes out of the core; each has a portable default. */
export interface HostIo {
    readonly exchange?: HttpExchange;
    readonly copyOut?: CopyOut;
    /** A clock other than the runtime's monotonic one (a scripted host's). */
    readonly now?: Clock;
}
/** Instantiates the core for options already snapshotted; throws `PulseConfigError`. */
export declare function createHostCore(resolved: ResolvedOptions, io?: HostIo): HostCore;
/**
 * Runs one request through the core to its response. Never throws for request-caused conditions;
 * the core decides every status.
 */
export declare function drive(host: HostCore, head: RequestHead, body: BodySource | null, departure: Departure | undefined, sink?: StreamSink): Promise<Outcome>;
/** The exchange through the runtime's `fetch` (the Fetch host's; `redirect: 'manual'`). */
export declare function fetchExchange(effect: HttpEffect, cancellation: Cancellation): Promise<HttpResult>;
