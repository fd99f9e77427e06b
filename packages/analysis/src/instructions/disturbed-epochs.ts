/**
 * Epochs whose counts read far from the others on both sides at once: both processes of the pair
 * ran work that was not the requests' (a timer, a poller, a cache rebuilt on a schedule) while
 * their batches were counted. Such an epoch says nothing about the change, and its ratio, near 1
 * or not, would decide or stall the verdict alone; it is set aside and named. A reading far on one
 * side only stays: it may be the change itself.
 */
import type { InstructionBatch } from '@gwprof/results';

/** Far means this many times the verdict's threshold from the side's median level, on both sides. */
export const DISTURBED_THRESHOLDS = 3;
/** A median needs this many epochs before any of them can be called far from it. */
const MIN_EPOCHS = 3;

export interface DisturbedEpoch {
  epoch: number;
  /** Each side's instructions per request in this epoch over its median over the epochs, minus 1. */
  baseline: number;
  candidate: number;
}

/** Each side's level in each epoch with batches on both sides: the geometric mean of its batches. */
function levels(batches: readonly InstructionBatch[]): Map<number, { baseline: number; candidate: number }> {
  const byEpoch = new Map<number, { baseline: number[]; candidate: number[] }>();
  for (const b of batches) {
    const v = b.instructionsPerOkRequest;
    if (v === null || !(v > 0) || !Number.isFinite(v)) continue;
    const entry = byEpoch.get(b.epoch) ?? { baseline: [], candidate: [] };
    entry[b.side].push(Math.log(v));
    byEpoch.set(b.epoch, entry);
  }
  const geometric = (logs: number[]) => Math.exp(logs.reduce((s, v) => s + v, 0) / logs.length);
  const out = new Map<number, { baseline: number; candidate: number }>();
  for (const [epoch, sides] of byEpoch)
    if (sides.baseline.length > 0 && sides.candidate.length > 0) out.set(epoch, { baseline: geometric(sides.baseline), candidate: geometric(sides.candidate) });
  return out;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The epochs where both sides read more than DISTURBED_THRESHOLDS × threshold from their medians, the same way. */
export function disturbedEpochs(batches: readonly InstructionBatch[], threshold: number): DisturbedEpoch[] {
  const byEpoch = levels(batches);
  if (byEpoch.size < MIN_EPOCHS) return [];
  const medians = {
    baseline: median([...byEpoch.values()].map((l) => l.baseline)),
    candidate: median([...byEpoch.values()].map((l) => l.candidate)),
  };
  const far = DISTURBED_THRESHOLDS * threshold;
  return [...byEpoch.entries()]
    .map(([epoch, l]) => ({ epoch, baseline: l.baseline / medians.baseline - 1, candidate: l.candidate / medians.candidate - 1 }))
    .filter((d) => Math.abs(d.baseline) > far && Math.abs(d.candidate) > far && Math.sign(d.baseline) === Math.sign(d.candidate))
    .sort((a, b) => a.epoch - b.epoch);
}

/** One line naming the epochs set aside, or null when there are none. */
export function disturbedNote(disturbed: readonly DisturbedEpoch[]): string | null {
  if (disturbed.length === 0) return null;
  const pct = (v: number) => `${v >= 0 ? '+' : '−'}${Math.abs(v * 100).toFixed(1)}%`;
  const each = disturbed.map((d) => `${d.epoch} (baseline ${pct(d.baseline)}, candidate ${pct(d.candidate)})`).join(', ');
  return `epoch${disturbed.length === 1 ? '' : 's'} ${each} set aside: both sides far from their medians at once, work of the gateways' own rather than of the requests`;
}
