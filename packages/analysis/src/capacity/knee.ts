import type { CapacityAnalysis } from '@gwprof/results';
import type { ThroughputPoint } from './usl.js';

/** Throughput this far below the peak reached at lower concurrency means the curve has buckled. */
export const BUCKLING_DROP = 0.1;
/** A curve whose peak is less than this factor above its first step was already saturated there. */
const MIN_RISE = 1.2;
/** Kneedle's largest distance above the chord (normalised axes) below which the curve has no knee. */
const MIN_BEND = 0.1;

export type KneeResult = { knee: NonNullable<CapacityAnalysis['knee']>; note?: never } | { knee: null; note: string };

/**
 * Kneedle (Satopää et al. 2011) on the throughput curve: normalise concurrency and throughput to
 * [0, 1] and take the step farthest above the straight line from the first step to the last
 * unbuckled one. That is where throughput stops rising in proportion to concurrency: the end of
 * seed 004's light-load zone. Linear axes, as the seed draws the curve. `points` sorted by concurrency.
 */
export function findKnee(points: readonly ThroughputPoint[]): KneeResult {
  if (points.length < 3) return { knee: null, note: `knee needs at least 3 ok steps (have ${points.length})` };
  const curve = beforeBuckling(points);
  if (curve.length < 3) {
    return {
      knee: null,
      note: `throughput buckled after c=${curve.at(-1)!.concurrency}, leaving fewer than 3 steps before it to locate a knee; add steps below`,
    };
  }
  const first = curve[0]!;
  const last = curve.at(-1)!;
  const peakRps = Math.max(...curve.map((p) => p.rps));
  if (peakRps < first.rps * MIN_RISE) {
    return {
      knee: null,
      note: `throughput at c=${first.concurrency} was already within ${Math.round((MIN_RISE - 1) * 100)}% of the peak: saturated at or below the lowest step; add lower concurrency steps to find the knee`,
    };
  }
  let best = { index: -1, bend: -Infinity };
  curve.forEach((p, index) => {
    const x = (p.concurrency - first.concurrency) / (last.concurrency - first.concurrency);
    const y = (p.rps - first.rps) / (peakRps - first.rps);
    if (y - x > best.bend) best = { index, bend: y - x };
  });
  if (best.bend < MIN_BEND) {
    return {
      knee: null,
      note: `throughput still grows about in proportion to concurrency up to c=${last.concurrency}: the knee lies beyond the measured steps`,
    };
  }
  const knee = curve[best.index]!;
  return {
    knee: {
      concurrency: knee.concurrency,
      rps: knee.rps,
      method: `Kneedle: the step farthest above the chord of the normalised throughput curve (c=${first.concurrency}..${last.concurrency})`,
    },
  };
}

/** The steps up to the first one whose throughput fell more than BUCKLING_DROP below the running peak. */
function beforeBuckling<T extends ThroughputPoint>(points: readonly T[]): T[] {
  let peak = 0;
  const kept: T[] = [];
  for (const p of points) {
    if (p.rps < peak * (1 - BUCKLING_DROP)) break;
    peak = Math.max(peak, p.rps);
    kept.push(p);
  }
  return kept;
}
