// Edge rows (Fastly Native service and JavaScript package in the Node Native host): tools/bench/edge.mjs.
export { rows } from '../edge.mjs';
