import type { BucketDelta, PublishedCompare, MetricComparison, Verdict } from '@gwprof/results';
import { NONE, ciRange, metricValue, signedPercent, signedPoints, shareAsPercent } from './format.js';

const METRIC_LABELS: Record<string, string> = {
  rps: 'throughput (ok req/s)',
  cpuMsPerOkRequest: 'gateway CPU per ok request',
  p50: 'p50 latency',
  p90: 'p90 latency',
  p99: 'p99 latency',
  rssMaxMB: 'peak RSS',
  fanout: 'fan-out',
};

export function metricLabel(metric: string): string {
  return METRIC_LABELS[metric] ?? metric;
}

/** Whether the point estimate moved in the bad direction for this metric (for coloring only). */
export function changeIsWorse(m: MetricComparison): boolean | null {
  if (m.relativeChange === null || m.relativeChange === 0) return null;
  return m.higherIsBetter ? m.relativeChange < 0 : m.relativeChange > 0;
}

/** The comparison only measures deltas (two finished runs): no CI, no verdict. */
export function isDeltasOnly(compare: PublishedCompare): boolean {
  return compare.mode === 'runs';
}

export interface MetricRow {
  metric: MetricComparison;
  label: string;
  unit: string;
  baseline: string;
  candidate: string;
  delta: string;
  ci: string;
  verdict: Verdict;
  trials: string;
}

export function metricRow(m: MetricComparison): MetricRow {
  return {
    metric: m,
    label: metricLabel(m.metric),
    unit: m.unit,
    baseline: metricValue(m.baseline.median),
    candidate: metricValue(m.candidate.median),
    delta: signedPercent(m.relativeChange),
    ci: ciRange(m.ci95),
    verdict: m.verdict,
    trials: `${m.baseline.n}/${m.candidate.n}`,
  };
}

/** Buckets ordered by how far they moved, negligible moves (< 0.05 pp) left out. */
export function bucketsMovedMost(buckets: BucketDelta[], n = 5): BucketDelta[] {
  return [...buckets]
    .filter((b) => Number.isFinite(b.deltaPoints) && Math.abs(b.deltaPoints) >= 0.05)
    .sort((a, b) => Math.abs(b.deltaPoints) - Math.abs(a.deltaPoints))
    .slice(0, n);
}

/** "execute +6.0 pp (30.0% → 36.0%)": shares are fractions, the delta is already in points. */
export function bucketMoveText(b: BucketDelta): string {
  return `${b.bucket} ${signedPoints(b.deltaPoints)} (${shareAsPercent(b.baseline)}% → ${shareAsPercent(b.candidate)}%)`;
}

export function overallVerdictText(compare: PublishedCompare): string {
  switch (compare.analysis.verdict) {
    case 'regression':
      return 'REGRESSION';
    case 'no regression':
      return 'NO REGRESSION';
    case 'inconclusive':
      return 'INCONCLUSIVE';
    case 'invalid':
      return 'INVALID COMPARISON';
    case 'deltas only':
      return 'DELTAS ONLY';
    default:
      return String(compare.analysis.verdict).toUpperCase() || NONE;
  }
}

/** Good, bad or neutral for the overall verdict banner. */
export function verdictTone(compare: PublishedCompare): 'ok' | 'bad' | 'warn' {
  if (compare.analysis.verdict === 'no regression') return 'ok';
  if (compare.analysis.verdict === 'regression' || compare.analysis.verdict === 'invalid') return 'bad';
  return 'warn';
}

/** Trial steps that failed validation: any of them makes the comparison invalid. */
export function failedTrials(compare: PublishedCompare) {
  return compare.trials.filter((t) => t.step.status === 'failed');
}
