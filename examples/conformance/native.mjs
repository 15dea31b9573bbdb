// The conformance fixtures the Fastly Native build can serve (no JavaScript handlers): the router
// and the options of its mcp() binding, built through the static binding's rules
// (scripts/edge-lib.mjs boundRouterConfig).
export { nativeRouter as router, options } from './router.mjs';
