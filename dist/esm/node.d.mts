export * from '../cjs/node.js';
