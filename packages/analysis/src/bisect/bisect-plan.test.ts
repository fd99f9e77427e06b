import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../random.js';
import { pointNoise } from './bisect-noise.js';
import { END_COUNTS, planBisection, type BisectDesign, type PlannedPoint } from './bisect-plan.js';

/** The defaults' design, with a floor under the noise (0.05%) below every simulated noise but one. */
const DESIGN: BisectDesign = { threshold: 0.01, splitFraction: 0.5, minPointSd: 0.0005, maxCountsPerPoint: 5 };

/**
 * Runs a bisection to its end over a history of true counts as run-bisect does (two points a round),
 * every count drawn with lognormal noise of `sd` (one draw a process).
 */
function bisect(truth: readonly number[], options: { sd?: number; skipped?: number[]; seed?: number; design?: BisectDesign } = {}) {
  const random = mulberry32(options.seed ?? 1);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const points: PlannedPoint[] = truth.map((_, i) => ({ perRequest: [], skipped: options.skipped?.includes(i) ?? false }));
  let counted = 0;
  for (let round = 0; round < 500; round++) {
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

/** The history: 16 commits, +7% of work at commit 6 and +1.7% at 12 (Apollo Gateway's +3,000 and +1,500 loop iterations). */
const planted = Array.from({ length: 16 }, (_, i) => 9e6 * (i >= 6 ? 1.07 : 1) * (i >= 12 ? 1.017 : 1));
const PLANTS = [6, 12];
const spans = (step: { good: number; bad: number }, plant: number) => step.good < plant && plant <= step.bad;

describe('planBisection', () => {
  it('finds both steps of a planted history at their commits, in about log2 of the range each', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const { plan, counted } = bisect(history, { seed });
      expect(plan.steps.map((s) => [s.good, s.bad, s.nearThreshold])).toEqual([
        [9, 10, false],
        [23, 24, false],
      ]);
      expect(plan.steps[0]!.relativeChange).toBeCloseTo(0.03, 2);
      expect(plan.steps[1]!.relativeChange).toBeCloseTo(0.015, 2);
      expect(plan.steps[0]!.interval.low).toBeGreaterThan(0.02);
      // The ends three times each, then about log2(32) = 5 points for each step (they share the first split), and a few repeats.
      expect(counted).toBeLessThanOrEqual(2 * END_COUNTS + 2 * 6 + 4);
    }
  });

  it('counts the ends three times first, then splits the range at its middle', () => {
    const points = history.map(() => ({ perRequest: [] as number[], skipped: false }));
    expect(planBisection(points, DESIGN).pending).toEqual([0, 32]);
    points[0] = { perRequest: [1e6, 1.001e6], skipped: false };
    points[32] = { perRequest: [1.045e6, 1.044e6], skipped: false };
    expect(planBisection(points, DESIGN).pending).toEqual([0, 32]);
    points[0] = { perRequest: [1e6, 1.001e6, 0.999e6], skipped: false };
    points[32] = { perRequest: [1.045e6, 1.044e6, 1.046e6], skipped: false };
    expect(planBisection(points, DESIGN).pending).toEqual([16]);
  });

  it('finds nothing in a flat history and says the range is flat after counting its ends', () => {
    const { plan, counted } = bisect(history.map(() => 1e6));
    expect(plan.steps).toEqual([]);
    expect(counted).toBe(2 * END_COUNTS);
    expect(plan.flatRanges).toEqual([{ good: 0, bad: 32, relativeChange: expect.closeTo(0, 2), interval: expect.anything() }]);
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
    const { plan, points } = bisect(near, { sd: 0.002 });
    const step = plan.steps.find((s) => s.bad === 5)!;
    expect(step.good).toBe(4);
    expect(points[4]!.perRequest).toHaveLength(5);
    expect(points[5]!.perRequest).toHaveLength(5);
    expect(step.nearThreshold).toBe(true);
    expect(step.interval.low).toBeLessThan(0.01);
    expect(step.interval.high).toBeGreaterThan(0.01);
  });

  it('leaves a clear step below the threshold out, and a clear one above it in, counting points between once', () => {
    const small = Array.from({ length: 9 }, (_, i) => 1e6 * (i >= 3 ? 1.006 : 1) * (i >= 7 ? 1.05 : 1));
    const { plan, points } = bisect(small, { sd: 0.0005 });
    expect(plan.steps.map((s) => [s.good, s.bad, s.nearThreshold])).toEqual([[6, 7, false]]);
    expect(points.slice(1, -1).every((p) => p.perRequest.length <= 1)).toBe(true);
  });

  it('finds an improvement as a step too', () => {
    const faster = Array.from({ length: 17 }, (_, i) => (i >= 11 ? 0.95e6 : 1e6));
    expect(bisect(faster).plan.steps).toMatchObject([{ good: 10, bad: 11, relativeChange: expect.closeTo(-0.05, 2) }]);
  });
});

