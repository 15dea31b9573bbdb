/**
 * The Node and Fetch hosts' store for the introspection cache (`authorization.cache`): one per
 * handler, least recently used first out, bounded by entries and by bytes, each entry forgotten at
 * its ttl. The core decides keys, values and ttls (`native/core/src/introspection_cache.rs`); this
 * only keeps them, and may forget sooner.
 */
import type { CacheEntry } from './engine';
import type { Clock, IntrospectionCache } from './driver';

interface Kept {
  readonly value: string;
  /** The host clock's time at which the entry is forgotten. */
  readonly until: number;
  readonly bytes: number;
}

const encoder = new TextEncoder();

export class IntrospectionStore implements IntrospectionCache {
  /** Insertion order is recency: a hit moves its entry to the end; eviction takes the first. */
  private readonly entries = new Map<string, Kept>();
  private used = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
    private readonly now: Clock,
  ) {}

  /** The fresh value under `key`, or `undefined` (an expired one is dropped). */
  get(key: string): string | undefined {
    const kept = this.entries.get(key);
    if (kept === undefined) return undefined;
    this.entries.delete(key);
    if (this.now() >= kept.until) {
      this.used -= kept.bytes;
      return undefined;
    }
    this.entries.set(key, kept);
    return kept.value;
  }

  /** Keeps `entry` for its ttl, evicting the least recently used until both bounds hold. */
  set(entry: CacheEntry): void {
    const bytes = entry.key.length + encoder.encode(entry.value).length;
    const old = this.entries.get(entry.key);
    if (old !== undefined) {
      this.entries.delete(entry.key);
      this.used -= old.bytes;
    }
    if (bytes > this.maxBytes || entry.ttlMs <= 0) return;
    this.entries.set(entry.key, { value: entry.value, until: this.now() + entry.ttlMs, bytes });
    this.used += bytes;
    for (const [key, kept] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.used <= this.maxBytes) break;
      this.entries.delete(key);
      this.used -= kept.bytes;
    }
  }

  /** Entries and bytes held now (expired ones count until looked up or evicted). */
  get size(): { readonly entries: number; readonly bytes: number } {
    return { entries: this.entries.size, bytes: this.used };
  }
}
