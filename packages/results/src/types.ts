/**
 * The records gwprof writes, one module a record (shared parts, a step, a sweep, a comparison; a
 * soak's and a bisection's in their own), re-exported here so one import reaches them all. Each
 * file has two parts with one writer each: the raw record, written by collect, and `analysis`,
 * everything derived, written by the publish pass; every table and page is rendered from the file.
 */
export * from './record-types.js';
export * from './step-types.js';
export * from './sweep-types.js';
export * from './compare-types.js';
