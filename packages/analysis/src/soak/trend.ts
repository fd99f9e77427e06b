/**
 * A robust trend of a series: the Theil–Sen slope (the median of all pairwise slopes) with Sen's
 * distribution-free interval, and the Mann–Kendall test of whether the series moves one way. Both
 * rank pairs instead of fitting squares, so one GC-timed outlier or a step in the series does not
 * make a trend, which is why memory leak detectors prefer them to least squares.
 */

export interface TrendPoint {
  x: number;
  y: number;
}

export interface MannKendall {
  /** Σ sign(y_j − y_i) over pairs i < j (by x): positive when later points are larger. */
  s: number;
  /** Its variance under "no trend", corrected for ties. */
  variance: number;
  /** The continuity-corrected normal score of S. */
  z: number;
  /** One-sided p-value of an upward trend. */
  pUp: number;
}

export interface TheilSen {
  slope: number;
  intercept: number;
  /** Sen's two-sided interval for the slope at `confidence`; null with fewer than 3 points. */
  lower: number | null;
  upper: number | null;
  confidence: number;
  points: number;
}

const byX = (points: readonly TrendPoint[]): TrendPoint[] => [...points].sort((a, b) => a.x - b.x);

/** The Mann–Kendall statistic with the tie-corrected variance. */
export function mannKendall(points: readonly TrendPoint[]): MannKendall {
  const sorted = byX(points);
  const n = sorted.length;
  let s = 0;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) s += Math.sign(sorted[j]!.y - sorted[i]!.y);
  const ties = new Map<number, number>();
  for (const p of sorted) ties.set(p.y, (ties.get(p.y) ?? 0) + 1);
  const tieTerm = [...ties.values()].reduce((sum, t) => sum + t * (t - 1) * (2 * t + 5), 0);
  const variance = (n * (n - 1) * (2 * n + 5) - tieTerm) / 18;
  const z = variance <= 0 || s === 0 ? 0 : (s - Math.sign(s)) / Math.sqrt(variance);
  return { s, variance, z, pUp: 1 - normalCdf(z) };
}

/** The Theil–Sen slope, with Sen's interval from the Mann–Kendall variance. */
export function theilSen(points: readonly TrendPoint[], confidence = 0.9): TheilSen {
  const sorted = byX(points);
  const n = sorted.length;
  const slopes: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = sorted[j]!.x - sorted[i]!.x;
      if (dx !== 0) slopes.push((sorted[j]!.y - sorted[i]!.y) / dx);
    }
  }
  if (slopes.length === 0) return { slope: 0, intercept: sorted[0]?.y ?? 0, lower: null, upper: null, confidence, points: n };
  slopes.sort((a, b) => a - b);
  const slope = medianOfSorted(slopes);
  const intercept = medianOfSorted(sorted.map((p) => p.y - slope * p.x).sort((a, b) => a - b));
  if (n < 3) return { slope, intercept, lower: null, upper: null, confidence, points: n };
  // Sen (1968): the interval's ends are the slopes ranked (N ∓ C)/2, C = z · √Var(S).
  const c = normalQuantile(1 - (1 - confidence) / 2) * Math.sqrt(mannKendall(sorted).variance);
  const count = slopes.length;
  const lowerRank = Math.floor((count - c) / 2);
  const upperRank = Math.ceil((count + c) / 2) + 1;
  return {
    slope,
    intercept,
    lower: slopes[Math.max(0, lowerRank - 1)]!,
    upper: slopes[Math.min(count - 1, upperRank - 1)]!,
    confidence,
    points: n,
  };
}

function medianOfSorted(values: readonly number[]): number {
  const mid = values.length >> 1;
  return values.length % 2 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
}

/** Φ(z), by the Abramowitz–Stegun 7.1.26 approximation of erf (error < 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** Φ⁻¹(p), by Acklam's rational approximation (relative error < 1.2e-9). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`quantile probability must be in (0, 1), got ${p}`);
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) / (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}
