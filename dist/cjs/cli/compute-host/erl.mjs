// src/cli/compute-host/erl.mjs
var ENTRY_MAX_BYTES = 256;
var COUNT_DURATIONS = Object.freeze([10, 20, 30, 40, 50, 60]);
var RATE_WINDOWS = Object.freeze([1, 10, 60]);
var INCREMENT_MAX = 1e3;
var CHECK_DELTA_MAX = 1e5;
var CHECK_LIMIT_MIN = 10;
var CHECK_LIMIT_MAX = 7e7;
var PENALTY_MINUTES_MAX = 60;
var PENALTY_BOX_CAPACITY = 2e5;
var RATE_COUNTER_CAPACITY = 1e5;
var HISTORY_S = 60;
var U32_MAX = 4294967295;
var ErlInvalid = class extends Error {
  constructor(what) {
    super(`fastly_erl: invalid ${what}`);
  }
};
function text(s, what) {
  if (typeof s !== "string" || Buffer.byteLength(s, "utf8") > ENTRY_MAX_BYTES) throw new ErlInvalid(what);
  return s;
}
function integer(n, min, max, what) {
  if (!Number.isInteger(n) || n < min || n > max) throw new ErlInvalid(what);
  return n;
}
function oneOf(n, allowed, what) {
  if (!allowed.includes(n)) throw new ErlInvalid(what);
  return n;
}
function penaltyMs(ttlS) {
  const minutes = Math.floor(integer(ttlS, 0, U32_MAX, "ttl") / 60);
  return integer(minutes, 1, PENALTY_MINUTES_MAX, "ttl") * 6e4;
}
var keyOf = (name, entry) => `${name.length}:${name}${entry}`;
var ExpiryHeap = class {
  constructor() {
    this.nodes = [];
  }
  get size() {
    return this.nodes.length;
  }
  peek() {
    return this.nodes[0];
  }
  push(node) {
    const a = this.nodes;
    a.push(node);
    let i = a.length - 1;
    while (i > 0) {
      const parent = i - 1 >> 1;
      if (a[parent][0] <= a[i][0]) break;
      [a[parent], a[i]] = [a[i], a[parent]];
      i = parent;
    }
  }
  pop() {
    const a = this.nodes;
    const top = a[0];
    const last = a.pop();
    if (a.length) {
      a[0] = last;
      let i = 0;
      for (; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l][0] < a[m][0]) m = l;
        if (r < a.length && a[r][0] < a[m][0]) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i], a[m]];
        i = m;
      }
    }
    return top;
  }
  rebuild(entries) {
    this.nodes = [];
    for (const [key, expires] of entries) this.push([expires, key]);
  }
};
var ErlStore = class {
  #clock;
  #counterCapacity;
  #boxCapacity;
  /** key → { last, buckets: [second, count, second, count, …] }, least recently incremented first. */
  #counters = /* @__PURE__ */ new Map();
  /** key → the millisecond its penalty ends. */
  #boxed = /* @__PURE__ */ new Map();
  #expiries = new ExpiryHeap();
  /**
   * `clock` answers the wall clock in milliseconds (tests move it); the capacities bound the
   * entries kept over every counter and every box.
   */
  constructor({ clock = Date.now, counterCapacity = RATE_COUNTER_CAPACITY, boxCapacity = PENALTY_BOX_CAPACITY } = {}) {
    this.#clock = clock;
    this.#counterCapacity = counterCapacity;
    this.#boxCapacity = boxCapacity;
  }
  /** What the store holds now: counter entries, their per-second buckets, boxed entries, expiry records. */
  get sizes() {
    this.#sweep(this.#clock());
    let buckets = 0;
    for (const c of this.#counters.values()) buckets += c.buckets.length / 2;
    return { counters: this.#counters.size, buckets, boxed: this.#boxed.size, expiries: this.#expiries.size };
  }
  #sweep(nowMs) {
    const oldest = Math.floor(nowMs / 1e3) - HISTORY_S;
    for (const [key, c] of this.#counters) {
      if (c.last > oldest) break;
      this.#counters.delete(key);
    }
    const h = this.#expiries;
    while (h.size && h.peek()[0] <= nowMs) {
      const [expires, key] = h.pop();
      if (this.#boxed.get(key) === expires) this.#boxed.delete(key);
    }
  }
  /** `entry`'s increments over the `seconds` seconds up to and including `now`'s. */
  #sum(rc, entry, seconds, nowMs) {
    const c = this.#counters.get(keyOf(rc, entry));
    if (!c) return 0;
    const now = Math.floor(nowMs / 1e3);
    let total = 0;
    for (let i = 0; i < c.buckets.length; i += 2) {
      const s = c.buckets[i];
      if (s > now - seconds && s <= now) total += c.buckets[i + 1];
    }
    return total;
  }
  #add(rc, entry, delta, nowMs) {
    const key = keyOf(rc, entry);
    const now = Math.floor(nowMs / 1e3);
    let c = this.#counters.get(key);
    if (c) this.#counters.delete(key);
    else {
      c = { last: now, buckets: [] };
      if (this.#counters.size >= this.#counterCapacity) this.#counters.delete(this.#counters.keys().next().value);
    }
    this.#counters.set(key, c);
    c.last = Math.max(c.last, now);
    const b = c.buckets;
    let kept = 0;
    let at = -1;
    for (let i = 0; i < b.length; i += 2) {
      if (b[i] <= now - HISTORY_S) continue;
      if (b[i] === now) at = kept;
      b[kept] = b[i];
      b[kept + 1] = b[i + 1];
      kept += 2;
    }
    b.length = kept;
    if (!delta) return;
    if (at >= 0) b[at + 1] += delta;
    else b.push(now, delta);
  }
  #box(pb, entry, ms, nowMs) {
    const key = keyOf(pb, entry);
    if (!this.#boxed.has(key) && this.#boxed.size >= this.#boxCapacity) {
      for (; ; ) {
        const [expires2, victim] = this.#expiries.pop();
        if (this.#boxed.get(victim) === expires2) {
          this.#boxed.delete(victim);
          break;
        }
      }
    }
    const expires = nowMs + ms;
    this.#boxed.set(key, expires);
    this.#expiries.push([expires, key]);
    if (this.#expiries.size > 2 * this.#boxed.size + 1024) this.#expiries.rebuild(this.#boxed);
  }
  /** 1 while `entry` serves its penalty, else 0 (the ABI's answer). */
  #isBoxed(pb, entry, nowMs) {
    return (this.#boxed.get(keyOf(pb, entry)) ?? 0) > nowMs ? 1 : 0;
  }
  ratecounterIncrement(rc, entry, delta) {
    text(rc, "rate counter");
    text(entry, "entry");
    integer(delta, 0, INCREMENT_MAX, "delta");
    const now = this.#clock();
    this.#sweep(now);
    this.#add(rc, entry, delta, now);
  }
  ratecounterLookupCount(rc, entry, duration) {
    text(rc, "rate counter");
    text(entry, "entry");
    oneOf(duration, COUNT_DURATIONS, "duration");
    const now = this.#clock();
    this.#sweep(now);
    return Math.min(this.#sum(rc, entry, duration, now), U32_MAX);
  }
  ratecounterLookupRate(rc, entry, window) {
    text(rc, "rate counter");
    text(entry, "entry");
    oneOf(window, RATE_WINDOWS, "window");
    const now = this.#clock();
    this.#sweep(now);
    return Math.min(Math.floor(this.#sum(rc, entry, window, now) / window), U32_MAX);
  }
  penaltyboxAdd(pb, entry, ttl) {
    text(pb, "penalty box");
    text(entry, "entry");
    const ms = penaltyMs(ttl);
    const now = this.#clock();
    this.#sweep(now);
    this.#box(pb, entry, ms, now);
  }
  penaltyboxHas(pb, entry) {
    text(pb, "penalty box");
    text(entry, "entry");
    const now = this.#clock();
    this.#sweep(now);
    return this.#isBoxed(pb, entry, now);
  }
  checkRate(rc, entry, delta, window, limit, pb, ttl) {
    text(rc, "rate counter");
    text(entry, "entry");
    integer(delta, 0, CHECK_DELTA_MAX, "delta");
    oneOf(window, RATE_WINDOWS, "window");
    integer(limit, CHECK_LIMIT_MIN, CHECK_LIMIT_MAX, "limit");
    text(pb, "penalty box");
    const ms = penaltyMs(ttl);
    const now = this.#clock();
    this.#sweep(now);
    this.#add(rc, entry, delta, now);
    if (Math.floor(this.#sum(rc, entry, window, now) / window) > limit) this.#box(pb, entry, ms, now);
    return this.#isBoxed(pb, entry, now);
  }
  /** One `fastly_erl` hostcall by its ABI name, its strings decoded and its integers unsigned. */
  hostcall(name, args) {
    switch (name) {
      case "check_rate":
        return this.checkRate(...args);
      case "ratecounter_increment":
        return this.ratecounterIncrement(...args);
      case "ratecounter_lookup_rate":
        return this.ratecounterLookupRate(...args);
      case "ratecounter_lookup_count":
        return this.ratecounterLookupCount(...args);
      case "penaltybox_add":
        return this.penaltyboxAdd(...args);
      case "penaltybox_has":
        return this.penaltyboxHas(...args);
      default:
        throw new Error("fastly_erl: no such call");
    }
  }
};
export {
  ErlInvalid,
  ErlStore
};
