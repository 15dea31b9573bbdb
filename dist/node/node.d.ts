export * from '../cjs/node';
