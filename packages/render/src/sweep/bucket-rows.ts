import type { RunResult, StepRecord } from '@gwprof/results';
import { bucketColumns } from './buckets.js';
import { stepAnalysisOf } from './step-analysis.js';

/** What a step contributes to the bucket table. */
export type StepBuckets = { kind: 'shares'; samples: number | null; shares: Record<string, number> } | { kind: 'no-samples' | 'not-analysed' | 'not-profiled' };

export function stepBuckets(run: RunResult, step: StepRecord): StepBuckets {
  const analysis = stepAnalysisOf(run, step);
  const samples = analysis?.samples ?? step.profile?.samples;
  if (samples === 0) return { kind: 'no-samples' };
  if (analysis?.buckets && Object.keys(analysis.buckets).length > 0) {
    return { kind: 'shares', samples: samples ?? null, shares: analysis.buckets };
  }
  if (step.profile) return { kind: 'not-analysed' };
  return { kind: 'not-profiled' };
}

/** What a step without bucket shares shows in place of them. */
export function missingBucketsLabel(entry: StepBuckets): string {
  if (entry.kind === 'no-samples') return 'no samples';
  if (entry.kind === 'not-analysed') return 'not analysed';
  return 'not profiled';
}

/** True when at least one step carries bucket shares: otherwise the bucket table is left out. */
export function hasBuckets(run: RunResult): boolean {
  return (run.analysis?.steps ?? []).some((a) => a.buckets && Object.keys(a.buckets).length > 0);
}

export function runBucketColumns(run: RunResult): string[] {
  return bucketColumns((run.analysis?.steps ?? []).map((a) => a.buckets ?? undefined));
}
