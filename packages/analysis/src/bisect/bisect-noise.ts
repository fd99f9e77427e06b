/**
 * How much one point's count scatters between processes, measured from the bisection's own repeats:
 * the pooled standard deviation of the log counts of every point counted more than once, with its
 * degrees of freedom, never below a floor. Every interval of the plan is built from it, with Student's
 * t at those degrees of freedom, so a scatter measured from few repeats widens the intervals.
 */
import { studentTQuantile } from '../compare/student-t.js';

/** Two-sided confidence of the interval of a range's change: flat, or a step near the threshold. */
export const RANGE_CONFIDENCE = 0.99;
/** A range whose change lies outside this interval is split: a wrong split costs counts, nothing more. */
export const SPLIT_CONFIDENCE = 0.95;

/**
 * Chance that a bisection names any step where there is none, over all its neighbouring pairs
 * (Bonferroni): a step's interval is at 1 − this / (points − 1).
 */
export const STEP_FAMILY_ERROR = 0.001;

export interface PointNoise {
  /** Pooled sd of the log counts of points counted more than once; null before any repeat. */
  measuredSd: number | null;
  /** Degrees of freedom of measuredSd: the repeats beyond each point's first count. */
  df: number;
  /** Points counted more than once. */
  pointsRepeated: number;
  /** The sd the plan uses: the measured one, or the floor when that is larger (or nothing is measured). */
  sd: number;
  floor: number;
  /** Student's t at df (the normal's quantile without a repeat) for RANGE_CONFIDENCE. */
  quantile: number;
  /** The same for SPLIT_CONFIDENCE. */
  splitQuantile: number;
  /** The same for a step's name: no change must lie outside this interval. */
  stepQuantile: number;
  stepConfidence: number;
}

/** The noise of `points` points (their counts each), `floor` under the measured sd. */
export function pointNoise(perPoint: readonly (readonly number[])[], points: number, floor: number): PointNoise {
  let squares = 0;
  let df = 0;
  let pointsRepeated = 0;
  for (const counts of perPoint) {
    if (counts.length < 2) continue;
    const logs = counts.map(Math.log);
    const mean = logs.reduce((a, b) => a + b, 0) / logs.length;
    squares += logs.reduce((sum, x) => sum + (x - mean) ** 2, 0);
    df += logs.length - 1;
    pointsRepeated++;
  }
  const measuredSd = df > 0 ? Math.sqrt(squares / df) : null;
  // Without a repeat nothing is measured: the floor is all there is, taken as known.
  const t = (confidence: number) => studentTQuantile(1 - (1 - confidence) / 2, df > 0 ? df : 1e6);
  const stepConfidence = 1 - STEP_FAMILY_ERROR / Math.max(1, points - 1);
  const sd = Math.max(measuredSd ?? 0, floor);
  return {
    measuredSd,
    df,
    pointsRepeated,
    sd,
    floor,
    quantile: t(RANGE_CONFIDENCE),
    splitQuantile: t(SPLIT_CONFIDENCE),
    stepQuantile: t(stepConfidence),
    stepConfidence,
  };
}

/** Half the interval of the change between two points counted `a` and `b` times, log units. */
export function halfWidth(noise: PointNoise, a: number, b: number, quantile = noise.quantile): number {
  return quantile * noise.sd * Math.sqrt(1 / a + 1 / b);
}

/**
 * The smallest threshold this noise lets the plan decide with `counts` a point: a range whose ends
 * are equal is flat once its interval rules out a change of the threshold.
 */
export function resolvableThreshold(noise: PointNoise, counts: number): number {
  return Math.expm1(halfWidth(noise, counts, counts));
}

/** Counts a point that the threshold needs at this noise (the same interval, solved for the counts). */
export function countsForThreshold(noise: PointNoise, threshold: number): number {
  return Math.max(1, Math.ceil(2 * ((noise.quantile * noise.sd) / Math.log1p(threshold)) ** 2));
}
