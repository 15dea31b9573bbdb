import type { McpCoreSource } from '../options';
import type { CoreEvent } from '../telemetry/channel';
export type HeaderPair = readonly [name: string, value: string];
export interface ContinueAction {
    readonly kind: 'continue';
}
export interface RespondAction {
    readonly kind: 'respond';
    readonly status: number;
    /** Verbatim from the core, without `connection` (each host closes in its own way). */
    readonly headers: readonly HeaderPair[];
    readonly body: Uint8Array;
    /** The core answered before the body was complete: stop reading and close. */
    readonly close: boolean;
}
/** One outbound HTTP exchange: send exactly this, follow no redirect, never retry. */
export interface HttpEffect {
    readonly kind: 'http';
    readonly backend: string;
    readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    readonly url: string;
    readonly headers: readonly HeaderPair[];
    /** Absent: no body at all. */
    readonly body?: string;
    /** Stop reading once more than this many bytes arrived; the core judges the size. */
    readonly maxBytes: number;
    readonly timeoutMs: number;
    /**
     * Token introspection with `authorization.cache` only: the key of the host's stored entry. With a
     * fresh entry the host answers `CoreRequest.cached` instead of performing the exchange.
     */
    readonly cacheKey?: string;
}
/** What the host keeps after an introspection: `value` under `key` for at most `ttlMs`. */
export interface CacheEntry {
    readonly key: string;
    readonly ttlMs: number;
    readonly value: string;
}
/** One JavaScript handler run; `input` is absent for an operation without input. */
export interface HandlerEffect {
    readonly kind: 'handler';
    readonly op: string;
    readonly input?: unknown;
    /** The client's answers to the tool's declared inputs (a JSON object), when it declares any. */
    readonly inputResponses?: Readonly<Record<string, unknown>>;
    /** The client asked for progress: forward the handler's reports with `CoreRequest.progress`. */
    readonly progress?: true;
    readonly timeoutMs: number;
}
/**
 * What one progress report became: dropped (a bound or the order refused it), the first event
 * (send `head`, whose body is the event, and keep the response open), or a later event's bytes.
 * Once a report was sent, the final reply is the stream's last event: write its body only.
 */
export type ProgressEvent = undefined | {
    readonly kind: 'first';
    readonly head: RespondAction;
} | {
    readonly kind: 'next';
    readonly bytes: Uint8Array;
};
/**
 * One operation of the rate limits on the host's store (the core decides the entry, the budget and
 * what the answer means): `count` looks `entry` up in the penalty box and, when not boxed and
 * `charge`, counts it once now and reports its count over the last `windowS` seconds; `penalize`
 * puts it in the penalty box for `ttlS` seconds.
 */
export type RateEffect = {
    readonly kind: 'rate';
    readonly rateCounter: string;
    readonly penaltyBox: string;
    readonly entry: string;
} & ({
    readonly op: 'count';
    readonly windowS: number;
    readonly charge: boolean;
} | {
    readonly op: 'penalize';
    readonly ttlS: number;
});
/** The store's answer to a rate effect; `failed` when it could not answer (the core admits the request). */
export type RateAnswer = {
    readonly kind: 'counted';
    readonly count: number;
} | {
    readonly kind: 'boxed';
} | {
    readonly kind: 'penalized';
} | {
    readonly kind: 'failed';
};
export type Effect = HttpEffect | HandlerEffect | RateEffect;
export interface PerformAction {
    readonly kind: 'perform';
    readonly effect: Effect;
}
export type Action = ContinueAction | RespondAction | PerformAction;
/** HTTP faults a host's own parser reports (see `Engine.fault`). */
export type HostFault = 'bodyInterrupted' | 'malformedFraming' | 'headTooLarge';
/** Why an HTTP exchange produced no response. */
export type HttpFailure = 'unreachable' | 'timedOut';
/**
 * What a host sends when the core cannot answer (MISUSE, a trap, a broken record). It cannot ask
 * the core then, so the bytes live here; a test holds them equal to the core's own
 * `Engine.fault('internal')` (Rust hosts use that directly).
 */
export declare function internalError(): RespondAction;
/**
 * Copies reply bytes out of the core's memory. The default gives each its own buffer; the Node host,
 * which only writes them to a socket, passes a pooled copy (a small `ArrayBuffer` of its own costs
 * more than the reply).
 */
