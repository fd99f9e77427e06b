// What other packages and the benchmarks (bench/) use; everything else stays inside analysis.
export { BUCKETS, BUCKET_ORDER, EXTRA_BUCKET_COLORS, UNATTRIBUTED_BUCKETS } from './profiles/bucket-catalog.js';
export {
  frameKey,
  parseCpuProfile,
  readCpuProfile,
  sampleDurationsUs,
  selfWeights,
  type CpuProfile,
  type CpuProfileNode,
  type CpuProfileCallFrame,
} from './profiles/cpuprofile.js';
export { DEFAULT_BUCKET_RULES, loadBucketRules, type BucketRule } from './profiles/rules.js';
export { frameKind, type FrameKind } from './profiles/frame-kind.js';
export { analyzeProfile, attributeNodes, classifyNodes, orderBucketNames, type ProfileAnalysis } from './profiles/buckets.js';
export { bucketCosts, compareGcWithNode, type BucketFunctionCost } from './profiles/bucket-costs.js';
export { explainFrames, formatExplanations, parseExplainQuery } from './profiles/explain.js';
export { diffFunctions, selfMsByFunction, type SideProfiles } from './profiles/function-diff.js';
export {
  allocationsByFunction,
  analyzeAllocations,
  placeByAttribution,
  diffAllocations,
  mergeHeapProfiles,
  parseHeapProfile,
  type AllocationAnalysis,
  type AllocationDiff,
  type HeapProfile,
  type SideHeapProfiles,
} from './profiles/allocations.js';
export { mergeStacks, type MergedStack, type MergedStacks } from './profiles/side-stacks.js';
export { TOP_FUNCTIONS } from './profiles/top-functions.js';
// Capacity
export { analyzeCapacity } from './capacity/capacity.js';
export { analyzeRateCapacity } from './capacity/rate-capacity.js';
export { sweepOutcome } from './sweep-outcome.js';
export { FAILURE_KINDS, failureDetail, failureKindCounts, failureLabel } from './failure-diagnosis.js';
export { exitCodeOf, type Finding } from './exit-code.js';
export { stepFailures, stepStatus } from './step-verdict.js';
export { parsePerfScript, perfProfile, symbolName, type PerfSample } from './profiles/perf-script.js';
export { GATEWAY_FULL, HARNESS_FULL_PERCENT, harnessBoundReason, neighbourWarning } from './harness-bound.js';
// Steady state (collect decides with these while a step runs)
export { cpuWarmupDecision, warmupDecision, windowDecision, judgeWindowSteadiness, type WindowRule, type WindowSteadiness } from './capacity/steady-state.js';
// Comparisons: the verdict, and the sequential rule behind it (bench/ replays and simulates it)
export {
  blockChanges,
  blockLogRatio,
  failedWindows,
  judgeComparison,
  compareMetric,
  deltaMetric,
  GATING_METRIC,
  INFORMATIONAL_METRICS,
  type ComparisonDesign,
} from './compare/compare-windows.js';
export { comparisonVerdict, findingOf, type ComparisonVerdict } from './compare/verdict.js';
export { judgeRecord } from './judge-record.js';
export { budgetFit, epochsNeeded, epochsThatFit, plannedLastLook, FEWEST_EPOCHS, type BudgetState } from './compare/epoch-budget.js';
export {
  DEFAULT_EPOCH_TEST,
  decideEpochs,
  epochValues,
  resolveEpochDesign,
  spendingBoundaries,
  type EpochBlock,
  type EpochDecision,
  type EpochOutcome,
  type EpochTestDesign,
} from './compare/epoch-test.js';
export { upstreamUnseen, upstreamUnseenBySide, type SideUpstreamUnseen } from './profiles/upstream.js';
export { mulberry32 } from './random.js';
export { mean, median, variance } from './descriptive.js';
export { studentTQuantile } from './compare/student-t.js';
export { uslThroughput } from './capacity/usl.js';
export { MOVE_FAMILY_CONFIDENCE, epochPairs, moveNoise, type EpochPair, type WindowCosts } from './compare/move-noise.js';
// Soak: memory trends, the leak verdict, heap snapshots by class
export { mannKendall, normalCdf, normalQuantile, theilSen, type MannKendall, type TheilSen, type TrendPoint } from './soak/trend.js';
export {
  DEFAULT_LEAK_DESIGN,
  calmReading,
  calmsAfterWarmup,
  intervalsAfterWarmup,
  nativeCalmsAfterWarmup,
  judgeSoak,
  leakingClasses,
  memoryTrend,
  rssNetOfHeap,
  rssNetOfHeapUnderLoad,
  snapshotDue,
  soakMemoryMeasure,
  type CalmReading,
  type LeakDesign,
  type SnapshotTime,
} from './soak/leak.js';
export { analyzeSoak, leakDesignOf } from './soak/soak-analysis.js';
export { analyzeReloads, reloadMemory } from './soak/reload-analysis.js';
export { loadWindows, type LoadWindowCut, type ReloadSecond } from './soak/reload-windows.js';
export {
  UNKNOWN_BINARY,
  allocationSites,
  isAllocatorFrame,
  parseDhat,
  parseFrame,
  type AllocationSitesFound,
  type DhatProfile,
  type DhatRun,
  type BinaryTraits,
} from './soak/dhat-sites.js';
export {
  growingClasses,
  summarizeHeapSnapshot,
  summarizeHeapSnapshotFile,
  type GrowingClass,
  type HeapClassSummary,
  type HeapSnapshotSummary,
} from './soak/heap-snapshot.js';
// Comparisons by instructions: the verdict on callgrind's counts, dumps, and the measure in words
export {
  INSTRUCTION_LEVEL,
  decideInstructions,
  failedBatches,
  instructionMetric,
  allocationMetric,
  instructionObservations,
  judgeInstructions,
  type InstructionTestDesign,
} from './instructions/instruction-test.js';
export { ALLOCATION_ENTRY, allocationCallCount, allocationCalls, allocationCallsOfFile, type AllocationCallCount } from './instructions/allocation-calls.js';
export { disturbedEpochs, disturbedNote, DISTURBED_THRESHOLDS, type DisturbedEpoch } from './instructions/disturbed-epochs.js';
export { callgrindTotal, parseCallgrindDump, type CallgrindDump } from './instructions/callgrind-dump.js';
export { instructionMeasure, timeMeasure } from './compare/measure-statement.js';
export { PerfMap, type JitCode } from './instructions/perf-map.js';
export { callgrindContexts, type CallgrindContext } from './instructions/callgrind-contexts.js';
export { callGraph, callGraphOfFile, type CallGraph, type CallGraphFunction } from './instructions/call-graph.js';
export { guessedStacks, type GuessedStack } from './instructions/guessed-stacks.js';
export {
  instructionBreakdown,
  instructionMoves,
  instructionProfile,
  instructionProfileOfFile,
  instructionProfileOfCallGraph,
  GUESSED_STACK_FRAMES,
  type InstructionBreakdown,
  type InstructionProfile,
} from './instructions/instruction-profile.js';
export { analyzeInstructionComparison } from './instructions/instruction-comparison.js';
export { allocationVerdict, callerMoves, exitCodeWithAllocations } from './instructions/allocation-verdict.js';
export { comparisonOutcome } from './compare/comparison-outcome.js';
export { analyzeRunsComparison } from './compare/runs-comparison.js';
export {
  planBisection,
  meanLog,
  END_COUNTS,
  type BisectDesign,
  type BisectPlan,
  type PlannedPoint,
  type PlannedRange,
  type PlannedStep,
} from './bisect/bisect-plan.js';
export { pointNoise, RANGE_CONFIDENCE, STEP_FAMILY_ERROR, type PointNoise } from './bisect/bisect-noise.js';
export { analyzeBisection, confirmationOf, planOf, reproduceArgs } from './bisect/bisect-analysis.js';
export { SLOWEST_SHOWN, meanSplit, stepTraceSplit, traceSplits } from './traces/trace-split.js';
export { splitRequest, type RequestParts } from './traces/request-split.js';
export { PHASES_SHOWN, fetchAgreement, gatewaySpanSplit } from './traces/gateway-spans.js';
