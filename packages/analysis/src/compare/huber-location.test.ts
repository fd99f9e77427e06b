import { describe, expect, it } from 'vitest';
import { huberLocation } from './huber-location.js';

describe('huberLocation', () => {
  it('is the mean when no value lies beyond k robust deviations', () => {
    const values = [1, 2, 3, 4, 5];
    const h = huberLocation(values);
    expect(h.center).toBeCloseTo(3, 9);
    // Every residual inside: the sandwich is the mean's standard error with the MAD's scale in place of the sd.
    expect(h.standardError).toBeGreaterThan(0);
  });

  it('moves by a bounded amount for a far value, where the mean follows it', () => {
    const quiet = [0.01, -0.02, 0.0, 0.015, -0.01, 0.005, -0.005, 0.02, 0.0];
    const near = huberLocation([...quiet, 0.03]).center;
    const far = huberLocation([...quiet, 3]).center;
    expect(Math.abs(far - near)).toBeLessThan(0.01);
  });

  it('refuses fewer than two values', () => {
    expect(() => huberLocation([1])).toThrow(RangeError);
  });
});
