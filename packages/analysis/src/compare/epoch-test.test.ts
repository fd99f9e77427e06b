import { randomFillSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decideEpochs, epochValues, resolveEpochDesign, spendingBoundaries } from './epoch-test.js';

const DESIGN = { threshold: 0.05, alpha: 0.05, minEpochs: 4, maxEpochs: 13 };

/** Normal draws from the operating system's generator: independent of the calibration's own. */
function normals(count: number): Float64Array {
  const words = new Uint32Array(2 * count);
  randomFillSync(words);
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const u = (words[2 * i]! + 0.5) / 2 ** 32;
    const v = (words[2 * i + 1]! + 0.5) / 2 ** 32;
    out[i] = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
  return out;
}

describe('epochValues', () => {
  it('averages the blocks of each epoch, in epoch order', () => {
    expect(
      epochValues([
        { epoch: 2, x: 0.3 },
        { epoch: 1, x: 0.1 },
        { epoch: 2, x: 0.1 },
      ]),
    ).toEqual([0.1, 0.2]);
  });
});

describe('decideEpochs', () => {
  it('decides nothing before minEpochs, whatever the data', () => {
    const slower = Array.from({ length: 3 }, () => Math.log(4));
    const decision = decideEpochs(slower, DESIGN);
    expect(decision).toMatchObject({ outcome: 'continue', boundary: null, interval: null });
    expect(decision.reason).toMatch(/no verdict before 4 epochs/);
  });

  it('calls a 4× slowdown a regression at the first look, its interval around 4×', () => {
    const decision = decideEpochs(
      [1.38, 1.4, 1.39, 1.41].map((x) => x),
      DESIGN,
    );
    expect(decision.outcome).toBe('regression');
    expect(decision.interval!.low).toBeGreaterThan(2.5);
    expect(decision.interval!.high).toBeLessThan(4);
    expect(decision.reason).toMatch(/lies above 0 .*: slower/);
  });

  it('calls a 4× speedup an improvement', () => {
    expect(decideEpochs([-1.38, -1.4, -1.39, -1.41], DESIGN).outcome).toBe('improvement');
  });

  it('calls identical sides no change at the first look, its interval within the threshold', () => {
    const decision = decideEpochs([0.001, -0.001, 0.0005, -0.0005], DESIGN);
    expect(decision.outcome).toBe('no change');
    expect(decision.epochSd).toBe(0.005);
    expect(decision.interval!.low).toBeGreaterThan(-0.05);
    expect(decision.interval!.high).toBeLessThan(0.05);
    expect(decision.reason).toMatch(/lies within ±5\.0%/);
  });

  it('keeps going while the interval holds 0 and reaches past the threshold', () => {
    const decision = decideEpochs([0.2, -0.2, 0.2, -0.2, 0.2], DESIGN);
    expect(decision.outcome).toBe('continue');
    expect(decision.interval!.low).toBeLessThan(-0.05);
    expect(decision.interval!.high).toBeGreaterThan(0.05);
  });

  it('says no change, not regression, for a slowdown proven smaller than the threshold', () => {
    // x = log(1.02) ± 0.001: certainly slower, certainly by less than 5%.
    const decision = decideEpochs(
      [1, -1, 1, -1, 1, -1].map((s) => Math.log(1.02) + 0.001 * s),
      { ...DESIGN, minEpochSd: 0 },
    );
    expect(decision.interval!.low).toBeGreaterThan(0);
    expect(decision.outcome).toBe('no change');
  });

  it('refuses a design it cannot honour', () => {
    expect(() => resolveEpochDesign({ ...DESIGN, minEpochs: 2 })).toThrow(/minEpochs/);
    expect(() => resolveEpochDesign({ ...DESIGN, maxEpochs: 3 })).toThrow(/maxEpochs/);
  });
});

