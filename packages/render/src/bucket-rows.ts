import type { RunResult, StepResult } from '@gwprof/results';
import { bucketColumns } from './buckets.js';

/** What a step contributes to the bucket table. */
export type StepBuckets =
  | { kind: 'shares'; concurrency: number; samples: number | null; shares: Record<string, number> }
  | { kind: 'no-samples' | 'not-analysed' | 'not-profiled'; concurrency: number };

export function stepBuckets(step: StepResult): StepBuckets {
  const samples = step.profile?.samples;
  if (samples === 0) return { kind: 'no-samples', concurrency: step.concurrency };
  if (step.buckets && Object.keys(step.buckets).length > 0) {
    return { kind: 'shares', concurrency: step.concurrency, samples: samples ?? null, shares: step.buckets };
  }
  if (step.profile) return { kind: 'not-analysed', concurrency: step.concurrency };
  return { kind: 'not-profiled', concurrency: step.concurrency };
}

/** What a step without bucket shares shows in place of them. */
export function missingBucketsLabel(entry: StepBuckets): string {
  if (entry.kind === 'no-samples') return 'no samples';
  if (entry.kind === 'not-analysed') return 'not analysed';
  return 'not profiled';
}

/** True when at least one step carries bucket shares: otherwise the bucket table is left out. */
export function hasBuckets(run: RunResult): boolean {
  return run.steps.some((s) => s.buckets && Object.keys(s.buckets).length > 0);
}

export function runBucketColumns(run: RunResult): string[] {
  return bucketColumns(run.steps.map((s) => s.buckets));
}
