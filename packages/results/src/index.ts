export * from './types.js';
export * from './io.js';
export { GwprofError } from './errors.js';
export { loadLabel, loadLevel } from './load.js';
