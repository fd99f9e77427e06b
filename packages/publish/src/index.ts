export { publishRun, BUILT_IN_RULES } from './run.js';
export { publishCompare, type CompareCopies } from './compare.js';
export type { RulesChoice } from './step-profile.js';
export { publishSoak, type PublishedSoak } from './soak.js';
export { publishBisect, type BisectCopies } from './bisect.js';
