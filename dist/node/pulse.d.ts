export * from '../cjs/pulse';
