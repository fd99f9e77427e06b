/**
 * Where a bisection stands and what it counts next, from the points counted so far. Every range
 * between two neighbouring counted points whose ends differ by at least the split share of the
 * threshold is split at its middle, so each step is found in about log2 of the range's points and
 * every step is found, not only one. A range whose ends agree is taken as flat: two steps that
 * cancel inside it are not seen. A step whose change lies within the noise's reach of the
 * threshold has its two points counted again, in fresh processes, up to the design's limit.
 */

export interface BisectDesign {
  threshold: number;
  splitFraction: number;
  /** One point's scatter between processes, log units. */
  pointSd: number;
  maxCountsPerPoint: number;
}

/** One point as the plan sees it: its counts per validated request, or that it could not be counted. */
export interface PlannedPoint {
  perRequest: readonly number[];
  skipped: boolean;
}

export interface PlannedStep {
  good: number;
  bad: number;
  skippedBetween: number[];
  relativeChange: number;
  nearThreshold: boolean;
}

export interface BisectPlan {
  /** Points to count next, most useful first; empty when the bisection is finished. */
  pending: number[];
  steps: PlannedStep[];
  flatRanges: { good: number; bad: number; relativeChange: number }[];
  /** An end that could not be counted: nothing between can be placed. */
  skippedEnd: number | null;
}

/** Two standard errors: a change this close to the threshold is not told from it. */
const NEAR_Z = 2;

export function planBisection(points: readonly PlannedPoint[], design: BisectDesign): BisectPlan {
  const last = points.length - 1;
  const plan: BisectPlan = { pending: [], steps: [], flatRanges: [], skippedEnd: null };
  for (const end of [0, last]) if (points[end]!.skipped) plan.skippedEnd ??= end;
  if (plan.skippedEnd !== null) return plan;
  const uncountedEnds = [0, last].filter((end) => points[end]!.perRequest.length === 0);
  if (uncountedEnds.length > 0) return { ...plan, pending: [...new Set(uncountedEnds)] };
  // A point skipped after a count (a repeat that failed validation) is not trusted either.
  const counted = points.flatMap((p, i) => (p.perRequest.length > 0 && !p.skipped ? [i] : []));
  const splits: number[] = [];
  const repeats: number[] = [];
  for (let k = 1; k < counted.length; k++) {
    const good = counted[k - 1]!;
    const bad = counted[k]!;
    const change = logChange(points[good]!, points[bad]!);
    const relativeChange = Math.expm1(change);
    if (Math.abs(relativeChange) < design.splitFraction * design.threshold) {
      if (bad - good > 1) plan.flatRanges.push({ good, bad, relativeChange });
      continue;
    }
    const open = between(good, bad).filter((i) => !points[i]!.skipped);
    if (open.length > 0) {
      splits.push(nearestMiddle(open, (good + bad) / 2));
      continue;
    }
    const near = nearThreshold(change, points[good]!, points[bad]!, design);
    if (near) repeats.push(...[good, bad].filter((i) => points[i]!.perRequest.length < design.maxCountsPerPoint));
    if (Math.abs(relativeChange) >= design.threshold || near)
      plan.steps.push({ good, bad, skippedBetween: between(good, bad), relativeChange, nearThreshold: near });
  }
  plan.pending = [...new Set([...splits, ...repeats])];
  return plan;
}

/** The mean of each point's counts in log units: a ratio of geometric means. */
function logChange(good: PlannedPoint, bad: PlannedPoint): number {
  return meanLog(bad.perRequest) - meanLog(good.perRequest);
}

export function meanLog(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + Math.log(v), 0) / values.length;
}

function between(good: number, bad: number): number[] {
  return Array.from({ length: bad - good - 1 }, (_, i) => good + 1 + i);
}

function nearestMiddle(open: readonly number[], middle: number): number {
  return open.reduce((best, i) => (Math.abs(i - middle) < Math.abs(best - middle) ? i : best));
}

/** The change lies within NEAR_Z standard errors of ±threshold. */
function nearThreshold(change: number, good: PlannedPoint, bad: PlannedPoint, design: BisectDesign): boolean {
  const se = design.pointSd * Math.sqrt(1 / good.perRequest.length + 1 / bad.perRequest.length);
  const edge = Math.log1p(design.threshold);
  return Math.abs(Math.abs(change) - edge) < NEAR_Z * se;
}
