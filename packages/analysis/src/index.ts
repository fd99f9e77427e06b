export { BUCKETS, EXTRA_BUCKET_COLORS, type BucketInfo } from './bucket-catalog.js';
export {
  parseCpuProfile,
  readCpuProfile,
  sampleDurationsUs,
  type CpuProfile,
  type CpuProfileNode,
  type CpuProfileCallFrame,
} from './cpuprofile.js';
export { DEFAULT_BUCKET_RULES, loadBucketRules, parseBucketRules, type BucketRule } from './rules.js';
export {
  BUCKET_ORDER,
  analyzeProfile,
  classifyNodes,
  sumBucketCounts,
  bucketShares,
  orderBucketNames,
  type ProfileAnalysis,
  type AnalyzeProfileOptions,
} from './buckets.js';
export { analyzeCapacity, type CapacityStep, type CapacityOptions } from './capacity.js';
export { analyzeRateCapacity, sloMisses } from './rate-capacity.js';
export { findKnee, type KneeResult } from './knee.js';
export { fitUsl, uslThroughput, type UslResult, type ThroughputPoint } from './usl.js';
export { checkLittlesLaw, type LittlesLawInput } from './little.js';
export {
  judgeComparison,
  decideLevel,
  levelObservations,
  compareMetric,
  deltaMetric,
  GATING_METRIC,
  INFORMATIONAL_METRICS,
  type ComparisonDesign,
  type ComparisonVerdict,
} from './compare-windows.js';
export {
  trendOf,
  warmupDecision,
  windowDecision,
  judgeWindowSteadiness,
  type WindowRule,
  type WindowSteadiness,
  type WarmupDecision,
  type WindowDecision,
} from './steady-state.js';
export { attributeNodes, frameMatcher, type NodeAttribution } from './buckets.js';
export type { BucketFunction } from './top-functions.js';
export { bucketCosts, bucketMsPerOkRequest, compareGcWithNode, type BucketCosts, type BucketFunctionCost, type GcGroundTruth } from './bucket-costs.js';
export { explainFrames, explainRule, formatExplanations, parseExplainQuery, type FrameExplanation, type ExplainedOutcome, type ExplainQuery, type RuleRef, type FrameRef } from './explain.js';
export { diffFunctions, selfTimeUsByNode, type FunctionDiff, type FunctionDelta, type SideProfiles } from './function-diff.js';
export {
  blockLogRatio,
  decideSequential,
  estimateVariance,
  resolveDesign,
  DEFAULT_SEQUENTIAL_DESIGN,
  type BlockObservation,
  type SequentialDecision,
  type SequentialDesign,
  type SequentialOutcome,
} from './sequential.js';
export { evaluateProcedure, recordingNoise, runToVerdict, summarizeReplays, wilsonInterval, type RecordedWindow, type ProcedureRates } from './procedure-evaluation.js';
export { mulberry32 } from './random.js';
