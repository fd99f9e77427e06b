import { describe, expect, it } from 'vitest';
import { mulberry32 } from './random.js';
import { blockLogRatio, decideSequential, estimateVariance, resolveDesign, type BlockObservation } from './sequential.js';

/** Standard normal draws from a seeded uniform source (Box–Muller). */
function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** n blocks, `perEpoch` to an epoch, x = log(ratio) plus normal noise of sd `sd`. */
function blocks(seed: number, n: number, ratio: number, sd: number, perEpoch = 6): BlockObservation[] {
  const random = mulberry32(seed);
  return Array.from({ length: n }, (_, i) => ({ epoch: Math.floor(i / perEpoch), x: Math.log(ratio) + sd * gaussian(random) }));
}

/** The design these tests are written for: no look before 12 blocks, the rest as the defaults. */
const DESIGN = { minBlocks: 12 };

/** The first look with an outcome other than `continue`, as the caller would run it. */
function firstVerdict(all: readonly BlockObservation[]) {
  for (let n = 1; n <= all.length; n++) {
    const decision = decideSequential(all.slice(0, n), DESIGN);
    if (decision.outcome !== 'continue') return decision;
  }
  return decideSequential(all, DESIGN);
}

describe('blockLogRatio', () => {
  it('is the difference of the sides’ mean logs', () => {
    expect(blockLogRatio([10, 10], [11, 11])).toBeCloseTo(Math.log(1.1), 12);
    // Geometric means 10 and 10: no change, though the arithmetic means differ.
    expect(blockLogRatio([10, 10], [20, 5])).toBeCloseTo(0, 12);
  });

  it('cancels a drift that is linear in log speed across an ABBA block', () => {
    const at = (t: number) => 10 * Math.exp(0.05 * t);
    expect(blockLogRatio([at(0), at(3)], [at(1) * 1.2, at(2) * 1.2])).toBeCloseTo(Math.log(1.2), 12);
  });

  it('rejects empty sides and non-positive values', () => {
    expect(() => blockLogRatio([], [1])).toThrow(/baseline window/);
    expect(() => blockLogRatio([1], [0])).toThrow(/candidate window values/);
  });
});

