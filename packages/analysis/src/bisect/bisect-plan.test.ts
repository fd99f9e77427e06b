import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../random.js';
import { planBisection, type BisectDesign, type PlannedPoint } from './bisect-plan.js';

/** Its pointSd is the simulated noise's (0.1%), unless a test says otherwise. */
const DESIGN: BisectDesign = { threshold: 0.01, splitFraction: 0.5, pointSd: 0.001, maxCountsPerPoint: 3 };

/** Runs a bisection to its end over a history of true counts, two points a round, with noise of `sd`. */
function bisect(truth: readonly number[], options: { sd?: number; skipped?: number[]; seed?: number; design?: BisectDesign } = {}) {
  const random = mulberry32(options.seed ?? 1);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const points: PlannedPoint[] = truth.map((_, i) => ({ perRequest: [], skipped: options.skipped?.includes(i) ?? false }));
  let counted = 0;
  for (let round = 0; round < 200; round++) {
    const plan = planBisection(points, options.design ?? DESIGN);
    if (plan.pending.length === 0) return { plan, counted, rounds: round, points };
    for (const i of plan.pending.slice(0, 2)) {
      points[i] = { ...points[i]!, perRequest: [...points[i]!.perRequest, truth[i]! * Math.exp((options.sd ?? 0.001) * gauss())] };
      counted++;
    }
  }
  throw new Error('the bisection did not end');
}

/** 33 commits: +3% of work at commit 10, +1.5% at 24. */
const history = Array.from({ length: 33 }, (_, i) => 1e6 * (i >= 10 ? 1.03 : 1) * (i >= 24 ? 1.015 : 1));

describe('planBisection', () => {
  it('finds both steps of a planted history at their commits, in about log2 of the range each', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const { plan, counted } = bisect(history, { seed });
      expect(plan.steps.map((s) => [s.good, s.bad])).toEqual([
        [9, 10],
        [23, 24],
      ]);
      expect(plan.steps[0]!.relativeChange).toBeCloseTo(0.03, 2);
      expect(plan.steps[1]!.relativeChange).toBeCloseTo(0.015, 2);
      // The ends, and about log2(32) = 5 points for each step (they share the first split).
      expect(counted).toBeLessThanOrEqual(2 + 2 * 6);
    }
  });

  it('counts the ends first, then splits the range at its middle', () => {
    const points = history.map(() => ({ perRequest: [] as number[], skipped: false }));
    expect(planBisection(points, DESIGN).pending).toEqual([0, 32]);
    points[0] = { perRequest: [1e6], skipped: false };
    points[32] = { perRequest: [1.045e6], skipped: false };
    expect(planBisection(points, DESIGN).pending).toEqual([16]);
  });

  it('finds nothing in a flat history and says the range is flat after counting its ends', () => {
    const { plan, counted } = bisect(history.map(() => 1e6));
    expect(plan.steps).toEqual([]);
    expect(counted).toBe(2);
    expect(plan.flatRanges).toEqual([{ good: 0, bad: 32, relativeChange: expect.closeTo(0, 2) }]);
  });

  it('places a step on the range of skipped points around it, and names them', () => {
    const { plan } = bisect(history, { skipped: [10, 11] });
    expect(plan.steps[0]).toMatchObject({ good: 9, bad: 12, skippedBetween: [10, 11] });
  });

  it('does not place anything when an end cannot be counted', () => {
    const plan = planBisection(
      history.map((_, i) => ({ perRequest: [], skipped: i === 0 })),
      DESIGN,
    );
    expect(plan).toMatchObject({ skippedEnd: 0, pending: [] });
  });

  it('counts the two points of a step near the threshold again, up to the limit, and then says it is near', () => {
    const near = Array.from({ length: 9 }, (_, i) => (i >= 5 ? 1.0102e6 : 1e6));
    const { plan, points } = bisect(near, { sd: 0.002, design: { ...DESIGN, pointSd: 0.002 } });
    const step = plan.steps.find((s) => s.bad === 5)!;
    expect(step.good).toBe(4);
    expect(points[4]!.perRequest).toHaveLength(3);
    expect(points[5]!.perRequest).toHaveLength(3);
    expect(step.nearThreshold).toBe(true);
  });

  it('leaves a clear step below the threshold out, and a clear one above it in, without repeats', () => {
    const small = Array.from({ length: 9 }, (_, i) => 1e6 * (i >= 3 ? 1.006 : 1) * (i >= 7 ? 1.05 : 1));
    const { plan, points } = bisect(small, { sd: 0.0005, design: { ...DESIGN, pointSd: 0.0005 } });
    expect(plan.steps.map((s) => [s.good, s.bad, s.nearThreshold])).toEqual([[6, 7, false]]);
    expect(points.every((p) => p.perRequest.length <= 1)).toBe(true);
  });

  it('finds an improvement as a step too', () => {
    const faster = Array.from({ length: 17 }, (_, i) => (i >= 11 ? 0.95e6 : 1e6));
    expect(bisect(faster).plan.steps).toMatchObject([{ good: 10, bad: 11, relativeChange: expect.closeTo(-0.05, 2) }]);
  });
});
