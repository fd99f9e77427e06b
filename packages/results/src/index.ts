export * from './types.js';
export * from './failures.js';
export * from './instruction-types.js';
export * from './bisect-types.js';
export * from './io.js';
export * from './exit-codes.js';
export { GwprofError, asError } from './errors.js';
export { compareLoadAt, loadLabel, loadLevel } from './load.js';
export * from './soak-types.js';
