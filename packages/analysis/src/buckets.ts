import type { TopFunction } from '@gwprof/results';
import type { CpuProfile, CpuProfileCallFrame } from './cpuprofile.js';
import { median } from './descriptive.js';
import { DEFAULT_BUCKET_RULES, type BucketRule } from './rules.js';
import { topFunctions } from './top-functions.js';

export { BUCKET_ORDER } from './bucket-catalog.js';
import { BUCKET_ORDER } from './bucket-catalog.js';

const UNMATCHED = 'other';

export interface ProfileAnalysis {
  samples: number;
  samplingIntervalUs: number;
  /** Bucket → samples; {} when the profile has no samples. */
  counts: Record<string, number>;
  /** Bucket → share of all samples, summing to 1; {} when the profile has no samples. */
  buckets: Record<string, number>;
  topFunctions: TopFunction[];
}

export interface AnalyzeProfileOptions {
  rules?: readonly BucketRule[];
  /** How many top self-time functions to return (default 15). */
  top?: number;
}

/** Attributes every sample to one bucket and ranks functions by self time. */
export function analyzeProfile(profile: CpuProfile, options: AnalyzeProfileOptions = {}): ProfileAnalysis {
  const rules = options.rules ?? DEFAULT_BUCKET_RULES;
  const selfSamples = samplesPerNode(profile);
  const total = [...selfSamples.values()].reduce((sum, n) => sum + n, 0);
  if (total === 0) return { samples: 0, samplingIntervalUs: 0, counts: {}, buckets: {}, topFunctions: [] };

  const nodeBucket = classifyNodes(profile, rules);
  const counts: Record<string, number> = {};
  for (const name of orderBucketNames(rules.map((rule) => rule.bucket))) counts[name] = 0;
  for (const [id, n] of selfSamples) {
    const bucket = nodeBucket.get(id) ?? UNMATCHED;
    counts[bucket] = (counts[bucket] ?? 0) + n;
  }
  return {
    samples: total,
    samplingIntervalUs: samplingIntervalUs(profile, total),
    counts,
    buckets: bucketShares(counts),
    topFunctions: topFunctions(profile, selfSamples, nodeBucket, total, options.top ?? 15),
  };
}

/**
 * Bucket of every node: its own first matching rule, else its parent's bucket. That is the
 * leaf-to-root walk of each sample's stack, done once per node instead of once per sample.
 */
export function classifyNodes(profile: CpuProfile, rules: readonly BucketRule[]): Map<number, string> {
  const matchFrame = frameMatcher(rules);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const hasParent = new Set(profile.nodes.flatMap((node) => node.children ?? []));
  const buckets = new Map<number, string>();
  // Breadth-first from the roots, so a parent is always classified before its children
  // (iterative: real stacks can be deeper than the JS call stack allows for recursion).
  const queue: Array<{ id: number; inherited: string }> = profile.nodes
    .filter((node) => !hasParent.has(node.id))
    .map((node) => ({ id: node.id, inherited: UNMATCHED }));
  for (let head = 0; head < queue.length; head++) {
    const { id, inherited } = queue[head]!;
    if (buckets.has(id)) continue;
    const node = byId.get(id)!;
    const bucket = matchFrame(node.callFrame) ?? inherited;
    buckets.set(id, bucket);
    for (const child of node.children ?? []) queue.push({ id: child, inherited: bucket });
  }
  return buckets;
}

/** Sums per-bucket sample counts of several profiles (for example the trials of one side). */
export function sumBucketCounts(counts: readonly Record<string, number>[]): Record<string, number> {
  const names = orderBucketNames(counts.flatMap((record) => Object.keys(record)));
  const sum: Record<string, number> = {};
  for (const name of names) sum[name] = counts.reduce((total, record) => total + (record[name] ?? 0), 0);
  return sum;
}

/** Counts → shares of the total, in display order; {} when there are no samples. */
export function bucketShares(counts: Record<string, number>): Record<string, number> {
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  if (total === 0) return {};
  const shares: Record<string, number> = {};
  for (const name of orderBucketNames(Object.keys(counts))) shares[name] = (counts[name] ?? 0) / total;
  return shares;
}

/** Every built-in bucket in BUCKET_ORDER, custom buckets (first-seen order) before `other`, which stays last. */
export function orderBucketNames(names: Iterable<string>): string[] {
  const builtIn = new Set<string>(BUCKET_ORDER);
  const custom = [...new Set(names)].filter((name) => !builtIn.has(name));
  return [...BUCKET_ORDER.slice(0, -1), ...custom, UNMATCHED];
}

function frameMatcher(rules: readonly BucketRule[]): (frame: CpuProfileCallFrame) => string | undefined {
  const compiled = rules.map((rule) => ({
    bucket: rule.bucket,
    functionName: rule.functionName === undefined ? undefined : new RegExp(rule.functionName),
    url: rule.url === undefined ? undefined : new RegExp(rule.url),
  }));
  // Many nodes share a frame (the same function under different callers): match each frame once.
  const cache = new Map<string, string | undefined>();
  return (frame) => {
    const key = `${frame.functionName}\0${frame.url}`;
    if (cache.has(key)) return cache.get(key);
    const bucket = compiled.find(
      (rule) =>
        (rule.functionName === undefined || rule.functionName.test(frame.functionName)) &&
        (rule.url === undefined || rule.url.test(frame.url)),
    )?.bucket;
    cache.set(key, bucket);
    return bucket;
  };
}

/** Samples whose leaf is each node: from `samples`, or from `hitCount` when a profile has no samples array. */
function samplesPerNode(profile: CpuProfile): Map<number, number> {
  const counts = new Map<number, number>();
  if (profile.samples) {
    for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
  } else {
    for (const node of profile.nodes) if (node.hitCount) counts.set(node.id, node.hitCount);
  }
  return counts;
}

/** Median of the recorded gaps (robust to the long first gap and to pauses); else the mean over the span. */
function samplingIntervalUs(profile: CpuProfile, total: number): number {
  const deltas = profile.timeDeltas;
  if (deltas && deltas.length > 0) return median(deltas);
  return (profile.endTime - profile.startTime) / total;
}
