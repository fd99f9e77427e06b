export { BUCKETS, EXTRA_BUCKET_COLORS, type BucketInfo } from './bucket-catalog.js';
export {
  parseCpuProfile,
  readCpuProfile,
  sampleDurationsUs,
  ProfileFormatError,
  type CpuProfile,
  type CpuProfileNode,
  type CpuProfileCallFrame,
} from './cpuprofile.js';
export { DEFAULT_BUCKET_RULES, loadBucketRules, parseBucketRules, BucketRulesError, type BucketRule } from './rules.js';
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
export { compareSamples, verdictFor, compareBuckets, summarize, type CompareOptions } from './compare.js';
export { studentTQuantile } from './student-t.js';
export { analyzeCapacity, type CapacityStep, type CapacityOptions } from './capacity.js';
export { findKnee, type KneeResult } from './knee.js';
export { fitUsl, uslThroughput, type UslResult, type ThroughputPoint } from './usl.js';
export { checkLittlesLaw, type LittlesLawInput } from './little.js';
export { judgeTrials, diffRuns, COMPARE_METRICS, type TrialsVerdict, type BucketLookup } from './trials.js';