describe('spendingBoundaries', () => {
  const design = resolveEpochDesign(DESIGN);
  const boundaries = spendingBoundaries(design);

  it('gives one finite boundary per look, the same every time', () => {
    expect(boundaries).toHaveLength(DESIGN.maxEpochs - DESIGN.minEpochs + 1);
    expect(boundaries.every((b) => Number.isFinite(b) && b > 1.5)).toBe(true);
    expect(spendingBoundaries({ ...design })).toEqual(boundaries);
  });

  it('holds the false-regression rate at α over all looks, checked with another random source', () => {
    // The calibration's own 20,000 paths leave the true rate about 0.2 points below α; 200,000 paths
    // here have a sampling sd of 0.05 points, so only wrong boundaries land outside α ± 0.5 points.
    const paths = 200_000;
    const z = normals(paths * DESIGN.maxEpochs);
    let crossed = 0;
    for (let p = 0; p < paths; p++) {
      let sum = 0;
      let squares = 0;
      for (let n = 1; n <= DESIGN.maxEpochs; n++) {
        const x = z[p * DESIGN.maxEpochs + n - 1]!;
        sum += x;
        squares += x * x;
        if (n < DESIGN.minEpochs) continue;
        const m = sum / n;
        const t = m / Math.sqrt((squares - n * m * m) / (n - 1) / n);
        if (t > boundaries[n - DESIGN.minEpochs]!) {
          crossed++;
          break;
        }
      }
    }
    expect(Math.abs(crossed / paths - 0.05)).toBeLessThan(0.005);
  });
});

/** Paths of the t statistic crossing `boundaries` (looks from minEpochs on) wholly above 0: the false-regression rate. */
function tCrossingRate(boundaries: readonly number[], minEpochs: number, paths: number): number {
  const looks = minEpochs + boundaries.length - 1;
  const z = normals(paths * looks);
  let crossed = 0;
  for (let p = 0; p < paths; p++) {
    let sum = 0;
    let squares = 0;
    for (let n = 1; n <= looks; n++) {
      const x = z[p * looks + n - 1]!;
      sum += x;
      squares += x * x;
      if (n < minEpochs) continue;
      const m = sum / n;
      if (m / Math.sqrt((squares - n * m * m) / (n - 1) / n) > boundaries[n - minEpochs]!) {
        crossed++;
        break;
      }
    }
  }
  return crossed / paths;
}

describe('a plan of looks re-fixed from the pace before every look', () => {
  const base = { threshold: 0.01, alpha: 0.05, minEpochs: 3 };

  it('gives the fixed plan its own boundaries when the plan never moves', () => {
    const fixed = spendingBoundaries(resolveEpochDesign({ ...base, maxEpochs: 7 }));
    expect(spendingBoundaries(resolveEpochDesign({ ...base, maxEpochs: 7, lastLooks: [7, 7, 7, 7, 7] }))).toEqual(fixed);
  });

  it("spends all of α at a look the budget leaves no epoch after: at 3 epochs, t's 95% quantile at 2 degrees of freedom", () => {
    const [only] = spendingBoundaries(resolveEpochDesign({ ...base, maxEpochs: 3, lastLooks: [3] }));
    expect(only).toBeGreaterThan(2.92 - 0.2);
    expect(only).toBeLessThan(2.92 + 0.2);
    const slower = spendingBoundaries(resolveEpochDesign({ ...base, maxEpochs: 5, lastLooks: [6, 5, 5] }));
    expect(slower[2]).toBeLessThan(spendingBoundaries(resolveEpochDesign({ ...base, maxEpochs: 6 }))[2]!);
  });

  it('spends nothing at a look whose plan grew past what was already spent', () => {
    // Look 3 spent 3/4 of α; looks 4–7 of a plan of 10 would have spent less, look 8 more.
    const boundaries = spendingBoundaries(resolveEpochDesign({ ...base, maxEpochs: 10, lastLooks: [4, 10] }));
    expect(boundaries.slice(1, 5)).toEqual([Infinity, Infinity, Infinity, Infinity]);
    expect(Number.isFinite(boundaries[5])).toBe(true);
  });

  it('refuses a planned last look before its own look', () => {
    expect(() => resolveEpochDesign({ ...base, maxEpochs: 5, lastLooks: [3, 3] })).toThrow(/lastLooks/);
  });

  it('holds the false-regression rate within α whichever way the pace moved the plan, from a first look at 3 epochs', () => {
    // Plans a pace could give: steady, slowing to a last look at 4, quickening, a first look that is the last.
    const plans: Array<{ maxEpochs: number; lastLooks: number[] }> = [
      { maxEpochs: 6, lastLooks: [6, 6, 6, 6] },
      { maxEpochs: 4, lastLooks: [5, 4] },
      { maxEpochs: 8, lastLooks: [4, 6, 7, 8, 8, 8] },
      { maxEpochs: 3, lastLooks: [3] },
    ];
    for (const plan of plans) {
      const rate = tCrossingRate(spendingBoundaries(resolveEpochDesign({ ...base, ...plan })), 3, 100_000);
      // Sampling sd of 100,000 paths: 0.07 points; the calibration's own error about 0.15.
      expect(rate).toBeLessThan(0.05 + 0.005);
      expect(rate).toBeGreaterThan(0.05 - 0.01);
    }
  });
});

