export * from '../cjs/otel.js';
