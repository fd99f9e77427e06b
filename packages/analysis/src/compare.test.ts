import { describe, expect, it } from 'vitest';
import { compareBuckets, compareSamples, verdictFor } from './compare.js';
import { studentTQuantile } from './student-t.js';
import { mulberry32 } from './testing/profiles.js';

/** n values around `center` with uniform relative noise of ±`noise`. */
function noisy(seed: number, n: number, center: number, noise: number): number[] {
  const random = mulberry32(seed);
  return Array.from({ length: n }, () => center * (1 + noise * (2 * random() - 1)));
}

describe('studentTQuantile', () => {
  it('matches the tables', () => {
    expect(studentTQuantile(0.975, 4)).toBeCloseTo(2.776, 3);
    expect(studentTQuantile(0.975, 10)).toBeCloseTo(2.228, 3);
    expect(studentTQuantile(0.975, 30)).toBeCloseTo(2.042, 3);
    expect(studentTQuantile(0.975, 1e6)).toBeCloseTo(1.96, 3);
    expect(studentTQuantile(0.975, 1)).toBeCloseTo(12.706, 3);
    expect(studentTQuantile(0.95, 5)).toBeCloseTo(2.015, 3);
    expect(studentTQuantile(0.025, 10)).toBeCloseTo(-2.228, 3);
  });
});

describe('compareSamples', () => {
  it('finds no change between two draws of the same distribution', () => {
    const result = compareSamples(noisy(1, 10, 100, 0.03), noisy(2, 10, 100, 0.03), { higherIsBetter: true, metric: 'rps', unit: 'req/s' });
    expect(result.verdict).toBe('no change');
    expect(result.ci95![0]).toBeGreaterThan(-0.05);
    expect(result.ci95![1]).toBeLessThan(0.05);
    expect(result.ci95![0]).toBeLessThan(result.relativeChange!);
    expect(result.relativeChange!).toBeLessThan(result.ci95![1]);
    expect(result.method).toMatch(/geometric means, Welch t 95% interval on log values/);
    expect(result).toMatchObject({ metric: 'rps', unit: 'req/s', baseline: { n: 10 }, candidate: { n: 10 } });
  });

  it('calls a 10% shift with 1% noise a regression or an improvement by direction', () => {
    const baseline = noisy(3, 5, 100, 0.01);
    const slower = noisy(4, 5, 110, 0.01);
    const cpu = compareSamples(baseline, slower, { higherIsBetter: false });
    expect(cpu.verdict).toBe('regression');
    expect(cpu.relativeChange!).toBeCloseTo(0.1, 1);
    expect(cpu.ci95![0]).toBeGreaterThan(0.05);
    expect(compareSamples(baseline, slower, { higherIsBetter: true }).verdict).toBe('improvement');
    expect(compareSamples(slower, baseline, { higherIsBetter: false }).verdict).toBe('improvement');
    expect(compareSamples(slower, baseline, { higherIsBetter: true }).verdict).toBe('regression');
  });

  it('stays inconclusive with 30% noise and 3 trials, even for a real 10% shift', () => {
    const result = compareSamples(noisy(5, 3, 100, 0.3), noisy(6, 3, 110, 0.3), { higherIsBetter: false });
    expect(result.verdict).toBe('inconclusive');
    expect(result.ci95![0]).toBeLessThan(0);
    expect(result.ci95![1]).toBeGreaterThan(0.05);
  });

  it('needs two trials per side', () => {
    const result = compareSamples([100], [120, 121], { higherIsBetter: true });
    expect(result).toMatchObject({ verdict: 'inconclusive', ci95: null });
    expect(result.relativeChange).toBeCloseTo(0.205, 10);
    expect(result.method).toMatch(/at least 2 trials per side \(have 1 and 2\)/);
  });

  it('falls back to raw values when some are not positive', () => {
    const result = compareSamples([0, 2, 1, 1], [3, 2, 4, 3], { higherIsBetter: false, threshold: 0.1 });
    expect(result.method).toMatch(/not all positive/);
    expect(result.relativeChange).toBeCloseTo(2, 10);
    // difference 2, se = sqrt((2/3)/4 + (2/3)/4), df = 6: half-width 2.447 × 0.5774
    expect(result.ci95![0]).toBeCloseTo(2 - 2.4469 * Math.sqrt(1 / 3), 3);
    expect(result.verdict).toBe('regression');
    expect(compareSamples([0, 0], [1, 2], { higherIsBetter: true })).toMatchObject({ verdict: 'inconclusive', ci95: null, relativeChange: null });
  });

  it('gives a zero-width interval for identical constant samples', () => {
    const result = compareSamples([5, 5, 5], [5, 5, 5], { higherIsBetter: true });
    expect(result).toMatchObject({ relativeChange: 0, ci95: [0, 0], verdict: 'no change' });
  });
});

describe('verdictFor', () => {
  it('needs significance and a change beyond the threshold', () => {
    // lower is better: positive change is worse
    expect(verdictFor([0.06, 0.14], 0.1, 0.05, false)).toBe('regression');
    expect(verdictFor([0.01, 0.05], 0.03, 0.05, false)).toBe('no change');
    expect(verdictFor([0.01, 0.09], 0.03, 0.05, false)).toBe('inconclusive');
    expect(verdictFor([-0.02, 0.14], 0.06, 0.05, false)).toBe('inconclusive');
    expect(verdictFor([-0.14, -0.06], -0.1, 0.05, false)).toBe('improvement');
    // higher is better: negative change is worse
    expect(verdictFor([-0.14, -0.06], -0.1, 0.05, true)).toBe('regression');
    expect(verdictFor([0.06, 0.14], 0.1, 0.05, true)).toBe('improvement');
    expect(verdictFor(null, 0.2, 0.05, true)).toBe('inconclusive');
  });
});

describe('compareBuckets', () => {
  it('averages shares per side and sorts by the size of the move', () => {
    const deltas = compareBuckets(
      [
        { execute: 0.4, gc: 0.1, other: 0.5 },
        { execute: 0.2, gc: 0.1, other: 0.7 },
      ],
      [{ execute: 0.5, gc: 0.12, other: 0.38 }, {}],
    );
    expect(deltas.slice(0, 3).map((d) => d.bucket)).toEqual(['other', 'execute', 'gc']);
    expect(deltas[0]).toMatchObject({ baseline: 0.6, candidate: 0.38 });
    expect(deltas[0]!.deltaPoints).toBeCloseTo(-22, 10);
    expect(deltas[1]!.deltaPoints).toBeCloseTo(20, 10);
    expect(deltas[2]!.deltaPoints).toBeCloseTo(2, 10);
    expect(deltas[3]).toEqual({ bucket: 'idle', baseline: 0, candidate: 0, deltaPoints: 0 });
    expect(compareBuckets([{ gc: 1 }], [{}])).toEqual([]);
  });
});
