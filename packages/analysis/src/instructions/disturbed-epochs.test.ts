import { describe, expect, it } from 'vitest';
import { instructionBatch } from '../testing/instruction-batch.js';
import type { InstructionBatch } from '@gwprof/results';
import { disturbedEpochs } from './disturbed-epochs.js';
import { judgeInstructions } from './instruction-test.js';

const design = { threshold: 0.01, alpha: 0.05, minEpochs: 4, maxEpochs: 30, spendingPower: 1, minEpochSd: 0.001 };

const batch = instructionBatch;

/** Grafbase's unchanged pair as first counted: about 1.919 M a request, ±0.2%, and one epoch at 3.41 M on both sides (3.40 and 3.27 apart by 4%). */
function grafbaseLike(farEpoch: { baseline: number; candidate: number } | null): InstructionBatch[] {
  const wobble = [0.0012, -0.0008, 0.0015, -0.0017, 0.0004, -0.0011, 0.0009, -0.0005];
  return wobble.flatMap((w, i) => {
    const epoch = i + 1;
    if (farEpoch && epoch === 5) return [batch(epoch, 'baseline', farEpoch.baseline), batch(epoch, 'candidate', farEpoch.candidate)];
    return [batch(epoch, 'baseline', 1.919e6 * (1 + w)), batch(epoch, 'candidate', 1.919e6 * (1 - w / 2))];
  });
}

describe('disturbedEpochs', () => {
  it('names an epoch far from the others on both sides, the same way', () => {
    const found = disturbedEpochs(grafbaseLike({ baseline: 3.4e6, candidate: 3.27e6 }), 0.01);
    expect(found.map((d) => d.epoch)).toEqual([5]);
    expect(found[0]!.baseline).toBeGreaterThan(0.7);
  });

  it('keeps an epoch far on one side only: that may be the change itself', () => {
    expect(disturbedEpochs(grafbaseLike({ baseline: 1.919e6, candidate: 3.27e6 }), 0.01)).toEqual([]);
  });

  it('needs three epochs before anything is far from their median', () => {
    expect(disturbedEpochs([batch(1, 'baseline', 1e6), batch(1, 'candidate', 1e6), batch(2, 'baseline', 3e6), batch(2, 'candidate', 3e6)], 0.01)).toEqual([]);
  });
});

describe('judgeInstructions with a disturbed epoch', () => {
  it('neither stalls nor decides on it: an unchanged pair ends no change and names the epoch it set aside', () => {
    const batches = grafbaseLike({ baseline: 3.4e6, candidate: 3.27e6 });
    const verdict = judgeInstructions(batches, design);
    const d = verdict.decisions.get(1)!;
    expect(verdict.verdict).toBe('no change');
    expect(d.setAsideEpochs).toEqual([5]);
    expect(d.reason).toMatch(/epoch 5 \(baseline \+77\.\d%, candidate \+70\.\d%\) set aside/);
    // Counted, the same epoch's −3.9% would have held the interval far wider than ±1%.
    const withoutRule = judgeInstructions(
      batches.map((b) => (b.epoch === 5 ? { ...b, instructionsPerOkRequest: b.side === 'baseline' ? 1.919e6 : 1.919e6 * (3.27 / 3.4) } : b)),
      design,
    );
    expect(withoutRule.verdict).not.toBe('no change');
  });
});
