// The CLI's entry points.
export { runSweep, type SweepOptions } from './sweep.js';
export { runComparison, type CompareOptions } from './compare/run-comparison.js';
export { CALLGRIND_ARGS } from './instructions/callgrind.js';
export { runSoak, type SoakOptions } from './soak/run-soak.js';
export { exportK6, type K6ExportRequest } from './k6/export-k6.js';
export { k6LoadTag } from './k6/k6-script.js';
export { importK6Run, k6Step, readK6Samples, K6Samples, type K6ImportRequest } from './k6/import-k6.js';
export { findK6 } from './k6/k6-engine.js';
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
export { firstDifference, inSelectionOrder, selectionOrderOf } from './validate-response.js';
