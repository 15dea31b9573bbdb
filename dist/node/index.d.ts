export * from '../cjs/index';
