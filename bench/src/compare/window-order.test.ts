import { describe, expect, it } from 'vitest';
import { blockContrasts, orderSummary, pooledSd, sideBias, type OrderWindow } from './window-order.js';

/** One block whose windows slow by 4% per place, the sides alike: only a drift, no change. */
function driftingBlock(block: number, order: string): OrderWindow[] {
  return [...order].map((letter, position) => ({
    block,
    level: 20,
    position,
    side: letter === 'C' ? 'candidate' : 'baseline',
    value: 7 * Math.exp(0.04 * position),
  }));
}

describe('blockContrasts', () => {
  it('cancels a drift in balanced orders, and reads it as a change in the others', () => {
    const [abba, aabb] = [...blockContrasts(driftingBlock(1, 'BCCB')), ...blockContrasts(driftingBlock(2, 'BBCC'))];
    expect(abba!.balanced).toBe(true);
    expect(abba!.logRatio).toBeCloseTo(0, 12);
    expect(abba!.trendPerPosition).toBeCloseTo(0.04, 12);
    expect(aabb!.balanced).toBe(false);
    expect(aabb!.logRatio).toBeCloseTo(0.08, 12);
    expect(aabb!.trendPerPosition).toBeNull();
  });

  it('leaves out blocks without two windows of each side', () => {
    expect(blockContrasts(driftingBlock(1, 'BCC'))).toEqual([]);
  });
});

describe('orderSummary', () => {
  it('finds the unbalanced orders noisier when the machine drifts within blocks', () => {
    const orders = ['BCCB', 'CBBC', 'BBCC', 'CCBB', 'BCBC', 'CBCB'];
    const summary = orderSummary([orders.map((order, i) => blockContrasts(driftingBlock(i, order))[0]!)]);
    expect(summary.balanced.sd).toBeCloseTo(0, 12);
    expect(summary.unbalanced.sd).toBeGreaterThan(0.03);
    expect(summary.trend.mean).toBeCloseTo(0.04, 12);
  });
});

describe('pooledSd', () => {
  it('is the sample sd for one sample, and leaves out the samples’ different means', () => {
    expect(pooledSd([[1, 2, 3]])).toBeCloseTo(1, 12);
    expect(pooledSd([[1, 2, 3], [101, 102, 103], [7]])).toBeCloseTo(1, 12);
    expect(pooledSd([[5]])).toBeNaN();
  });
});

describe('sideBias', () => {
  it('averages each A/A comparison once, however many blocks it has', () => {
    const contrast = (logRatio: number) => ({ logRatio, balanced: true, trendPerPosition: 0 });
    const bias = sideBias([[contrast(0.02), contrast(0.02), contrast(0.02)], [contrast(-0.01)], []]);
    expect(bias.comparisons).toBe(2);
    expect(bias.mean).toBeCloseTo(0.005, 12);
    expect(bias.positive).toBe(1);
    expect(bias.standardError).toBeCloseTo(0.015, 12);
  });
});
