export * from './pulse.js';
