// What other packages and the benchmark scripts use; everything else stays inside analysis.
export { BUCKETS, BUCKET_ORDER, EXTRA_BUCKET_COLORS } from './bucket-catalog.js';
export { parseCpuProfile, readCpuProfile, sampleDurationsUs, type CpuProfile, type CpuProfileNode, type CpuProfileCallFrame } from './cpuprofile.js';
export { DEFAULT_BUCKET_RULES, loadBucketRules, type BucketRule } from './rules.js';
export { analyzeProfile, classifyNodes, type ProfileAnalysis } from './buckets.js';
export { bucketCosts, compareGcWithNode, type BucketFunctionCost } from './bucket-costs.js';
export { explainFrames, formatExplanations, parseExplainQuery } from './explain.js';
export { diffFunctions, selfTimeUsByNode, type SideProfiles } from './function-diff.js';
// Capacity
export { analyzeCapacity } from './capacity.js';
export { analyzeRateCapacity } from './rate-capacity.js';
// Steady state (collect decides with these while a step runs)
export { warmupDecision, windowDecision, judgeWindowSteadiness, type WindowRule, type WindowSteadiness } from './steady-state.js';
// Comparisons: the verdict, and its evaluation
export { judgeComparison, compareMetric, deltaMetric, GATING_METRIC, INFORMATIONAL_METRICS, type ComparisonDesign, type ComparisonVerdict } from './compare-windows.js';
export { DEFAULT_SEQUENTIAL_DESIGN } from './sequential.js';
export { evaluateProcedure, recordingNoise, type EpochDraw } from './procedure-evaluation.js';
export { mulberry32 } from './random.js';
export { uslThroughput } from './usl.js';
