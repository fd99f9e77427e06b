/**
 * From compare trials to levels and a verdict. The verdict is gated on the steadiest
 * metrics — gateway CPU time per successful request, and successful req/s — with the
 * confidence level Bonferroni-adjusted over every gating comparison, so that checking two
 * metrics at several levels after every pair does not inflate false alarms. Latency
 * percentiles, peak RSS and fan-out are reported with 95% intervals as information.
 */
import type { CompareLevel, MetricComparison, StepRecord, TrialRecord } from '@gwprof/results';
import { compareBuckets, compareSamples } from './compare.js';

interface MetricSpec {
  metric: string;
  unit: string;
  higherIsBetter: boolean;
  gating: boolean;
  value: (step: StepRecord) => number | null;
}

export const COMPARE_METRICS: readonly MetricSpec[] = [
  { metric: 'cpuMsPerOkRequest', unit: 'CPU ms/req', higherIsBetter: false, gating: true, value: (s) => s.gateway.cpuMsPerOkRequest },
  { metric: 'rps', unit: 'req/s', higherIsBetter: true, gating: true, value: (s) => s.rps },
  { metric: 'p50', unit: 'ms', higherIsBetter: false, gating: false, value: (s) => s.latencyMs?.p50 ?? null },
  { metric: 'p99', unit: 'ms', higherIsBetter: false, gating: false, value: (s) => s.latencyMs?.p99 ?? null },
  { metric: 'rssMaxMB', unit: 'MB', higherIsBetter: false, gating: false, value: (s) => s.gateway.rssMaxMB },
  { metric: 'fanout', unit: 'subgraph req/req', higherIsBetter: false, gating: false, value: (s) => s.fanout },
];

export interface TrialsVerdict {
  levels: CompareLevel[];
  verdict: 'regression' | 'no regression' | 'inconclusive' | 'invalid';
  reasons: string[];
  /** Some gating metric is still inconclusive: more trials could decide it. */
  needMoreTrials: boolean;
  exitCode: 0 | 1 | 2;
  /** Per-comparison confidence used for the gating metrics. */
  gatingConfidence: number;
}

/** Bucket shares of a step's profile, by step id (from the publish pass); null when it has none. */
export type BucketLookup = (stepId: string) => Record<string, number> | null;

const values = (trials: readonly TrialRecord[], spec: MetricSpec): number[] =>
  trials.map((t) => spec.value(t.step)).filter((v): v is number => v !== null && Number.isFinite(v));

export function judgeTrials(
  trials: readonly TrialRecord[],
  options: { threshold: number; concurrency: readonly number[]; buckets?: BucketLookup },
): TrialsVerdict {
  const bucketsOf = (trial: TrialRecord) => options.buckets?.(trial.step.id) ?? {};
  const gatingCount = COMPARE_METRICS.filter((m) => m.gating).length * options.concurrency.length;
  const gatingConfidence = 1 - 0.05 / gatingCount;
  const levels: CompareLevel[] = options.concurrency.map((concurrency) => {
    const at = trials.filter((t) => t.step.concurrency === concurrency);
    const baseline = at.filter((t) => t.side === 'baseline');
    const candidate = at.filter((t) => t.side === 'candidate');
    const metrics: MetricComparison[] = COMPARE_METRICS.map((spec) =>
      compareSamples(values(baseline, spec), values(candidate, spec), {
        higherIsBetter: spec.higherIsBetter,
        threshold: options.threshold,
        confidence: spec.gating ? gatingConfidence : 0.95,
        metric: spec.metric,
        unit: spec.unit,
      }),
    );
    const buckets = compareBuckets(baseline.map(bucketsOf), candidate.map(bucketsOf));
    return { concurrency, metrics, buckets };
  });

  const failed = trials.filter((t) => t.step.status === 'failed');
  if (failed.length > 0) {
    return {
      levels,
      verdict: 'invalid',
      reasons: failed.map((t) => `${t.side} trial ${t.index} at concurrency ${t.step.concurrency} failed: ${t.step.failures[0] ?? 'failed'}`),
      needMoreTrials: false,
      exitCode: 2,
      gatingConfidence,
    };
  }
  const gating = levels.flatMap((level) =>
    level.metrics
      .filter((m) => COMPARE_METRICS.find((s) => s.metric === m.metric)?.gating)
      .map((m) => ({ level: level.concurrency, m })),
  );
  const describe = ({ level, m }: { level: number; m: MetricComparison }): string =>
    `${m.metric} at c=${level}: ${m.relativeChange === null ? 'n/a' : `${m.relativeChange >= 0 ? '+' : ''}${(m.relativeChange * 100).toFixed(1)}%`}` +
    (m.ci95 ? ` [${(m.ci95[0] * 100).toFixed(1)}%, ${(m.ci95[1] * 100).toFixed(1)}%]` : '') +
    ` ${m.verdict}`;
  const regressions = gating.filter((g) => g.m.verdict === 'regression');
  const inconclusive = gating.filter((g) => g.m.verdict === 'inconclusive');
  if (regressions.length > 0) {
    return { levels, verdict: 'regression', reasons: regressions.map(describe), needMoreTrials: false, exitCode: 1, gatingConfidence };
  }
  if (inconclusive.length > 0) {
    return { levels, verdict: 'inconclusive', reasons: inconclusive.map(describe), needMoreTrials: true, exitCode: 0, gatingConfidence };
  }
  return { levels, verdict: 'no regression', reasons: gating.map(describe), needMoreTrials: false, exitCode: 0, gatingConfidence };
}

/** Two finished sweeps' tables side by side: deltas only, no interval and no verdict. */
export function diffRuns(
  baseline: { steps: readonly StepRecord[]; buckets: BucketLookup },
  candidate: { steps: readonly StepRecord[]; buckets: BucketLookup },
): CompareLevel[] {
  const levels: CompareLevel[] = [];
  for (const b of baseline.steps) {
    const c = candidate.steps.find((s) => s.concurrency === b.concurrency);
    if (!c) continue;
    const metrics = COMPARE_METRICS.map((spec): MetricComparison => {
      const bv = spec.value(b);
      const cv = spec.value(c);
      const summary = (v: number | null) => ({ n: v === null ? 0 : 1, median: v ?? NaN, mean: v ?? NaN, values: v === null ? [] : [v] });
      return {
        metric: spec.metric,
        unit: spec.unit,
        higherIsBetter: spec.higherIsBetter,
        baseline: summary(bv),
        candidate: summary(cv),
        relativeChange: bv !== null && cv !== null && bv !== 0 ? cv / bv - 1 : null,
        ci95: null,
        verdict: 'inconclusive',
        method: 'single run per side: delta only, no interval',
      };
    });
    levels.push({ concurrency: b.concurrency, metrics, buckets: compareBuckets([baseline.buckets(b.id) ?? {}], [candidate.buckets(c.id) ?? {}]) });
  }
  return levels;
}
