/** A `fastly_erl` argument outside what Fastly accepts (the ABI's `inval`). */
export class ErlInvalid extends Error {}
export type ErlCall = 'check_rate' | 'ratecounter_increment' | 'ratecounter_lookup_rate' | 'ratecounter_lookup_count' | 'penaltybox_add' | 'penaltybox_has';
/** Fastly's rate counters and penalty boxes, in memory. */
export class ErlStore {
  constructor(options?: { clock?: () => number; counterCapacity?: number; boxCapacity?: number });
  readonly sizes: { counters: number; buckets: number; boxed: number; expiries: number };
  ratecounterIncrement(rc: string, entry: string, delta: number): void;
  ratecounterLookupCount(rc: string, entry: string, duration: number): number;
  ratecounterLookupRate(rc: string, entry: string, window: number): number;
  penaltyboxAdd(pb: string, entry: string, ttl: number): void;
  penaltyboxHas(pb: string, entry: string): 0 | 1;
  checkRate(rc: string, entry: string, delta: number, window: number, limit: number, pb: string, ttl: number): 0 | 1;
  hostcall(name: ErlCall, args: (string | number)[]): number | undefined;
}
