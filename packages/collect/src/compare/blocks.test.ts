import { describe, expect, it } from 'vitest';
import { mulberry32 } from '@gwprof/analysis';
import { blockOrder } from './blocks.js';
import { sharedProgress } from './side-steps.js';

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

describe('sharedProgress', () => {
  it('shows both sides of a simultaneous window on one line, each with its latest report', () => {
    const lines: string[] = [];
    const progress = sharedProgress((line) => lines.push(line));
    progress.baseline('baseline measuring 1/5 s');
    progress.candidate('candidate measuring 1/5 s');
    progress.baseline('baseline measuring 2/5 s');
    expect(lines).toEqual([
      'baseline measuring 1/5 s',
      'baseline measuring 1/5 s  |  candidate measuring 1/5 s',
      'baseline measuring 2/5 s  |  candidate measuring 1/5 s',
    ]);
  });
});
