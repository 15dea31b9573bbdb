/**
 * The bench's authorized edge module with a `rateLimit` that is never reached (../rate-limit.mjs):
 * every request is counted by Fastly's Edge Rate Limiting, per address and per `sub`, and none is
 * refused. Beside ./authorized.mjs it prices the counting (tools/bench/extra/viceroy.mjs; Viceroy's
 * rate counters never count, so what is priced is the core's decision and the hostcalls). Built for
 * Fastly Native.
 */
import { UNREACHED_RATE_LIMIT } from '../rate-limit.mjs';
import { options as authorized } from './authorized.mjs';

export const options = { ...authorized, rateLimit: UNREACHED_RATE_LIMIT };
