import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../random.js';
import { mannKendall, normalCdf, normalQuantile, theilSen, type TrendPoint } from './trend.js';

/** A standard normal draw (Box–Muller) from a seeded uniform source. */
const gaussian = (random: () => number) => () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

const series = (n: number, f: (x: number) => number): TrendPoint[] => Array.from({ length: n }, (_, x) => ({ x, y: f(x) }));

describe('normal distribution', () => {
  it('inverts its own CDF and knows the usual quantiles', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.95)).toBeCloseTo(1.644854, 5);
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232, 5);
    for (const p of [0.01, 0.2, 0.5, 0.9, 0.999]) expect(normalCdf(normalQuantile(p))).toBeCloseTo(p, 6);
  });
});

describe('Theil–Sen slope', () => {
  it('recovers an exact line, and ignores a few wild points that would tilt least squares', () => {
    expect(theilSen(series(10, (x) => 3 + 2 * x)).slope).toBe(2);
    const spiked = series(20, (x) => 2 * x).map((p) => (p.x === 18 || p.x === 19 ? { ...p, y: 1000 } : p));
    const fit = theilSen(spiked);
    expect(fit.slope).toBeGreaterThan(1.9);
    expect(fit.slope).toBeLessThan(2.6);
    expect(fit.intercept).toBeCloseTo(0, 0);
  });

  it('gives an interval that covers the true slope about as often as it says', () => {
    const normal = gaussian(mulberry32(7));
    let covered = 0;
    const trials = 2000;
    for (let i = 0; i < trials; i++) {
      const fit = theilSen(
        series(20, (x) => 0.5 * x + 3 * normal()),
        0.9,
      );
      if (fit.lower! <= 0.5 && 0.5 <= fit.upper!) covered++;
    }
    // Sen's interval rounds its ranks outward, so it is at least as wide as 90%.
    expect(covered / trials).toBeGreaterThan(0.87);
    expect(covered / trials).toBeLessThan(0.97);
  });

  it('has no interval from two points, and no slope from one x', () => {
    expect(theilSen(series(2, (x) => x)).lower).toBeNull();
    expect(
      theilSen([
        { x: 1, y: 1 },
        { x: 1, y: 5 },
      ]).slope,
    ).toBe(0);
  });
});

describe('Mann–Kendall test', () => {
  it('finds a steady rise in noise and none in noise alone', () => {
    const normal = gaussian(mulberry32(11));
    expect(mannKendall(series(30, (x) => x + 2 * normal())).pUp).toBeLessThan(0.001);
    const flat = Array.from({ length: 200 }, () => mannKendall(series(30, () => normal())).pUp);
    // Under no trend the one-sided p-value is uniform: about 5% below 0.05.
    expect(flat.filter((p) => p < 0.05).length).toBeLessThan(25);
  });

  it('counts concordant pairs and corrects the variance for ties', () => {
    const mk = mannKendall(series(4, (x) => [1, 2, 2, 3][x]!));
    expect(mk.s).toBe(5);
    expect(mk.variance).toBeCloseTo((4 * 3 * 13 - 2 * 1 * 9) / 18, 10);
  });
});
