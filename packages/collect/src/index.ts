export { runSweep, validateSweepOptions, SweepInputError, type SweepOptions, type SweepOutcome } from './sweep.js';
export { loadScenario, ScenarioError, type Scenario } from './fixtures.js';
export { validateResponse, selectionOrderOf, followsSelectionOrder, firstDifference, type ResponseVerdict } from './validate-response.js';
export { gatewayFromSpec, UnknownGatewayError, BUILT_IN_GATEWAYS, SUBGRAPH_NAMES, type SubgraphName, type GatewayAdapter } from './gateways/index.js';
export { DEFAULT_SUBGRAPH_PORTS } from './subgraphs.js';
export { FdLimitError, fdsNeeded } from './fd-limit.js';
export { IsolationError, planCpuSets } from './isolation.js';
export { PortInUseError } from './ports.js';
export { GatewayStartError } from './gateway-process.js';
export { SubgraphStartError } from './subgraphs.js';
export { ProfilerControlError } from './profiler/controller.js';
export { repoRoot, fixturesDir, defaultProfilesDir } from './paths.js';
export { TOOL_VERSION } from './version.js';
export { runCompareTrials, validateCompareOptions, type CompareTrialOptions, type CompareTrialsOutcome } from './compare.js';
// Building blocks for benchmark scripts (scripts/): the same machinery the sweep uses.
export { planResources, startTestBed, type TestBed, type ResourcePlan } from './test-bed.js';
export { runLoad, type LoadOutcome } from './driver.js';
export { createRunLogs } from './log.js';
export { TreeUsageMeter } from './proc-stats.js';
