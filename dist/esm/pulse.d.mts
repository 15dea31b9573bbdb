export * from '../cjs/pulse.js';
