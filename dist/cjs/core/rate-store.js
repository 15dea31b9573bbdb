"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RateStore = void 0;
/** Seconds of counts an entry keeps: the longest window (Fastly's rate counters count up to 60 s). */
const SECONDS = 60;
/**
 * What an entry holds beside the characters of its identity, for the `maxBytes` bound: measured on
 * Node 20, a counter is about 300 bytes of objects and table slot plus its buckets' 240 outside the
 * heap; a penalty box entry about 150.
 */
const COUNTER_BYTES = SECONDS * 4 + 320;
const BOXED_BYTES = 160;
/** What an entry's identity holds beside the characters of its name and its entry, for the `maxBytes` bound. */
const KEY_BYTES = 3;
const COUNTED_NOTHING = Object.freeze({ kind: 'counted', count: 0 });
const BOXED = Object.freeze({ kind: 'boxed' });
const PENALIZED = Object.freeze({ kind: 'penalized' });
class RateStore {
    maxEntries;
    maxBytes;
    /**
     * Tables by name, so that an entry is found without building a key. A name's table stays when
     * empty: the names are the configuration's (a rate counter and a penalty box).
     */
    counters = new Map();
    boxes = new Map();
    oldest;
    newest;
    held = 0;
    boxed = 0;
    used = 0;
    constructor(maxEntries, maxBytes) {
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
    }
    /** Performs `effect` at once, at `at` (the host clock's milliseconds); an in-process store always answers. */
    perform(effect, at) {
        if (effect.op === 'penalize') {
            const table = tableOf(this.boxes, effect.penaltyBox);
            const bytes = KEY_BYTES + effect.penaltyBox.length + effect.entry.length + BOXED_BYTES;
            const boxed = { kind: 'boxed', table, entry: effect.entry, bytes, older: undefined, newer: undefined, until: at + effect.ttlS * 1000 };
            this.put(boxed);
            return PENALIZED;
        }
        // Most of the time nobody is in a penalty box: then there is nothing to look up.
        if (this.boxed !== 0) {
            const boxed = this.boxes.get(effect.penaltyBox)?.get(effect.entry);
            if (boxed !== undefined) {
                if (at < boxed.until) {
                    this.touch(boxed);
                    return BOXED;
                }
                this.remove(boxed);
            }
        }
        if (!effect.charge)
            return COUNTED_NOTHING;
        const second = Math.floor(at / 1000);
        let counter = this.counters.get(effect.rateCounter)?.get(effect.entry);
        if (counter !== undefined) {
            this.touch(counter);
            advance(counter, second);
        }
        else {
            const table = tableOf(this.counters, effect.rateCounter);
            const bytes = KEY_BYTES + effect.rateCounter.length + effect.entry.length + COUNTER_BYTES;
            counter = { kind: 'counter', table, entry: effect.entry, bytes, older: undefined, newer: undefined, buckets: new Uint32Array(SECONDS), second };
            this.put(counter);
        }
        const { buckets } = counter;
        let slot = second % SECONDS;
        buckets[slot]++;
        let count = 0;
        for (let n = Math.min(effect.windowS, SECONDS); n > 0; n--) {
            count += buckets[slot];
            slot = slot === 0 ? SECONDS - 1 : slot - 1;
        }
        return { kind: 'counted', count };
    }
    /** Entries and bytes held now (expired ones count until used or evicted). */
    get size() {
        return { entries: this.held, bytes: this.used };
    }
    /** Keeps `e` in its table (in place of what it held there), evicting the least recently used until both bounds hold. */
    put(e) {
        const old = e.table.get(e.entry);
        if (old !== undefined)
            this.remove(old);
        e.table.set(e.entry, e);
        this.link(e);
        this.held++;
        if (e.kind === 'boxed')
            this.boxed++;
        this.used += e.bytes;
        while (this.oldest !== undefined && (this.held > this.maxEntries || this.used > this.maxBytes))
            this.remove(this.oldest);
    }
    remove(e) {
        this.unlink(e);
        e.table.delete(e.entry);
        this.held--;
        if (e.kind === 'boxed')
            this.boxed--;
        this.used -= e.bytes;
    }
    /** A use: `e` becomes the newest. */
    touch(e) {
        if (e === this.newest)
            return;
        this.unlink(e);
        this.link(e);
    }
    link(e) {
        e.older = this.newest;
        e.newer = undefined;
        if (this.newest === undefined)
            this.oldest = e;
        else
            this.newest.newer = e;
        this.newest = e;
    }
    unlink(e) {
        if (e.older === undefined)
            this.oldest = e.newer;
        else
            e.older.newer = e.newer;
        if (e.newer === undefined)
            this.newest = e.older;
        else
            e.newer.older = e.older;
        e.older = undefined;
        e.newer = undefined;
    }
}
exports.RateStore = RateStore;
/** The table of `name` in `tables`, made when missing. */
function tableOf(tables, name) {
    let table = tables.get(name);
    if (table === undefined)
        tables.set(name, (table = new Map()));
    return table;
}
/** Moves `c` to `second`: the buckets of the seconds passed since its last count start at zero. */
function advance(c, second) {
    if (second <= c.second)
        return;
    if (second - c.second >= SECONDS)
        c.buckets.fill(0);
    else
        for (let s = c.second + 1; s <= second; s++)
            c.buckets[s % SECONDS] = 0;
    c.second = second;
}
