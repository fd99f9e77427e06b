import type { BucketDelta, MetricComparison, SampleSummary, Verdict } from '@gwprof/results';
import { orderBucketNames } from './buckets.js';
import { mean, median, variance } from './descriptive.js';
import { studentTQuantile } from './student-t.js';

export interface CompareOptions {
  higherIsBetter: boolean;
  /** Smallest relative change that counts as a regression or improvement (default 0.05). */
  threshold?: number;
  /** Confidence level of the interval (default 0.95). */
  confidence?: number;
  metric?: string;
  unit?: string;
}

/**
 * Relative change of a metric between two sets of trials, with a confidence interval and a verdict.
 * Positive values: the ratio of geometric means by a Welch t interval on the logs, which suits
 * multiplicative run-to-run noise and keeps the interval's ends positive ratios. Otherwise a Welch
 * interval on the raw difference divided by the baseline mean.
 */
export function compareSamples(
  baseline: readonly number[],
  candidate: readonly number[],
  options: CompareOptions,
): MetricComparison {
  const threshold = options.threshold ?? 0.05;
  const confidence = options.confidence ?? 0.95;
  const level = `${+(confidence * 100).toFixed(2)}%`;
  const base = summarize(baseline);
  const cand = summarize(candidate);
  const result = (relativeChange: number | null, ci: [number, number] | null, method: string): MetricComparison => ({
    metric: options.metric ?? '',
    unit: options.unit ?? '',
    higherIsBetter: options.higherIsBetter,
    baseline: base,
    candidate: cand,
    relativeChange,
    ci95: ci,
    verdict: verdictFor(ci, relativeChange, threshold, options.higherIsBetter),
    method,
  });

  if (base.n < 2 || cand.n < 2) {
    const point = base.n > 0 && cand.n > 0 && base.mean !== 0 ? cand.mean / base.mean - 1 : null;
    return result(point, null, `needs at least 2 trials per side (have ${base.n} and ${cand.n}); no interval`);
  }
  if ([...baseline, ...candidate].every((v) => v > 0)) {
    const logs = welch(baseline.map(Math.log), candidate.map(Math.log), confidence);
    return result(
      Math.exp(logs.difference) - 1,
      [Math.exp(logs.low) - 1, Math.exp(logs.high) - 1],
      `ratio of geometric means, Welch t ${level} interval on log values (df ${logs.df.toFixed(1)})`,
    );
  }
  if (base.mean <= 0) {
    return result(null, null, 'baseline mean is not positive: relative change undefined');
  }
  const raw = welch(baseline, candidate, confidence);
  return result(
    raw.difference / base.mean,
    [raw.low / base.mean, raw.high / base.mean],
    `values not all positive: Welch t ${level} interval on the difference of means, relative to the baseline mean (df ${raw.df.toFixed(1)})`,
  );
}

/**
 * `regression`/`improvement`: the interval excludes no change on that side and the point estimate
 * moved by at least `threshold`; `no change`: the whole interval lies within ±threshold;
 * otherwise `inconclusive` (more trials could decide).
 */
export function verdictFor(
  ci: readonly [number, number] | null,
  pointEstimate: number | null,
  threshold: number,
  higherIsBetter: boolean,
): Verdict {
  if (ci === null || pointEstimate === null) return 'inconclusive';
  // Re-express so that positive always means "worse".
  const worse = (x: number) => (higherIsBetter ? -x : x);
  const [low, high] = [Math.min(worse(ci[0]), worse(ci[1])), Math.max(worse(ci[0]), worse(ci[1]))];
  const point = worse(pointEstimate);
  if (low > 0 && point >= threshold) return 'regression';
  if (high < 0 && point <= -threshold) return 'improvement';
  if (ci[0] >= -threshold && ci[1] <= threshold) return 'no change';
  return 'inconclusive';
}

/**
 * Mean share of each CPU bucket per side and the move in percentage points, largest move first.
 * Trials without samples ({}) are left out; [] when a side has none left.
 */
export function compareBuckets(
  baseline: readonly Record<string, number>[],
  candidate: readonly Record<string, number>[],
): BucketDelta[] {
  const base = baseline.filter((shares) => Object.keys(shares).length > 0);
  const cand = candidate.filter((shares) => Object.keys(shares).length > 0);
  if (base.length === 0 || cand.length === 0) return [];
  const meanShare = (trials: readonly Record<string, number>[], bucket: string) =>
    mean(trials.map((shares) => shares[bucket] ?? 0));
  const names = orderBucketNames([...base, ...cand].flatMap((shares) => Object.keys(shares)));
  return names
    .map((bucket) => {
      const b = meanShare(base, bucket);
      const c = meanShare(cand, bucket);
      return { bucket, baseline: b, candidate: c, deltaPoints: (c - b) * 100 };
    })
    .sort((x, y) => Math.abs(y.deltaPoints) - Math.abs(x.deltaPoints) || names.indexOf(x.bucket) - names.indexOf(y.bucket));
}

export function summarize(values: readonly number[]): SampleSummary {
  return {
    n: values.length,
    median: values.length > 0 ? median(values) : NaN,
    mean: values.length > 0 ? mean(values) : NaN,
    values: [...values],
  };
}

/** Welch's interval for mean(candidate) − mean(baseline). */
function welch(baseline: readonly number[], candidate: readonly number[], confidence: number) {
  const difference = mean(candidate) - mean(baseline);
  const vb = variance(baseline) / baseline.length;
  const vc = variance(candidate) / candidate.length;
  const se = Math.sqrt(vb + vc);
  if (se === 0) return { difference, low: difference, high: difference, df: baseline.length + candidate.length - 2 };
  // Welch–Satterthwaite degrees of freedom.
  const df = (vb + vc) ** 2 / (vb ** 2 / (baseline.length - 1) + vc ** 2 / (candidate.length - 1));
  const half = studentTQuantile(1 - (1 - confidence) / 2, df) * se;
  return { difference, low: difference - half, high: difference + half, df };
}
