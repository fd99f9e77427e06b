import type { TopFunction } from '@gwprof/results';
import { frameKey, type CpuProfile } from './cpuprofile.js';

/** How many functions a ranking of self time lists unless told otherwise. */
export const TOP_FUNCTIONS = 15;

/** A function's self time, summed over the nodes where it is the leaf, and split by bucket. */
export interface FunctionTally {
  functionName: string;
  url: string;
  /** 1-based like editors show it (0 when V8 gives none). */
  line: number;
  selfUs: number;
  perBucketUs: Map<string, number>;
}

/** One function's self time inside one bucket: the drill-down from a bucket to its code. */
export interface BucketFunction {
  functionName: string;
  url: string;
  line: number;
  /** Self time of this function attributed to the bucket, in ms. */
  selfMs: number;
  /** That time as a share of the bucket's time. */
  shareOfBucket: number;
}

/**
 * Sums self time per function (a function appears in many nodes, one per distinct caller chain),
 * pseudo-frames included. `selfUs` maps node id → µs of samples whose leaf is that node.
 */
export function tallyFunctions(profile: CpuProfile, selfUs: ReadonlyMap<number, number>, nodeBucket: ReadonlyMap<number, string>): FunctionTally[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const tallies = new Map<string, FunctionTally>();
  for (const [id, us] of selfUs) {
    const { callFrame } = byId.get(id)!;
    const key = frameKey(callFrame);
    let tally = tallies.get(key);
    if (!tally) {
      tally = {
        functionName: callFrame.functionName || '(anonymous)',
        url: callFrame.url,
        line: Math.max(0, callFrame.lineNumber + 1),
        selfUs: 0,
        perBucketUs: new Map(),
      };
      tallies.set(key, tally);
    }
    tally.selfUs += us;
    const bucket = nodeBucket.get(id) ?? 'other';
    tally.perBucketUs.set(bucket, (tally.perBucketUs.get(bucket) ?? 0) + us);
  }
  return [...tallies.values()];
}

/**
 * The functions with the most self time. `bucket` is where most of the function's self time went,
 * since a shared helper can sit under different phases.
 */
export function topFunctions(tallies: readonly FunctionTally[], totalUs: number, limit: number): TopFunction[] {
  return [...tallies]
    .sort((a, b) => b.selfUs - a.selfUs || a.functionName.localeCompare(b.functionName))
    .slice(0, limit)
    .map((tally) => ({
      functionName: tally.functionName,
      url: tally.url,
      line: tally.line,
      selfShare: tally.selfUs / totalUs,
      bucket: [...tally.perBucketUs].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0],
    }));
}

/** Per bucket, its functions with the most self time in that bucket (at most `limit` each). */
export function topFunctionsByBucket(
  tallies: readonly FunctionTally[],
  bucketUs: Readonly<Record<string, number>>,
  limit: number,
): Record<string, BucketFunction[]> {
  const byBucket: Record<string, BucketFunction[]> = {};
  for (const bucket of Object.keys(bucketUs)) byBucket[bucket] = [];
  for (const tally of tallies) {
    for (const [bucket, us] of tally.perBucketUs) {
      (byBucket[bucket] ??= []).push({
        functionName: tally.functionName,
        url: tally.url,
        line: tally.line,
        selfMs: us / 1000,
        shareOfBucket: bucketUs[bucket] ? us / bucketUs[bucket]! : 0,
      });
    }
  }
  for (const bucket of Object.keys(byBucket)) {
    byBucket[bucket] = byBucket[bucket]!.sort((a, b) => b.selfMs - a.selfMs || a.functionName.localeCompare(b.functionName)).slice(0, limit);
  }
  return byBucket;
}
