import { orderBucketNames, type ProfileAnalysis } from './buckets.js';
import type { BucketFunction } from './top-functions.js';

/** A bucket's function with its cost per successful request. */
export interface BucketFunctionCost extends BucketFunction {
  msPerOkRequest: number;
}

/** What one profiled window cost per successful request, bucket by bucket. */
export interface BucketCosts {
  okRequests: number;
  /** Bucket → CPU ms per successful request, in display order, idle excluded. */
  bucketMsPerOkRequest: Record<string, number>;
  /**
   * Their sum: the main thread's non-idle ms per successful request. On a gateway pinned to one
   * busy core it landed within 11% of the process's CPU ms per successful request in every Mesh,
   * Hive and Apollo step measured; the main thread's own CPU was 70–86% of it, GC helper threads
   * and the profiler's thread took the rest (docs/cpu-buckets.md, by thread: bench/src/thread-cpu-table.ts).
   */
  busyMsPerOkRequest: number;
  /** Bucket → its top functions (from `analysis.bucketFunctions`) with ms per successful request. */
  functionsByBucket: Record<string, BucketFunctionCost[]>;
}

/**
 * Milliseconds per successful request of each bucket, idle excluded: `msByBucket` divided by the
 * successful requests of the same window. Unlike shares, these do not move when idle time moves
 * or when another bucket grows. Works on one profile's `msByBucket` or on a sum over windows (with
 * the windows' summed successful requests). {} when there were no successful requests.
 */
export function bucketMsPerOkRequest(msByBucket: Readonly<Record<string, number>>, okRequests: number): Record<string, number> {
  if (!(okRequests > 0)) return {};
  const perRequest: Record<string, number> = {};
  for (const name of orderBucketNames(Object.keys(msByBucket))) {
    if (name === 'idle' || msByBucket[name] === undefined) continue;
    perRequest[name] = msByBucket[name]! / okRequests;
  }
  return perRequest;
}

/** Costs of one analysed profile given the successful requests in its window; null without any. */
export function bucketCosts(analysis: ProfileAnalysis, okRequests: number): BucketCosts | null {
  if (!(okRequests > 0) || analysis.samples === 0) return null;
  const functionsByBucket: Record<string, BucketFunctionCost[]> = {};
  for (const [bucket, functions] of Object.entries(analysis.bucketFunctions)) {
    if (bucket === 'idle') continue;
    functionsByBucket[bucket] = functions.map((fn) => ({ ...fn, msPerOkRequest: fn.selfMs / okRequests }));
  }
  return {
    okRequests,
    bucketMsPerOkRequest: bucketMsPerOkRequest(analysis.msByBucket, okRequests),
    busyMsPerOkRequest: analysis.busyMs / okRequests,
    functionsByBucket,
  };
}

/** The gc bucket beside Node's own account of GC in the same window. */
export interface GcGroundTruth {
  /** The gc bucket: ms, and share of the time the samples stand for. */
  profileGcMs: number;
  profileGcShare: number;
  /** Node's `perf_hooks` GC entries (main-thread pauses) in the window: ms, and share of the window. */
  nodeGcMs: number;
  nodeGcShare: number;
  /** profileGcShare − nodeGcShare, in percentage points. */
  differencePoints: number;
  /** |differencePoints| beyond the threshold (default 3 points). */
  disagrees: boolean;
}

/**
 * Sets the gc bucket beside the GC time Node reported for the same window (the sum of the
 * durations of `perf_hooks` "gc" entries that started in it, and the window's length). Expect the
 * profile to be about 1–2 points higher: V8's incremental marking steps run on the main thread as
 * GC but get no entry of their own. Null when the profile has no samples or the window is empty.
 */
export function compareGcWithNode(analysis: ProfileAnalysis, node: { gcMs: number; windowMs: number }, thresholdPoints = 3): GcGroundTruth | null {
  if (analysis.samples === 0 || analysis.durationMs <= 0 || !(node.windowMs > 0)) return null;
  const profileGcMs = analysis.msByBucket.gc ?? 0;
  const profileGcShare = profileGcMs / analysis.durationMs;
  const nodeGcShare = node.gcMs / node.windowMs;
  const differencePoints = 100 * (profileGcShare - nodeGcShare);
  return { profileGcMs, profileGcShare, nodeGcMs: node.gcMs, nodeGcShare, differencePoints, disagrees: Math.abs(differencePoints) > thresholdPoints };
}
