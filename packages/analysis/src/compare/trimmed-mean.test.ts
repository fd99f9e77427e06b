import { describe, expect, it } from 'vitest';
import { trimmedLocation } from './trimmed-mean.js';

describe('trimmedLocation', () => {
  it('is the plain mean and its standard error below five values', () => {
    const t = trimmedLocation([1, 2, 3, 6]);
    expect(t.cut).toBe(0);
    expect(t.center).toBe(3);
    const sd = Math.sqrt(((1 - 3) ** 2 + (2 - 3) ** 2 + 0 + (6 - 3) ** 2) / 3);
    expect(t.standardError).toBeCloseTo(sd / 2, 12);
  });

  it('cuts a fifth from each end, so two far epochs of ten move the centre little', () => {
    const quiet = [0.01, -0.02, 0.0, 0.015, -0.01, 0.005, -0.005, 0.02];
    const plain = trimmedLocation([...quiet, 0.0, 0.0]);
    const far = trimmedLocation([...quiet, 0.149, 0.173]);
    expect(far.cut).toBe(2);
    const plainMean = [...quiet, 0.149, 0.173].reduce((a, b) => a + b, 0) / 10;
    expect(plainMean).toBeGreaterThan(0.03);
    expect(Math.abs(far.center - plain.center)).toBeLessThan(0.01);
  });

  it('refuses fewer than two values', () => {
    expect(() => trimmedLocation([1])).toThrow(RangeError);
  });
});
