export { publishRun, BUILT_IN_RULES } from './run.js';
export { publishCompare, compareFinishedRuns, type CompareCopies } from './compare.js';
export type { RulesChoice } from './step-profile.js';
