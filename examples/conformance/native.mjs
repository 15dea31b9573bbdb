// The conformance fixtures the Fastly Native build can serve (no JavaScript handlers), in the shape
// the edge build reads: `router` and `options`.
export { nativeRouter as router, options } from './router.mjs';
