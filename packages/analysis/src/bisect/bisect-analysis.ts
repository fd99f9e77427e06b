/**
 * A bisection's `analysis` part from its record: each point's instructions per validated request,
 * the scatter of a point between processes measured from the repeats, the steps between neighbouring
 * counted points (less those their full comparison did not confirm), the ranges taken as flat or left
 * unresolved, and the verdict with its exit code (exit-code.ts). A regression step decides (exit 1);
 * a step within the noise of the threshold, or a range the noise left unresolved, is said, not
 * decided (exit 3).
 */
import type { BisectAnalysis, BisectConfirmation, BisectCount, BisectNoise, BisectPoint, BisectResult, BisectStep } from '@gwprof/results';
import { exitCodeOf, type Finding } from '../exit-code.js';
import { RANGE_CONFIDENCE, countsForThreshold, resolvableThreshold } from './bisect-noise.js';
import { meanLog, planBisection, type BisectPlan } from './bisect-plan.js';

/**
 * What a count weighs at a point: its instructions per validated request, or in a memory bisection its
 * allocations per validated request (allocator calls, else V8's heap bytes); null for a count without them.
 */
export function countValue(config: BisectResult['config']): (count: BisectCount) => number | null {
  if (config.measure !== 'memory') return (c) => c.instructionsPerOkRequest;
  return (c) => {
    const allocations = c.allocationCalls ?? c.allocatedBytes ?? null;
    return allocations !== null && allocations > 0 && c.ok > 0 ? allocations / c.ok : null;
  };
}

/** What a point's value counts, per validated request. */
export function bisectUnit(bisect: BisectResult): string {
  if (bisect.config.measure !== 'memory') return 'instructions/req';
  const counts = bisect.points.flatMap((p) => p.counts);
  const bytesOnly =
    counts.some((c) => c.allocatedBytes != null && c.allocatedBytes > 0) && !counts.some((c) => c.allocationCalls != null && c.allocationCalls > 0);
  return bytesOnly ? 'bytes/req' : 'allocations/req';
}

function pointValues(bisect: BisectResult, point: BisectPoint): number[] {
  const value = countValue(bisect.config);
  return point.counts.map(value).filter((v): v is number => v !== null);
}

export function planOf(bisect: BisectResult): BisectPlan {
  const { config } = bisect;
  return planBisection(
    bisect.points.map((p) => ({ perRequest: pointValues(bisect, p), skipped: p.skipped !== null })),
    { threshold: config.threshold, splitFraction: config.splitFraction, minPointSd: config.minPointSd, maxCountsPerPoint: config.maxCountsPerPoint },
  );
}

export function analyzeBisection(bisect: BisectResult): BisectAnalysis {
  const plan = planOf(bisect);
  const perRequest = bisect.points.map((p) => {
    const values = pointValues(bisect, p);
    return values.length > 0 ? Math.exp(meanLog(values)) : null;
  });
  const first = perRequest[0];
  const last = perRequest[perRequest.length - 1];
  const found: BisectStep[] = plan.steps.map((s) => ({
    ...s,
    kind: s.relativeChange > 0 ? 'regression' : 'improvement',
    reproduce: reproduceLine(bisect, s.good, s.bad),
  }));
  const steps = found.filter((s) => !notConfirmed(bisect, s));
  const unconfirmedSteps = found.filter((s) => notConfirmed(bisect, s));
  const noise = noiseOf(bisect, plan);
  const { verdict, reasons, finding } = verdictOf(bisect, plan, steps, unconfirmedSteps, noise);
  return {
    perRequest,
    unit: bisectUnit(bisect),
    largestStep: largestOf(steps),
    totalChange: first && last ? last / first - 1 : null,
    steps,
    unconfirmedSteps,
    flatRanges: plan.flatRanges,
    unresolvedRanges: plan.unresolvedRanges,
    noise,
    pending: plan.pending,
    verdict,
    reasons,
    exitCode: exitCodeOf(bisect.state, finding),
  };
}

function noiseOf(bisect: BisectResult, plan: BisectPlan): BisectNoise {
  const { noise } = plan;
  const { threshold, maxCountsPerPoint } = bisect.config;
  return {
    measuredSd: noise.measuredSd,
    df: noise.df,
    pointsRepeated: noise.pointsRepeated,
    floor: noise.floor,
    sd: noise.sd,
    confidence: RANGE_CONFIDENCE,
    stepConfidence: noise.stepConfidence,
    resolvableThreshold: resolvableThreshold(noise, maxCountsPerPoint),
    countsForThreshold: countsForThreshold(noise, threshold),
  };
}

/** The step whose change is largest, either way. */
function largestOf(steps: readonly BisectStep[]): BisectStep | null {
  return steps.reduce<BisectStep | null>(
    (largest, s) => (largest === null || Math.abs(s.relativeChange) > Math.abs(largest.relativeChange) ? s : largest),
    null,
  );
}

/** Its full comparison found no change, or a change the other way (in a memory bisection: its allocation verdict did). */
function notConfirmed(bisect: BisectResult, step: BisectStep): boolean {
  const c = confirmationOf(bisect, step);
  if (!c || c.error || c.verdict === null) return false;
  const verdict = bisect.config.measure === 'memory' ? c.allocations?.verdict : c.verdict;
  if (verdict === undefined) return false;
  const opposite = step.kind === 'regression' ? 'improvement' : 'regression';
  return verdict === 'no change' || verdict === opposite;
}

