// Edge rows (Fastly Native service and JavaScript package in the Node Native host): scripts/bench/edge.mjs.
export { rows } from '../edge.mjs';
