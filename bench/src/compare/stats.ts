// Small statistics over plain arrays, for the benchmark's own tables (the rest is @gwprof/analysis's).
import { blockLogRatio, variance } from '@gwprof/analysis';
import type { SlimWindow } from './driver.js';

/** Sample standard deviation (n − 1). */
export const sd = (xs: readonly number[]): number => Math.sqrt(variance(xs));

/** A recording's blocks: x = mean log candidate − mean log baseline, for a value function (values ≤ 0 or null left out). */
export function blockRatios(windows: readonly SlimWindow[], value: (w: SlimWindow) => number | null): number[] {
  const blocks = new Map<number, { baseline: number[]; candidate: number[] }>();
  for (const w of windows) {
    const v = value(w);
    if (v === null || !(v > 0)) continue;
    const b = blocks.get(w.block) ?? { baseline: [], candidate: [] };
    b[w.side].push(v);
    blocks.set(w.block, b);
  }
  return [...blocks.values()].filter((b) => b.baseline.length && b.candidate.length).map((b) => blockLogRatio(b.baseline, b.candidate));
}
