/**
 * The bench's `rateLimit`, for the Node host (server-pulse.mjs `authz-cache-limited`) and the edge
 * (edge/authorized-limited.mjs) alike: both budgets, far above what a load test sends, so nothing is
 * refused while every request is counted by `requests` (per address) and every call by `toolCalls`
 * (per `sub`). A row with it prices the counting.
 */
export const UNREACHED_RATE_LIMIT = Object.freeze({
  requests: Object.freeze({ limit: 1_000_000, window: 10 }),
  toolCalls: Object.freeze({ limit: 1_000_000, window: 10 }),
});
