/** What a set of paired ratios (traced ÷ plain, one per pair) says: their median and spread, and a 95% interval of their geometric mean. */
import { mean, median, studentTQuantile, variance } from '@gwprof/analysis';

export interface RatioSummary {
  pairs: number;
  ratios: number[];
  median: number;
  min: number;
  max: number;
  /** exp(mean of the logs): the typical ratio, a change of x and one of 1/x weighing alike. */
  geometricMean: number;
  /** Student's t interval of the geometric mean at `confidence`; null with fewer than two pairs. */
  interval: [number, number] | null;
  confidence: number;
}

export function summarizeRatios(ratios: readonly number[], confidence = 0.95): RatioSummary {
  if (ratios.length === 0) throw new RangeError('no ratios to summarise');
  const logs = ratios.map(Math.log);
  const centre = mean(logs);
  let interval: [number, number] | null = null;
  if (logs.length >= 2) {
    const half = studentTQuantile(1 - (1 - confidence) / 2, logs.length - 1) * Math.sqrt(variance(logs) / logs.length);
    interval = [Math.exp(centre - half), Math.exp(centre + half)];
  }
  return {
    pairs: ratios.length,
    ratios: [...ratios],
    median: median(ratios),
    min: Math.min(...ratios),
    max: Math.max(...ratios),
    geometricMean: Math.exp(centre),
    interval,
    confidence,
  };
}

/** A ratio as a signed percentage change: 0.97 → "−3.0%". */
export function percentChange(ratio: number, digits = 1): string {
  const change = (ratio - 1) * 100;
  return `${change >= 0 ? '+' : '−'}${Math.abs(change).toFixed(digits)}%`;
}

/** What the interval decides against a budget (a cost of at most `budget`, e.g. 0.03): within, beyond, or undecided. */
export function againstBudget(summary: RatioSummary, budget: number, costIsBelowOne: boolean): 'within' | 'beyond' | 'undecided' {
  if (!summary.interval) return 'undecided';
  // A cost lowers throughput (ratio below 1) or raises work (ratio above 1).
  const [low, high] = summary.interval;
  const worst = costIsBelowOne ? 1 - low : high - 1;
  const best = costIsBelowOne ? 1 - high : low - 1;
  if (worst <= budget) return 'within';
  if (best > budget) return 'beyond';
  return 'undecided';
}
