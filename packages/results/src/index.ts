export * from './types.js';
export * from './io.js';
