/**
 * The Node and Fetch hosts' store for the introspection cache (`authorization.cache`): one per
 * handler, least recently used first out, bounded by entries and by bytes, each entry forgotten at
 * its ttl. The core decides keys, values and ttls (`native/core/src/introspection_cache.rs`); this
 * only keeps them, and may forget sooner.
 */
import type { CacheEntry } from './engine';
import type { Clock, IntrospectionCache } from './driver';
export declare class IntrospectionStore implements IntrospectionCache {
    private readonly maxEntries;
    private readonly maxBytes;
    private readonly now;
    /** Insertion order is recency: a hit moves its entry to the end; eviction takes the first. */
    private readonly entries;
    private used;
    constructor(maxEntries: number, maxBytes: number, now: Clock);
    /** The fresh value under `key`, or `undefined` (an expired one is dropped). */
    get(key: string): string | undefined;
    /** Keeps `entry` for its ttl, evicting the least recently used until both bounds hold. */
    set(entry: CacheEntry): void;
    /** Entries and bytes held now (expired ones count until looked up or evicted). */
    get size(): {
        readonly entries: number;
        readonly bytes: number;
    };
}
