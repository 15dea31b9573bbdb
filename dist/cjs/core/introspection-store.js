"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.IntrospectionStore = void 0;
const encoder = new TextEncoder();
class IntrospectionStore {
    maxEntries;
    maxBytes;
    now;
    /** Insertion order is recency: a hit moves its entry to the end; eviction takes the first. */
    entries = new Map();
    used = 0;
    constructor(maxEntries, maxBytes, now) {
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
        this.now = now;
    }
    /** The fresh value under `key`, or `undefined` (an expired one is dropped). */
    get(key) {
        const kept = this.entries.get(key);
        if (kept === undefined)
            return undefined;
        this.entries.delete(key);
        if (this.now() >= kept.until) {
            this.used -= kept.bytes;
            return undefined;
        }
        this.entries.set(key, kept);
        return kept.value;
    }
    /** Keeps `entry` for its ttl, evicting the least recently used until both bounds hold. */
    set(entry) {
        const bytes = entry.key.length + encoder.encode(entry.value).length;
        const old = this.entries.get(entry.key);
        if (old !== undefined) {
            this.entries.delete(entry.key);
            this.used -= old.bytes;
        }
        if (bytes > this.maxBytes || entry.ttlMs <= 0)
            return;
        this.entries.set(entry.key, { value: entry.value, until: this.now() + entry.ttlMs, bytes });
        this.used += bytes;
        for (const [key, kept] of this.entries) {
            if (this.entries.size <= this.maxEntries && this.used <= this.maxBytes)
                break;
            this.entries.delete(key);
            this.used -= kept.bytes;
        }
    }
    /** Entries and bytes held now (expired ones count until looked up or evicted). */
    get size() {
        return { entries: this.entries.size, bytes: this.used };
    }
}
exports.IntrospectionStore = IntrospectionStore;