describe('planBisection under the noise it measures', () => {
  it('never names a step where nothing was planted, and always finds the large plant, at Apollo Gateway’s 1.2% scatter between processes', () => {
    let unresolved = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const { plan } = bisect(planted, { sd: 0.012, seed });
      for (const step of plan.steps)
        expect(
          PLANTS.some((p) => spans(step, p)),
          `seed ${seed}: ${JSON.stringify(step)}`,
        ).toBe(true);
      expect(
        plan.steps.some((s) => spans(s, 6) && !spans(s, 12)),
        `seed ${seed}`,
      ).toBe(true);
      // The noise is measured, not assumed: within half of the truth.
      expect(plan.noise.measuredSd!).toBeGreaterThan(0.006);
      expect(plan.noise.measuredSd!).toBeLessThan(0.018);
      if (plan.unresolvedRanges.length > 0) unresolved++;
    }
    // 1% cannot be resolved at 1.2% with five counts a point: the bisection says so, rather than guessing.
    expect(unresolved).toBeGreaterThan(190);
  });

  it('finds both plants at 0.1% scatter, in about log2 of the history a step, and leaves nothing unresolved', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const { plan, counted } = bisect(planted, { sd: 0.001, seed });
      expect(
        plan.steps.map((s) => [s.good, s.bad]),
        `seed ${seed}`,
      ).toEqual([
        [5, 6],
        [11, 12],
      ]);
      expect(plan.unresolvedRanges).toEqual([]);
      // The ends three times each, then about log2(16) = 4 points a step (sharing the first), and a few repeats.
      expect(counted, `seed ${seed}`).toBeLessThanOrEqual(2 * END_COUNTS + 7 + 6);
    }
  });

  it('names no step in a history of unchanged code that scatters by 1.2%, and leaves it unresolved rather than flat', () => {
    const flat = planted.map(() => 9e6);
    for (let seed = 1; seed <= 50; seed++) {
      const { plan } = bisect(flat, { sd: 0.012, seed });
      expect(plan.steps).toEqual([]);
      expect(plan.flatRanges).toEqual([]);
      expect(plan.unresolvedRanges.length).toBeGreaterThan(0);
    }
  });
});

describe('pointNoise', () => {
  it('pools the sd of log counts over the points counted more than once, with their degrees of freedom, above a floor', () => {
    const a = [1e6, 1.02e6, 0.98e6];
    const b = [2e6, 2.02e6];
    const noise = pointNoise([a, b, [3e6]], 3, 0.0005);
    const ss = (xs: number[]) => {
      const logs = xs.map(Math.log);
      const m = logs.reduce((s, x) => s + x, 0) / logs.length;
      return logs.reduce((s, x) => s + (x - m) ** 2, 0);
    };
    expect(noise.df).toBe(3);
    expect(noise.pointsRepeated).toBe(2);
    expect(noise.measuredSd).toBeCloseTo(Math.sqrt((ss(a) + ss(b)) / 3), 12);
    expect(noise.sd).toBe(noise.measuredSd);
    const tight = pointNoise([[1e6, 1e6]], 3, 0.0005);
    expect(tight).toMatchObject({ measuredSd: 0, sd: 0.0005, df: 1 });
    expect(pointNoise([[1e6]], 3, 0.0005)).toMatchObject({ measuredSd: null, sd: 0.0005, df: 0 });
  });
});
