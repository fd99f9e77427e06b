/**
 * Where a bisection stands and what it counts next, from the points counted so far. Both ends are
 * counted more than once first, so that the scatter of a point between processes is measured
 * (bisect-noise.ts) before anything is decided; every decision is then read off an interval of the
 * change between two neighbouring counted points, from that scatter and each point's counts:
 * - a range is flat only when its interval lies within the split share of the threshold;
 * - a range whose interval excludes no change is split at its middle, so each step is found in
 *   about log2 of the range's points, and every step is found, not only one;
 * - a step is named only when its interval excludes no change and it reaches the threshold (or its
 *   interval holds the threshold: a step within the noise of it);
 * - anything else has its two points counted again, up to the design's limit, and is then left
 *   unresolved: the noise is too large for the threshold there.
 * Two steps that cancel inside a flat range are not seen.
 */
import { halfWidth, pointNoise, type PointNoise } from './bisect-noise.js';

export interface BisectDesign {
  threshold: number;
  splitFraction: number;
  /** The least scatter of one point between processes assumed (log units): a floor under the measured one. */
  minPointSd: number;
  maxCountsPerPoint: number;
}

/** One point as the plan sees it: its counts per validated request, or that it could not be counted. */
export interface PlannedPoint {
  perRequest: readonly number[];
  skipped: boolean;
}

/** A range between two neighbouring counted points: its change and interval (relative). */
export interface PlannedRange {
  good: number;
  bad: number;
  relativeChange: number;
  interval: { low: number; high: number };
}

export interface PlannedStep extends PlannedRange {
  skippedBetween: number[];
  nearThreshold: boolean;
}

export interface BisectPlan {
  /** Points to count next, most useful first; empty when the bisection is finished. */
  pending: number[];
  steps: PlannedStep[];
  flatRanges: PlannedRange[];
  /** Ranges the noise left undecided after their ends were counted up to the limit. */
  unresolvedRanges: PlannedRange[];
  /** An end that could not be counted: nothing between can be placed. */
  skippedEnd: number | null;
  noise: PointNoise;
}

/** Counts of each end before anything is split: the first repeats the noise is measured from. */
export const END_COUNTS = 3;

export function planBisection(points: readonly PlannedPoint[], design: BisectDesign): BisectPlan {
  const last = points.length - 1;
  // A point skipped after a count (a repeat that failed validation) is not trusted either.
  const counted = points.flatMap((p, i) => (p.perRequest.length > 0 && !p.skipped ? [i] : []));
  const noise = pointNoise(
    counted.map((i) => points[i]!.perRequest),
    points.length,
    design.minPointSd,
  );
  const plan: BisectPlan = { pending: [], steps: [], flatRanges: [], unresolvedRanges: [], skippedEnd: null, noise };
  for (const end of [0, last]) if (points[end]!.skipped) plan.skippedEnd ??= end;
  if (plan.skippedEnd !== null) return plan;
  const endCounts = Math.min(END_COUNTS, design.maxCountsPerPoint);
  const shortEnds = [0, last].filter((end) => points[end]!.perRequest.length < endCounts);
  if (shortEnds.length > 0) return { ...plan, pending: [...new Set(shortEnds)] };
  const splits: number[] = [];
  const repeats: number[] = [];
  /** Counts the range's two points again; false when both are at the limit. */
  const again = (range: PlannedRange) => {
    const more = [range.good, range.bad].filter((i) => points[i]!.perRequest.length < design.maxCountsPerPoint);
    repeats.push(...more);
    return more.length > 0;
  };
  for (let k = 1; k < counted.length; k++) {
    const good = counted[k - 1]!;
    const bad = counted[k]!;
    const open = between(good, bad).filter((i) => !points[i]!.skipped);
    const range = rangeOf(points, good, bad, noise);
    const judged = open.length > 0 ? judgeRange(points, range, noise, design) : judgeStep(points, range, noise, design);
    if (judged === 'flat') {
      if (bad - good > 1) plan.flatRanges.push(range);
    } else if (judged === 'split') splits.push(nearestMiddle(open, (good + bad) / 2));
    else if (judged === 'undecided') {
      if (!again(range)) plan.unresolvedRanges.push(range);
    } else {
      if (judged === 'near') again(range);
      plan.steps.push({ ...range, skippedBetween: between(good, bad), nearThreshold: judged === 'near' });
    }
  }
  plan.pending = [...new Set([...splits, ...repeats])];
  return plan;
}

type Judgement = 'flat' | 'split' | 'step' | 'near' | 'undecided';

/**
 * A range with points between: flat when its interval rules out a change of the threshold and its
 * change is below the split share of it, split when its change stands out of the noise.
 */
function judgeRange(points: readonly PlannedPoint[], range: PlannedRange, noise: PointNoise, design: BisectDesign): Judgement {
  const { low, high } = logInterval(range);
  const edge = Math.log1p(design.threshold);
  const change = Math.log1p(range.relativeChange);
  if (low > -edge && high < edge && Math.abs(change) < design.splitFraction * edge) return 'flat';
  const splitHalf = halfWidth(noise, points[range.good]!.perRequest.length, points[range.bad]!.perRequest.length, noise.splitQuantile);
  return Math.abs(change) > splitHalf ? 'split' : 'undecided';
}

/**
 * Two neighbouring points: a step when no change lies outside its step interval (near when its
 * interval holds the threshold), no step when its interval lies within the threshold, else undecided.
 */
function judgeStep(points: readonly PlannedPoint[], range: PlannedRange, noise: PointNoise, design: BisectDesign): Judgement {
  const { low, high } = logInterval(range);
  const edge = Math.log1p(design.threshold);
  const stepHalf = halfWidth(noise, points[range.good]!.perRequest.length, points[range.bad]!.perRequest.length, noise.stepQuantile);
  if (Math.abs(Math.log1p(range.relativeChange)) > stepHalf) return high <= -edge || low >= edge ? 'step' : 'near';
  return low > -edge && high < edge ? 'flat' : 'undecided';
}

/** The range's change and its interval at RANGE_CONFIDENCE. */
function rangeOf(points: readonly PlannedPoint[], good: number, bad: number, noise: PointNoise): PlannedRange {
  const a = points[good]!.perRequest;
  const b = points[bad]!.perRequest;
  const change = meanLog(b) - meanLog(a);
  const half = halfWidth(noise, a.length, b.length);
  return { good, bad, relativeChange: Math.expm1(change), interval: { low: Math.expm1(change - half), high: Math.expm1(change + half) } };
}

function logInterval(range: PlannedRange): { low: number; high: number } {
  return { low: Math.log1p(range.interval.low), high: Math.log1p(range.interval.high) };
}

/** The mean of a point's counts in log units: changes are ratios of geometric means. */
export function meanLog(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + Math.log(v), 0) / values.length;
}

function between(good: number, bad: number): number[] {
  return Array.from({ length: bad - good - 1 }, (_, i) => good + 1 + i);
}

function nearestMiddle(open: readonly number[], middle: number): number {
  return open.reduce((best, i) => (Math.abs(i - middle) < Math.abs(best - middle) ? i : best));
}
