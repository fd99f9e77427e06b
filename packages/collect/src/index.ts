// The CLI's entry points.
export { runSweep, type SweepOptions } from './sweep.js';
export { runComparison, type CompareOptions } from './compare/run-comparison.js';
export { recordFinishedRunsComparison } from './compare/finished-runs.js';
export { DEFAULTS, SCENARIOS, SEED_QUERY, VARIED_QUERY, type ScenarioFiles } from './defaults.js';
export { SUBGRAPH_NAMES, type SubgraphName } from './gateways/index.js';
export { TOOL_VERSION } from './version.js';
export { makeRunId } from './run-folder.js';
// Building blocks for the benchmarks (bench/): the same machinery the sweep uses.
export { openSession, type Session } from './session.js';
export { gatewayFromSpec } from './gateways/index.js';
export { loadScenario } from './fixtures.js';
export { RequestStream, requestBodies } from './load/request-stream.js';
export { settleGateway } from './step/settle.js';
export { LoadRecorder } from './load/recorder.js';
export { startClosedLoop } from './load/closed-loop.js';
export { startOpenLoop } from './load/open-loop.js';
export { TreeUsageMeter, cpuSeconds } from './proc-stats.js';
export { bringUp } from './up.js';
export { attachSubgraphs } from './subgraphs.js';
