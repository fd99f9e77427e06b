/**
 * Did a bucket's or a function's cost move more than its own noise? Each epoch (one pair of
 * processes) gives a paired difference, candidate − baseline, per successful request; their
 * t interval excludes 0 only for a real move. The interval's level is set for the whole family of
 * items shown (Bonferroni), so in a comparison where nothing changed, nothing is shown as moved in
 * at least `familyConfidence` of runs, however many buckets and functions are listed.
 */
import type { MoveNoise } from '@gwprof/results';
import { mean } from '../descriptive.js';
import { studentTQuantile } from './student-t.js';

/** What one epoch measured of an item on each side, per successful request (CPU ms, or bytes allocated). */
export interface EpochPair {
  baseline: number;
  candidate: number;
}

/** The family of items shown holds at this confidence unless told otherwise. */
export const MOVE_FAMILY_CONFIDENCE = 0.95;

/** What one measured window cost, per item (a bucket or a function): CPU ms, or bytes allocated, over the window. */
export interface WindowCosts {
  epoch: number;
  side: 'baseline' | 'candidate';
  okRequests: number;
  amountByItem: ReadonlyMap<string, number>;
}

/** An item's cost per successful request on each side of every epoch that has both sides' windows. */
export function epochPairs(windows: readonly WindowCosts[], item: string): EpochPair[] {
  const sums = new Map<number, { baseline: { amount: number; ok: number }; candidate: { amount: number; ok: number } }>();
  for (const w of windows) {
    const epoch = sums.get(w.epoch) ?? { baseline: { amount: 0, ok: 0 }, candidate: { amount: 0, ok: 0 } };
    epoch[w.side].amount += w.amountByItem.get(item) ?? 0;
    epoch[w.side].ok += w.okRequests;
    sums.set(w.epoch, epoch);
  }
  return [...sums.entries()]
    .sort((a, b) => a[0] - b[0])
    .filter(([, e]) => e.baseline.ok > 0 && e.candidate.ok > 0)
    .map(([, e]) => ({ baseline: e.baseline.amount / e.baseline.ok, candidate: e.candidate.amount / e.candidate.ok }));
}

/** The noise of one item's move among `familySize` items tested together; null with fewer than two epochs. */
export function moveNoise(epochs: readonly EpochPair[], familySize: number, familyConfidence = MOVE_FAMILY_CONFIDENCE): MoveNoise | null {
  const n = epochs.length;
  if (n < 2) return null;
  const differences = epochs.map((e) => e.candidate - e.baseline);
  const m = mean(differences);
  const sd = Math.sqrt(differences.reduce((sum, d) => sum + (d - m) ** 2, 0) / (n - 1));
  const confidence = 1 - (1 - familyConfidence) / Math.max(1, familySize);
  const half = studentTQuantile(1 - (1 - confidence) / 2, n - 1) * (sd / Math.sqrt(n));
  const interval: [number, number] = [m - half, m + half];
  return { interval, confidence, familyConfidence, familySize: Math.max(1, familySize), moved: interval[0] > 0 || interval[1] < 0 };
}
