/**
 * A bisection's `analysis` part from its record: each point's instructions per validated request,
 * the steps between neighbouring counted points, the ranges taken as flat, and the verdict with its
 * exit code (exit-code.ts). A regression step decides (exit 1); a step still within the noise of
 * the threshold after its repeats is said, not decided (exit 3).
 */
import type { BisectAnalysis, BisectResult, BisectStep } from '@gwprof/results';
import { exitCodeOf, type Finding } from '../exit-code.js';
import { meanLog, planBisection, type BisectPlan } from './bisect-plan.js';

export function planOf(bisect: BisectResult): BisectPlan {
  const { config } = bisect;
  return planBisection(
    bisect.points.map((p) => ({ perRequest: p.counts.map((c) => c.instructionsPerOkRequest), skipped: p.skipped !== null })),
    { threshold: config.threshold, splitFraction: config.splitFraction, pointSd: config.pointSd, maxCountsPerPoint: config.maxCountsPerPoint },
  );
}

export function analyzeBisection(bisect: BisectResult): BisectAnalysis {
  const plan = planOf(bisect);
  const perRequest = bisect.points.map((p) => (p.counts.length > 0 ? Math.exp(meanLog(p.counts.map((c) => c.instructionsPerOkRequest))) : null));
  const first = perRequest[0];
  const last = perRequest[perRequest.length - 1];
  const steps: BisectStep[] = plan.steps.map((s) => ({
    ...s,
    kind: s.relativeChange > 0 ? 'regression' : 'improvement',
    reproduce: reproduceLine(bisect, s.good, s.bad),
  }));
  const { verdict, reasons, finding } = verdictOf(bisect, plan, steps);
  return {
    perRequest,
    totalChange: first && last ? last / first - 1 : null,
    steps,
    flatRanges: plan.flatRanges,
    pending: plan.pending,
    verdict,
    reasons,
    exitCode: exitCodeOf(bisect.state, finding),
  };
}

function verdictOf(bisect: BisectResult, plan: BisectPlan, steps: readonly BisectStep[]): { verdict: string; reasons: string[]; finding: Finding | null } {
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
  const reasons = skipped.length > 0 ? [`not counted, skipped: ${skipped.join(', ')}`] : [];
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
  return { verdict: `no regression step above ${threshold}`, reasons, finding: 'passed' };
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
  ];
}

function reproduceLine(bisect: BisectResult, good: number, bad: number): string {
  const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  return ['gwprof', 'compare', ...reproduceArgs(bisect, good, bad)].map(quote).join(' ');
}