describe('the trimmed statistic', () => {
  const design = resolveEpochDesign({ ...DESIGN, statistic: 'trimmed' });
  const boundaries = spendingBoundaries(design);

  it("has boundaries of its own, near t's while nothing is cut (fewer than five epochs)", () => {
    expect(boundaries).toHaveLength(DESIGN.maxEpochs - DESIGN.minEpochs + 1);
    // The same quantile estimated from other simulated paths: equal up to the simulation's own error.
    const t = spendingBoundaries(resolveEpochDesign(DESIGN));
    expect(Math.abs(boundaries[0]! / t[0]! - 1)).toBeLessThan(0.1);
    expect(boundaries.every((b) => Number.isFinite(b) && b > 1.5)).toBe(true);
  });

  it('holds the false-regression rate at α over all looks under normal epochs, checked with another random source', () => {
    // 50,000 paths: a sampling sd of 0.1 points; with the calibration's own error, a wrong boundary
    // is what lands outside α ± 0.7 points.
    expect(Math.abs(falseRegressionRate(design, 50_000) - 0.05)).toBeLessThan(0.007);
  }, 60_000);

  it("keeps two far epochs of ten from moving its interval, where they drag the mean's past the threshold", () => {
    // Ten A/A epochs (log ratios): eight within ±2%, and two at +14.9% and +17.3% as in a real Hive run.
    const epochs = [0.02, -0.02, 0.015, -0.015, 0.01, -0.01, 0.005, -0.005, Math.log(1.149), Math.log(1.173)];
    const plain = decideEpochs(epochs, { ...DESIGN, maxEpochs: 10 });
    const trimmed = decideEpochs(epochs, { ...DESIGN, maxEpochs: 10, statistic: 'trimmed' });
    expect(plain.outcome).toBe('continue');
    expect(plain.interval!.high).toBeGreaterThan(0.05);
    expect(trimmed.outcome).toBe('no change');
    expect(trimmed.interval!.high).toBeLessThan(0.04);
  });
});