describe('decideSequential', () => {
  it('calls a 4× slowdown a regression at the first allowed look, not before', () => {
    const all = blocks(1, 20, 4, 0.05);
    expect(decideSequential(all.slice(0, 11), DESIGN).outcome).toBe('continue');
    expect(decideSequential(all.slice(0, 11), DESIGN).reason).toMatch(/no verdict before 12 blocks/);
    const verdict = firstVerdict(all);
    expect(verdict).toMatchObject({ outcome: 'regression', blocks: 12, epochs: 2 });
    expect(verdict.relativeChange).toBeCloseTo(3, 0);
    expect(verdict.interval.low).toBeLessThan(3);
    expect(verdict.interval.high).toBeGreaterThan(3);
    expect(verdict.interval.low).toBeGreaterThan(2);
    expect(verdict.statistics.up).toBeGreaterThan(verdict.statistics.reject);
    expect(verdict.reason).toMatch(/^\+\d+\.\d% over 12 blocks: at or above the regression boundary/);
  });

  it('calls a 4× speedup an improvement', () => {
    expect(firstVerdict(blocks(2, 20, 0.25, 0.05))).toMatchObject({ outcome: 'improvement', blocks: 12 });
  });

  it('calls identical sides with tiny noise no change, both tests accepting at the first look', () => {
    const verdict = firstVerdict(blocks(3, 20, 1, 0.001));
    expect(verdict).toMatchObject({ outcome: 'no change', blocks: 12, statistics: { acceptedAt: { up: 12, down: 12 } } });
    expect(verdict.variance.source).toBe('floor');
    expect(Math.abs(verdict.relativeChange)).toBeLessThan(0.01);
    expect(verdict.reason).toMatch(/both tests accepted no change/);
  });

  it('keeps going while the mean sits halfway to the threshold', () => {
    // x alternates ±0.1 around log(1.05)/2: the regression test's ratio stays at 0.
    const half = Math.log1p(0.05) / 2;
    const all = Array.from({ length: 40 }, (_, i) => ({ epoch: Math.floor(i / 6), x: half + (i % 2 === 0 ? 0.1 : -0.1) }));
    const decision = decideSequential(all, DESIGN);
    expect(decision.outcome).toBe('continue');
    expect(decision.statistics.up).toBeCloseTo(0, 10);
    expect(decision.statistics.acceptedAt.up).toBeNull();
    expect(decision.statistics.acceptedAt.down).toBe(12);
    expect(decision.reason).toMatch(/between boundaries \(regression ≥ \+\d/);
  });

  it('keeps a test stopped once it accepted no change', () => {
    // 12 blocks at 0, then a jump: the up test accepted 0 at block 12 and cannot call a regression later.
    const early = Array.from({ length: 12 }, (_, i) => ({ epoch: Math.floor(i / 6), x: i % 2 === 0 ? 0.001 : -0.001 }));
    const late = Array.from({ length: 12 }, (_, i) => ({ epoch: 2 + Math.floor(i / 6), x: 1 }));
    expect(decideSequential(early, DESIGN).outcome).toBe('no change');
    expect(decideSequential([...early, ...late], DESIGN).outcome).toBe('no change');
  });

  it('places the boundaries where the ratios cross Wald’s limits', () => {
    const decision = decideSequential(blocks(4, 12, 1.02, 0.1));
    const v = decision.variance.perBlock;
    const up = Math.log1p(0.05);
    expect(decision.statistics.reject).toBeCloseTo(Math.log(0.8 / 0.05), 12);
    expect(decision.statistics.accept).toBeCloseTo(Math.log(0.2 / 0.95), 12);
    expect(Math.log1p(decision.boundaries.regressionAbove)).toBeCloseTo(up / 2 + (decision.statistics.reject * v) / (12 * up), 12);
    expect(decision.interval).toMatchObject({ confidence: 0.9, validAtStoppingTime: true });
    expect(decision.interval.label).toMatch(/^90% always-valid/);
  });

  it('rejects an empty list and bad designs', () => {
    expect(() => decideSequential([])).toThrow(/at least one block/);
    expect(() => resolveDesign({ alpha: 0.7 })).toThrow(/alpha/);
    expect(() => resolveDesign({ minBlocks: 1 })).toThrow(/minBlocks/);
    expect(() => resolveDesign({ designEffect: 0.5 })).toThrow(/designEffect/);
  });
});

describe('estimateVariance', () => {
  // Two epochs whose blocks sit at +0.1 and −0.1: all the spread is between epochs.
  const split = Array.from({ length: 12 }, (_, i) => ({ epoch: i < 6 ? 0 : 1, x: i < 6 ? 0.1 : -0.1 }));

  it('takes the epoch-mean variance when it is larger', () => {
    const estimate = estimateVariance(split);
    expect(estimate.fromBlocks).toBeCloseTo((0.01 * 12) / 11, 12);
    // K · sample variance of the epoch means = 6 · 0.02.
    expect(estimate.fromEpochs).toBeCloseTo(0.12, 12);
    expect(estimate).toMatchObject({ source: 'epochs' });
    expect(estimate.perBlock).toBeCloseTo(0.12, 12);
  });

  it('uses the plain variance, times the design effect, under the blocks rule', () => {
    const estimate = estimateVariance(split, { variance: 'blocks', designEffect: 2 });
    expect(estimate).toMatchObject({ source: 'blocks' });
    expect(estimate.perBlock).toBeCloseTo((2 * 0.01 * 12) / 11, 12);
  });

  it('has no epoch estimate with one epoch', () => {
    expect(estimateVariance(blocks(5, 6, 1, 0.1)).fromEpochs).toBeNull();
  });
});
