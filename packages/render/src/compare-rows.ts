/** The plain-text pieces every compare renderer shares: rows, labels, verdict words. */
import { loadLabel, type BucketDelta, type CompareLevel, type FunctionMove, type MetricComparison, type PublishedCompare } from '@gwprof/results';
import { NONE, ciRange, fixed, metricValue, signedPercent } from './format.js';
import { functionDisplayName, functionLocation } from './top-functions.js';

const METRIC_LABELS: Record<string, string> = {
  rps: 'throughput (ok req/s)',
  cpuMsPerOkRequest: 'gateway CPU per ok request',
  p50: 'p50 latency',
  p99: 'p99 latency',
  rssMaxMB: 'peak RSS',
  fanout: 'fan-out',
};

export function metricLabel(metric: string): string {
  return METRIC_LABELS[metric] ?? metric;
}

/** Whether the point estimate moved in the bad direction for this metric (for colouring only). */
export function changeIsWorse(m: MetricComparison): boolean | null {
  if (m.relativeChange === null || m.relativeChange === 0) return null;
  return m.higherIsBetter ? m.relativeChange < 0 : m.relativeChange > 0;
}

/** Two finished runs compared: deltas, no interval, no verdict. */
export function isDeltasOnly(compare: PublishedCompare): boolean {
  return compare.mode === 'runs';
}

export const METRIC_HEADERS = ['metric', 'unit', 'baseline', 'candidate', 'change', 'interval', 'windows b/c'];

/** A metric row: medians per side, the change (ratio of geometric means), its interval and level. */
export function metricCells(m: MetricComparison): string[] {
  const interval = m.interval ? `${ciRange(m.interval)} ${Math.round((m.confidence ?? 0) * 100)}%` : NONE;
  // Geometric means: the change compares exactly these (with equal windows per side in each block).
  const side = (s: MetricComparison['baseline']) => metricValue(Number.isNaN(s.geometricMean) ? s.median : s.geometricMean);
  return [metricLabel(m.metric), m.unit, side(m.baseline), side(m.candidate), signedPercent(m.relativeChange), interval, `${m.baseline.n}/${m.candidate.n}`];
}

/** The level's sequential decision in one line, its interval labelled at its real confidence. */
export function decisionText(level: CompareLevel): string {
  const d = level.decision;
  if (!d) return 'one run per side: no decision';
  const interval = `[${signedPercent(d.interval.low)}, ${signedPercent(d.interval.high)}] (${d.interval.label})`;
  return `CPU per ok request ${signedPercent(d.relativeChange)} ${interval} after ${d.blocks} blocks in ${d.epochs} epochs, α ${d.alpha.toFixed(3)}: ${d.outcome === 'continue' ? 'undecided' : d.outcome}`;
}

/** Buckets ordered by how far their ms per request moved, moves under 0.005 ms left out. */
export function bucketsMovedMost(buckets: readonly BucketDelta[], n = 5): BucketDelta[] {
  // The record keeps buckets in display order; "moved most" ranks them by the size of the move.
  return buckets
    .filter((b) => Math.abs(b.deltaMsPerOkRequest) >= 0.005)
    .sort((x, y) => Math.abs(y.deltaMsPerOkRequest) - Math.abs(x.deltaMsPerOkRequest))
    .slice(0, n);
}

/** "fetch +0.42 ms/req (2.91 → 3.33)". */
export function bucketMoveText(b: BucketDelta): string {
  const sign = b.deltaMsPerOkRequest >= 0 ? '+' : '';
  return `${b.bucket} ${sign}${fixed(b.deltaMsPerOkRequest, 3)} ms/req (${fixed(b.baselineMsPerOkRequest, 3)} → ${fixed(b.candidateMsPerOkRequest, 3)})`;
}

export const FUNCTION_HEADERS = ['change ms/req', 'baseline', 'candidate', 'bucket', 'function', 'location'];

export function functionCells(f: FunctionMove): string[] {
  const sign = f.deltaMsPerOkRequest >= 0 ? '+' : '';
  return [`${sign}${fixed(f.deltaMsPerOkRequest, 3)}`, fixed(f.baselineMsPerOkRequest, 3), fixed(f.candidateMsPerOkRequest, 3), f.bucket, functionDisplayName(f), functionLocation(f)];
}

export function overallVerdictText(compare: PublishedCompare): string {
  const words: Record<PublishedCompare['analysis']['verdict'], string> = {
    regression: 'REGRESSION',
    'no change': 'NO CHANGE',
    improvement: 'IMPROVEMENT',
    inconclusive: 'INCONCLUSIVE',
    invalid: 'INVALID COMPARISON',
    'deltas only': 'DELTAS ONLY',
  };
  return words[compare.analysis.verdict] ?? String(compare.analysis.verdict).toUpperCase();
}

/** Good, bad or neutral for the overall verdict banner. */
export function verdictTone(compare: PublishedCompare): 'ok' | 'bad' | 'warn' {
  const v = compare.analysis.verdict;
  if (v === 'no change' || v === 'improvement') return 'ok';
  if (v === 'regression' || v === 'invalid') return 'bad';
  return 'warn';
}

/** Windows that failed validation: any of them makes the comparison invalid. */
export function failedWindows(compare: PublishedCompare) {
  return compare.windows.filter((w) => w.step.status === 'failed');
}

/** "e2 block 5 · 3/4 candidate c=20". */
export function windowLabel(w: PublishedCompare['windows'][number]): string {
  return `epoch ${w.epoch} block ${w.block} · ${w.position + 1}/4 ${w.side} ${loadLabel(w.step.load)}`;
}