describe('a verdict that must hold without its farthest epoch', () => {
  const held = { ...DESIGN, holdWithoutFarthest: true };
  // The epochs of a real A/A comparison (Mesh, 2026-11-26 23:56) that the plain rule called a regression after 9.
  const realFalseAlarm = [-0.0023, 0.0421, 0.0383, 0.0462, 0.0693, -0.0207, 0.1406, 0.1475, 0.1011];

  it('waits where a regression rests on its slowest epoch, and says why', () => {
    const plain = decideEpochs(realFalseAlarm, { ...DESIGN, maxEpochs: 22 });
    const decision = decideEpochs(realFalseAlarm, { ...held, maxEpochs: 22 });
    expect(plain.outcome).toBe('regression');
    expect(decision.outcome).toBe('continue');
    expect(decision.interval).toEqual(plain.interval);
    expect(decision.reason).toMatch(/only with its slowest epoch: \[−0\.\d%, \+11\.\d%\] without it/);
  });

  it('still calls a 4× slowdown and a 4× speedup at the first look', () => {
    const wobble = [0.01, -0.01, 0.02, -0.02];
    expect(
      decideEpochs(
        wobble.map((w) => Math.log(4) + w),
        held,
      ).outcome,
    ).toBe('regression');
    expect(
      decideEpochs(
        wobble.map((w) => -Math.log(4) + w),
        held,
      ).outcome,
    ).toBe('improvement');
  });

  it('calls a regression only where the plain rule does, and still catches a change of four times the threshold', () => {
    const z = normals(4000 * DESIGN.maxEpochs);
    let extra = 0;
    let caught = 0;
    for (let p = 0; p < 4000; p++) {
      const aa = Array.from(z.subarray(p * DESIGN.maxEpochs, (p + 1) * DESIGN.maxEpochs), (v) => 0.05 * v);
      for (let n = DESIGN.minEpochs; n <= DESIGN.maxEpochs; n++) {
        const h = decideEpochs(aa.slice(0, n), held).outcome;
        if ((h === 'regression' || h === 'improvement') && decideEpochs(aa.slice(0, n), DESIGN).outcome !== h) extra++;
      }
      const shifted = aa.map((v) => v + Math.log(1.2));
      if (firstVerdict(shifted, held) === 'regression') caught++;
    }
    expect(extra).toBe(0);
    expect(caught / 4000).toBeGreaterThan(0.99);
  }, 60_000);
});

/** The first verdict along a path, look by look, or inconclusive at its last look. */
function firstVerdict(values: readonly number[], design: Parameters<typeof decideEpochs>[1]): string {
  for (let n = 1; n <= values.length; n++) {
    const { outcome } = decideEpochs(values.slice(0, n), design);
    if (outcome !== 'continue') return outcome;
  }
  return 'inconclusive';
}

describe('the Huber statistic', () => {
  const design = resolveEpochDesign({ ...DESIGN, statistic: 'huber' });

  it('holds the false-regression rate at α over all looks under normal epochs, checked with another random source', () => {
    expect(Math.abs(falseRegressionRate(design, 50_000) - 0.05)).toBeLessThan(0.007);
  }, 120_000);

  it('caps the pull of two far epochs of ten', () => {
    const epochs = [0.02, -0.02, 0.015, -0.015, 0.01, -0.01, 0.005, -0.005, Math.log(1.149), Math.log(1.173)];
    const huber = decideEpochs(epochs, { ...DESIGN, maxEpochs: 10, statistic: 'huber' });
    const plain = decideEpochs(epochs, { ...DESIGN, maxEpochs: 10 });
    expect(huber.relativeChange).toBeLessThan(plain.relativeChange / 2);
    expect(huber.outcome).not.toBe('regression');
  });
});

/** The share of simulated A/A paths (normal epochs from `normals`) that any look calls a regression. */
function falseRegressionRate(design: ReturnType<typeof resolveEpochDesign>, paths: number): number {
  const z = normals(paths * DESIGN.maxEpochs);
  let crossed = 0;
  for (let p = 0; p < paths; p++) {
    const values = Array.from(z.subarray(p * DESIGN.maxEpochs, (p + 1) * DESIGN.maxEpochs));
    for (let n = DESIGN.minEpochs; n <= DESIGN.maxEpochs; n++) {
      if (decideEpochs(values.slice(0, n), { ...design, minEpochSd: 0, threshold: 1e-9 }).outcome === 'regression') {
        crossed++;
        break;
      }
    }
  }
  return crossed / paths;
}
