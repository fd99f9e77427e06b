import { describe, expect, it } from 'vitest';
import { mulberry32 } from '@gwprof/analysis';
import { blockOrder } from './blocks.js';

describe('blockOrder', () => {
  it('holds the same windows of each side in every block, in orders drawn at random', () => {
    const random = mulberry32(1);
    const orders = Array.from({ length: 400 }, () => blockOrder(2, random));
    for (const order of orders) {
      expect(order.filter((s) => s === 'baseline')).toHaveLength(2);
      expect(order.filter((s) => s === 'candidate')).toHaveLength(2);
    }
    // All six orders of two and two appear, and each side goes first about half the time (200 ± 10 σ: ±50 is 5σ).
    expect(new Set(orders.map((o) => o.join(','))).size).toBe(6);
    expect(Math.abs(orders.filter((o) => o[0] === 'baseline').length - 200)).toBeLessThan(50);
  });
});