export function confirmationOf(bisect: BisectResult, step: { good: number; bad: number }): BisectConfirmation | undefined {
  return bisect.confirmations.find((c) => c.good === step.good && c.bad === step.bad);
}

function verdictOf(
  bisect: BisectResult,
  plan: BisectPlan,
  steps: readonly BisectStep[],
  unconfirmed: readonly BisectStep[],
  noise: BisectNoise,
): { verdict: string; reasons: string[]; finding: Finding | null } {
  const { points, config } = bisect;
  const threshold = `${(config.threshold * 100).toFixed(1)}%`;
  if (plan.skippedEnd !== null) {
    const end = points[plan.skippedEnd]!;
    return {
      verdict: 'error',
      reasons: [
        `the ${plan.skippedEnd === 0 ? 'good' : 'bad'} end ${end.label} could not be counted (${end.skipped!.stage}: ${end.skipped!.reason}): choose another end`,
      ],
      finding: null,
    };
  }
  if (plan.pending.length > 0) {
    const reason = bisect.error ?? (bisect.state === 'interrupted' ? 'interrupted' : 'not finished');
    return { verdict: 'unfinished', reasons: [`${reason}: ${plan.pending.length} point(s) still to count; --resume goes on`], finding: null };
  }
  const skipped = points.filter((p) => p.skipped).map((p) => `${p.label} (${p.skipped!.stage})`);
  const unresolved = plan.unresolvedRanges;
  const reasons = [
    ...(skipped.length > 0 ? [`not counted, skipped: ${skipped.join(', ')}`] : []),
    ...unconfirmed.map(
      (s) =>
        `${points[s.good]!.label} → ${points[s.bad]!.label}: found by the counts, not confirmed by its full comparison (${confirmationOf(bisect, s)!.verdict})`,
    ),
    ...(unresolved.length > 0 ? [unresolvedReason(bisect, unresolved.length, noise)] : []),
  ];
  const regressions = steps.filter((s) => s.kind === 'regression' && !s.nearThreshold);
  const near = steps.filter((s) => s.nearThreshold);
  if (regressions.length > 0)
    return { verdict: `${regressions.length} regression step${regressions.length > 1 ? 's' : ''} above ${threshold}`, reasons, finding: 'failed' };
  if (near.length > 0)
    return {
      verdict: `${near.length} step${near.length > 1 ? 's' : ''} within the noise of ${threshold}`,
      reasons: [...reasons, 'counted again up to the limit, still not told from the threshold: compare its two points (the reproduce line)'],
      finding: 'inconclusive',
    };
  if (unresolved.length > 0) return { verdict: `the noise is too large for ${threshold}`, reasons, finding: 'inconclusive' };
  return { verdict: `no regression step above ${threshold}`, reasons, finding: 'passed' };
}

/** What the noise left undecided, what it can resolve, and the counts the threshold would take. */
function unresolvedReason(bisect: BisectResult, ranges: number, noise: BisectNoise): string {
  const { threshold, maxCountsPerPoint } = bisect.config;
  const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
  return (
    `${ranges} range${ranges > 1 ? 's' : ''} left unresolved: one point scatters by ${pct(noise.sd)} between processes, ` +
    `so ${maxCountsPerPoint} counts a point resolve a change of ${pct(noise.resolvableThreshold)}, not ${pct(threshold)}; ` +
    `${pct(threshold)} would take about ${noise.countsForThreshold} counts a point (--max-counts), or choose a threshold of ${pct(noise.resolvableThreshold)} or more`
  );
}

/** The arguments of `gwprof compare` that measure a step's two points again, by instructions, with the bisection's requests. */
export function reproduceArgs(bisect: BisectResult, good: number, bad: number): string[] {
  const { config, points } = bisect;
  const requests = config.scenarioFile
    ? ['--scenario', config.scenarioFile]
    : [
        ...(config.query ? ['--query', config.query] : []),
        ...(config.variables ? ['--variables', config.variables] : []),
        ...(config.expect ? ['--expect', config.expect] : []),
      ];
  // The bisection's own settings, so that the comparison counts what the bisection counted.
  const counting = [
    '--threshold',
    String(config.threshold * 100),
    '--warmup-requests',
    String(config.instructions.warmupRequests),
    '--batch-requests',
    String(config.instructions.batchRequests),
  ];
  return [
    '--measure',
    'instructions',
    '--baseline',
    points[good]!.spec,
    '--candidate',
    points[bad]!.spec,
    ...requests,
    ...(config.expectNone ? ['--expect-none'] : []),
    ...counting,
    // Allocations are decided from the verdict's own batches: the pair that shows where the instructions went adds nothing to them.
    ...(config.measure === 'memory' ? ['--no-profile'] : []),
  ];
}

function reproduceLine(bisect: BisectResult, good: number, bad: number): string {
  const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  return ['gwprof', 'compare', ...reproduceArgs(bisect, good, bad)].map(quote).join(' ');
}
