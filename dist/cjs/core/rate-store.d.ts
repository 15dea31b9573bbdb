/**
 * The Node and Fetch hosts' store for the rate limits (`rateLimit`): one per handler, counts in
 * one-second buckets and a penalty box, least recently used first out, bounded by entries and by
 * bytes. The core decides entries, windows, limits and penalties (`native/core/src/rate_limit.rs`);
 * this only counts, the way Fastly's Edge Rate Limiting counts for the Native service (a count over
 * the last `windowS` whole seconds, a penalty box entry until its ttl), and may forget sooner: a
 * forgotten caller starts again from zero.
 */
import type { RateAnswer, RateEffect } from './engine';
export declare class RateStore {
    private readonly maxEntries;
    private readonly maxBytes;
    /**
     * Tables by name, so that an entry is found without building a key. A name's table stays when
     * empty: the names are the configuration's (a rate counter and a penalty box).
     */
    private readonly counters;
    private readonly boxes;
    private oldest;
    private newest;
    private held;
    private boxed;
    private used;
    constructor(maxEntries: number, maxBytes: number);
    /** Performs `effect` at once, at `at` (the host clock's milliseconds); an in-process store always answers. */
    perform(effect: RateEffect, at: number): RateAnswer;
    /** Entries and bytes held now (expired ones count until used or evicted). */
    get size(): {
        readonly entries: number;
        readonly bytes: number;
    };
    /** Keeps `e` in its table (in place of what it held there), evicting the least recently used until both bounds hold. */
    private put;
    private remove;
    /** A use: `e` becomes the newest. */
    private touch;
    private link;
    private unlink;
}