export type CopyOut = (view: Uint8Array) => Uint8Array;
export declare class Engine {
    private readonly configJson;
    private readonly source;
    private core;
    private handle;
    private poisoned;
    /** Bumped on every rebuild, so requests of a discarded instance never touch the new one. */
    private generation;
    private constructor();
    /** Instantiates the core and builds its engine; throws `PulseConfigError` with the core's message. */
    static create(configJson: string, source?: McpCoreSource, copyOut?: CopyOut): Engine;
    private static newEngine;
    /** Marks instance `generation` unusable after a trap; the next request rebuilds it. */
    poison(generation: number): void;
    /**
     * Starts one request at monotonic `now`; `epochMs` (wall clock, ms since the Unix epoch) dates the
     * expiry of multi-round `requestState`.
     */
    request(now: number, epochMs?: number): CoreRequest;
    /**
     * The reply to an HTTP fault the host's own parser detected (the core never saw the request):
     * an interrupted body (408), malformed framing (400) or an oversized head (431). The core chooses
     * the bytes, so every host answers alike; a trap yields the host's own 500.
     */
    fault(kind: HostFault | 'internal'): RespondAction;
    /** The request event of `fault`'s reply (native/core/src/event.rs); `undefined` when the core has none. */
    faultEvent(kind: HostFault): CoreEvent | undefined;
    /**
     * The Fastly resources this engine's configuration names (`pulse_engine_service_names`): backends,
     * secret stores and log endpoints, each with the option that names it. The Native build checks them
     * against the project's fastly.toml. Throws `PulseCoreError` (fixed message) on a trap.
     */
    serviceNames(): ServiceNames;
    /**
     * Runs `op`'s input or output codec in the core (`pulse_engine_check`), so every host agrees on
     * what is valid. `value` must be plain JSON; `undefined` means absent. A valid value comes back in
     * canonical decoded form (`undefined` for a tool without input: no params); a rejection carries
     * the core's path and fixed message, never the value. Throws `PulseCoreError` (fixed message) for
     * an unknown operation, an engine without tools, or a trap (which poisons the instance; `request`
     * rebuilds it).
     */
    check(op: string, direction: 'input' | 'output', value: unknown): {
        ok: true;
        value: unknown;
    } | {
        ok: false;
        path: string;
        message: string;
    };
}
/** A Fastly resource a configuration names, and the option that names it. */
export interface ServiceName {
    readonly name: string;
    readonly option: string;
}
/** What `Engine.serviceNames()` returns (native/core/src/service_names.rs). */
export interface ServiceNames {
    readonly backends: readonly ServiceName[];
    readonly secretStores: readonly (ServiceName & {
        readonly key: string;
    })[];
    readonly logEndpoints: readonly ServiceName[];
}
export type CorpusIndexResult = {
    ok: true;
    index: unknown;
} | {
    ok: false;
    message: string;
};
/**
 * Builds corpus indexes in the core (`pulse_corpus_index`), so entries are indexed by the tokenizer
 * that reads queries. One instance of `source`, made on first use, serves every definition given to
 * the returned function; a definition is its JSON text, and a rejection carries the core's message.
 * A trap throws `PulseCoreError`.
 */
export declare function corpusIndexer(source?: McpCoreSource): (definitionJson: string) => CorpusIndexResult;
/** One request's state inside the core. Always `free()` it (try/finally). */
export declare class CoreRequest {
    private readonly engine;
    private readonly core;
    private readonly req;
    private readonly generation;
    private freed;
    /**
     * `headers` flat, `[name, value, name, value…]`, as Node's `rawHeaders` already is. `client` is the
     * client's address as the host knows it (the rate limits' key per address); the core ignores text
     * that is no IP address.
     */
    head(method: string, target: string, headers: readonly string[], now: number, client?: string): Action;
    body(chunk: Uint8Array, now: number): Action;
    end(now: number): Action;
    abort(now: number): Action;
    tick(now: number): Action;
    /** The pending HTTP effect's status and the body bytes read. */
    httpResponse(status: number, body: Uint8Array, now: number): Action;
    httpFailure(reason: HttpFailure, now: number): Action;
    /** The pending introspection answered from the host's fresh entry under its `cacheKey`. */
    cached(value: string, now: number): Action;
    /** The pending rate effect's answer from the host's store. */
    rate(answer: RateAnswer, now: number): Action;
    /** The entry to keep after an introspection the host performed, once; `undefined` when none. */
    cacheEntry(): CacheEntry | undefined;
    /** The pending handler's output as JSON text. */
    handlerOutput(json: string, now: number): Action;
    handlerFailure(now: number): Action;
    /** A progress report of the pending handler; the core bounds and frames it. */
    progress(progress: number, total: number | undefined, message: string | undefined, now: number): ProgressEvent;
    /** Milliseconds the host may wait for its next event; 0 when already expired. */
    timeoutMs(now: number): number;
    /** The finished request's event (native/core/src/event.rs); `undefined` when the core has none. */
    event(): CoreEvent | undefined;
    /** Reads the request's output with `read`, `undefined` when it lies outside memory; throws as the core does. */
    private readOutput;
    free(): void;
    /** Whether the core may still be called for this request. */
    private live;
    /** The core trapped: its instance is discarded and the host answers its own 500. */
    private broken;
    /**
     * One call into the core for this request, with `input` in its memory for the call's duration
     * (text: a head one byte per character, handler output as UTF-8 straight from the string), then
     * its answer. A trap poisons the instance. One method, no closure: every request makes several.
     */
    private step;
    /** What the core answered with `code`, read from its output before any other call into it. */
    private settle;
}
