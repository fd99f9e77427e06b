// The CLI's entry points.
export { runSweep, type SweepOptions } from './sweep/sweep.js';
export { runComparison, type CompareOptions } from './compare/run-comparison.js';
export { CALLGRIND_ARGS } from './instructions/callgrind.js';
export { WHERE_V8_FLAGS, WHERE_VALGRIND_ARGS } from './instructions/counted-epochs.js';
export { runSoak, type SoakOptions } from './soak/run-soak.js';
export type { SitesWhen } from './soak/allocation-sites.js';
export { allocatorMetricSource } from './soak/allocator-stats.js';
export { exportK6, type K6ExportRequest } from './k6/export-k6.js';
export { k6LoadTag } from './k6/k6-script.js';
export { importK6Run, k6Step, readK6Samples, K6Samples, type K6ImportRequest } from './k6/import-k6.js';
export { findK6 } from './k6/k6-engine.js';
export { recordFinishedRunsComparison } from './compare/finished-runs.js';
export { DEFAULTS, SCENARIOS, SEED_QUERY, VARIED_QUERY, type ScenarioFiles } from './defaults.js';
export { SUBGRAPH_NAMES, type SubgraphName } from './gateways/index.js';
export { OTLP_ENDPOINT_ENV, TRACE_CONTEXT_ENV } from './gateways/types.js';
export { TOOL_VERSION } from './run/version.js';
export { makeRunId } from './run/run-folder.js';
// Building blocks for the benchmarks (bench/): the same machinery the sweep uses.
export { openSession, type Session } from './run/session.js';
export {
  BUILT_IN_GATEWAYS,
  NATIVE_BINARIES,
  RELOADING_GATEWAYS,
  gatewayFromSpec,
  gatewayPins,
  installNativeBinary,
  nativeBinaryPath,
  resolveGatewaySpec,
} from './gateways/index.js';
export { buildNativeSubgraphs, nativeSubgraphsSourceHash, NATIVE_SUBGRAPHS_BINARY, type NativeSubgraphsBuildOptions } from './services/native-subgraphs.js';
export { loadScenario } from './scenario/fixtures.js';
export type { Scenario, ScenarioRequest } from './scenario/scenario.js';
export { looksLikeScenarioFile, readScenarioFile, type ScenarioFileSpec } from './scenario/scenario-file.js';
export { isScenarioFile, loadRequests, type ScenarioSource } from './run/scenario-source.js';
export { recordGoldens, type GoldensOptions } from './record-goldens.js';
export { RequestStream, requestBodies } from './load/request-stream.js';
export { settleGateway } from './step/settle.js';
export { LoadRecorder } from './load/recorder.js';
export { startClosedLoop } from './load/closed-loop.js';
export { startOpenLoop } from './load/open-loop.js';
export { wireRequests, type WireRequests } from './load/http1-request.js';
export { RequestTraces, type TraceSampling } from './load/request-traces.js';
export { Http1Connection } from './load/http1-connection.js';
export { ResponseParser } from './load/http1-response-parser.js';
export { TreeUsageMeter, cpuSeconds } from './processes/proc-stats.js';
export { bringUp } from './up.js';
export { composeSupergraph } from './gateways/compose-supergraph.js';
export { FED2_PATH } from './services/subgraphs.js';
export { attachSubgraphs, type RunningSubgraphs } from './services/subgraphs.js';
export { startOtlpReceiver, type OtlpReceiver } from './services/otlp-receiver.js';
export { GatewayPair, SIDES, type Side } from './epochs/gateway-pair.js';
export type { GatewayUnderTest } from './gateway-under-test.js';
export { NO_EXTRAS, callgrindLaunch, countBatch, type CountingContext } from './instructions/counted-pair.js';
export { sendSequential, type ExtraHeaders } from './instructions/sequential-batch.js';
export { currentNode } from './processes/node-binaries.js';
export { firstDifference, inSelectionOrder, selectionOrderOf } from './scenario/validate-response.js';
export { runBisect, type BisectOptions, type BisectOutcome } from './bisect/run-bisect.js';
