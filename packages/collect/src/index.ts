// The CLI's entry points.
export { runSweep, type SweepOptions, type SweepOutcome } from './sweep.js';
export { runCompareTrials, type CompareTrialOptions } from './compare.js';
export { DEFAULTS, SEED_QUERY, VARIED_QUERY, type ScenarioFiles } from './defaults.js';
export { SUBGRAPH_NAMES, type SubgraphName } from './gateways/index.js';
export { TOOL_VERSION } from './version.js';
export { makeRunId } from './run-folder.js';
// Building blocks for benchmark scripts (scripts/): the same machinery the sweep uses.
export { openSession, type Session } from './session.js';
export { gatewayFromSpec } from './gateways/index.js';
export { loadScenario } from './fixtures.js';
export { runLoad, type LoadOutcome } from './driver.js';
export { TreeUsageMeter } from './proc-stats.js';
