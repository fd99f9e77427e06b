import { describe, expect, it } from 'vitest';
import { againstBudget, percentChange, summarizeRatios } from './ratios.js';

describe('summarizeRatios', () => {
  it('gives the median, range, geometric mean and a t interval of the logs', () => {
    const s = summarizeRatios([0.98, 1.0, 1.02]);
    expect(s.median).toBe(1.0);
    expect([s.min, s.max]).toEqual([0.98, 1.02]);
    expect(s.geometricMean).toBeCloseTo(Math.exp((Math.log(0.98) + Math.log(1.02)) / 3), 12);
    // sd of the logs ≈ 0.02, t(0.975, 2) = 4.303: half-width ≈ 4.303 · 0.02 / √3 ≈ 0.0497
    expect(s.interval![0]).toBeCloseTo(Math.exp(Math.log(s.geometricMean) - 0.0497), 3);
    expect(s.interval![1]).toBeCloseTo(Math.exp(Math.log(s.geometricMean) + 0.0497), 3);
  });

  it('has no interval from one pair', () => {
    expect(summarizeRatios([0.9]).interval).toBeNull();
  });
});

describe('againstBudget', () => {
  const tight = summarizeRatios([0.995, 1.0, 1.005, 0.999]);
  it('is within when the whole interval costs less than the budget', () => {
    expect(againstBudget(tight, 0.03, true)).toBe('within');
    expect(againstBudget(tight, 0.03, false)).toBe('within');
  });
  it('is beyond when the whole interval costs more', () => {
    expect(againstBudget(summarizeRatios([0.9, 0.91, 0.92]), 0.03, true)).toBe('beyond');
    expect(againstBudget(summarizeRatios([1.1, 1.11, 1.12]), 0.03, false)).toBe('beyond');
  });
  it('is undecided when the interval straddles the budget', () => {
    expect(againstBudget(summarizeRatios([0.9, 1.0, 1.1]), 0.03, true)).toBe('undecided');
  });
});

describe('percentChange', () => {
  it('signs the change', () => {
    expect(percentChange(0.97)).toBe('−3.0%');
    expect(percentChange(1.0123, 2)).toBe('+1.23%');
  });
});
