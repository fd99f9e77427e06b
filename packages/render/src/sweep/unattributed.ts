/**
 * What no rule placed (the `unplaced` and `other` buckets), said where the buckets are shown: how
 * much of the sampled time it is, which functions hold most of it, and how to place them.
 */
import { UNATTRIBUTED_BUCKETS, frameKind } from '@gwprof/analysis';
import { loadLabel, type BucketFunctionCost, type RunResult } from '@gwprof/results';
import { stepAnalysisOf } from './step-analysis.js';
import { functionDisplayName } from '../function-names.js';

/** A step's or a profile's buckets as the unattributed line needs them. */
export interface BucketsOfOne {
  buckets: Record<string, number> | null;
  bucketFunctions: Record<string, ReadonlyArray<Pick<BucketFunctionCost, 'functionName' | 'url' | 'line' | 'shareOfBucket'>>>;
}

const pct = (share: number) => `${(share * 100).toFixed(1)}%`;

/** "c=10: 5.1% of the sampled time unattributed (unplaced 4.3%, other 0.8%); most of it in DOMException (…) 0.6%, …"; null when nothing is. */
export function unattributedLine(label: string, step: BucketsOfOne, top = 3): string | null {
  const shares = UNATTRIBUTED_BUCKETS.map((bucket) => [bucket, step.buckets?.[bucket] ?? 0] as const).filter(([, share]) => share > 0);
  const total = shares.reduce((sum, [, share]) => sum + share, 0);
  if (total === 0) return null;
  const functions = shares
    .flatMap(([bucket, share]) => (step.bucketFunctions[bucket] ?? []).map((f) => ({ f, share: f.shareOfBucket * share })))
    .sort((a, b) => b.share - a.share)
    .slice(0, top)
    .map(({ f, share }) => `${functionDisplayName(f)} (${f.url || 'native'}) ${pct(share)}`);
  return `${label}: ${pct(total)} of the sampled time unattributed (${shares.map(([bucket, share]) => `${bucket} ${pct(share)}`).join(', ')})${functions.length > 0 ? `; most of it in ${functions.join(', ')}` : ''}`;
}

/** How to place what gwprof does not know, with a rule for the package (or crate) of the largest unattributed function, when it is in one. */
export function unattributedHint(steps: readonly BucketsOfOne[]): string {
  const functions = steps
    .flatMap((step) =>
      UNATTRIBUTED_BUCKETS.flatMap((bucket) =>
        (step.bucketFunctions[bucket] ?? []).map((f) => ({ f, share: f.shareOfBucket * (step.buckets?.[bucket] ?? 0) })),
      ),
    )
    .sort((a, b) => b.share - a.share)
    .map(({ f }) => f);
  const explain = '`gwprof buckets FILE.cpuprofile --explain NAME` says which rule placed a frame and why.';
  if (functions.length > 0 && !functions.some((f) => frameKind(f.url) === 'javascript')) {
    const crate = functions.map((f) => /^<?([a-z_][a-z0-9_]*)::/.exec(f.functionName)?.[1]).find((name) => name !== undefined);
    const example = `[{"bucket": "${crate ? '<the bucket it belongs to>' : 'fetch'}", "functionName": "^${crate ?? 'my_crate'}::", "comment": "what it does"}]`;
    return `To place native code gwprof does not know, pass --rules FILE with rules like ${example}; ${explain} A task the async runtime polls with no frame a rule knows stays unplaced.`;
  }
  const pkg = functions.map((f) => /.*node_modules[/\\]((?:@[^/\\]+[/\\])?[^/\\]+)[/\\]/.exec(f.url)?.[1]).find((name) => name !== undefined);
  const example = pkg
    ? `[{"bucket": "<the bucket it belongs to>", "url": "node_modules/${pkg}/", "comment": "what it does"}]`
    : '[{"bucket": "fetch", "url": "node_modules/my-http-client/", "comment": "what it does"}]';
  return `To place code gwprof does not know, pass --rules FILE with rules like ${example}; ${explain} Node's own stream and event frames run from the event loop serve both the server and the subgraph client, and the stack does not tell which: they stay unplaced.`;
}

/** One line per profiled step of a run, and the hint once; [] when nothing is unattributed. */
export function runUnattributedLines(run: RunResult): string[] {
  const steps = run.steps.flatMap((step) => {
    const analysis = stepAnalysisOf(run, step);
    return analysis?.buckets ? [{ label: loadLabel(step.load), analysis: { buckets: analysis.buckets, bucketFunctions: analysis.bucketFunctions } }] : [];
  });
  const lines = steps.map((s) => unattributedLine(s.label, s.analysis)).filter((line): line is string => line !== null);
  return lines.length > 0 ? [...lines, unattributedHint(steps.map((s) => s.analysis))] : [];
}
