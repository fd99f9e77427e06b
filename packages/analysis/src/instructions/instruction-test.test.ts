import { describe, expect, it } from 'vitest';
import { instructionBatch } from '../testing/instruction-batch.js';
import type { InstructionBatch } from '@gwprof/results';
import { instructionMetric, instructionObservations, judgeInstructions } from './instruction-test.js';
import { findingOf } from '../compare/verdict.js';
import { mulberry32 } from '../random.js';

const design = { threshold: 0.01, alpha: 0.05, minEpochs: 3, maxEpochs: 10, spendingPower: 1, minEpochSd: 0.001 };

const batch = instructionBatch;

/** Epochs whose sides differ by `change`, each with a process offset of its own (the same on both sides). */
function epochs(n: number, change: number, offsets = [0, 0.0007, -0.0005, 0.0003, -0.0008]): InstructionBatch[] {
  return Array.from({ length: n }, (_, i) => {
    const base = 57e6 * (1 + offsets[i % offsets.length]!);
    return [batch(i + 1, 'baseline', base), batch(i + 1, 'candidate', base * (1 + change) * (1 + offsets[(i + 2) % offsets.length]! / 2))];
  }).flat();
}

describe('judgeInstructions', () => {
  it('says no change for identical counts at the first look: the sd floor keeps the interval honest, not zero-wide', () => {
    const batches = [1, 2, 3].flatMap((e) => [batch(e, 'baseline', 5e7), batch(e, 'candidate', 5e7)]);
    const verdict = judgeInstructions(batches, design);
    expect(verdict.verdict).toBe('no change');
    const d = verdict.decisions.get(1)!;
    expect(d.interval!.high).toBeGreaterThan(0.001);
    expect(d.interval!.low).toBeLessThan(-0.001);
  });

  it('calls a 5% rise a regression at the first look, and waits before it', () => {
    expect(judgeInstructions(epochs(2, 0.05), design).verdict).toBe('inconclusive');
    const verdict = judgeInstructions(epochs(3, 0.05), design);
    expect(verdict.verdict).toBe('regression');
    expect(findingOf(verdict.verdict)).toBe('failed');
    expect(verdict.decisions.get(1)!.relativeChange).toBeGreaterThan(0.04);
  });

  it('calls a 10% drop an improvement (exit 0)', () => {
    const verdict = judgeInstructions(epochs(3, -0.1), design);
    expect(verdict.verdict).toBe('improvement');
    expect(findingOf(verdict.verdict)).toBe('passed');
  });

  it('is invalid when any counted response failed validation, whatever the counts say', () => {
    const batches = epochs(3, 0);
    batches[3] = batch(2, 'candidate', 57e6, 29);
    const verdict = judgeInstructions(batches, design);
    expect(verdict.verdict).toBe('invalid');
    expect(findingOf(verdict.verdict)).toBe('invalid');
    expect(verdict.reasons[0]).toMatch(/candidate batch 2\.1: 1 of 30 responses failed validation \(data differs\)/);
  });

  it('pairs the sides within each epoch, and leaves out an epoch with only one side counted', () => {
    const batches = [...epochs(2, 0.02), batch(3, 'baseline', 57e6)];
    const observations = instructionObservations(batches);
    expect(observations.map((o) => o.epoch)).toEqual([1, 2]);
    for (const o of observations) expect(Math.expm1(o.x)).toBeCloseTo(0.02, 2);
    const metric = instructionMetric(batches);
    expect(metric.unit).toBe('instructions/req');
    expect(metric.baseline.n).toBe(3);
    expect(metric.relativeChange!).toBeCloseTo(0.02, 2);
  });
});

/** Normal draws from a seed of its own (not the calibration's). */
function normalSource(seed: number): () => number {
  const random = mulberry32(seed);
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/**
 * Paths of epochs (each side a fresh process with an offset of its own of sd `processSd`), judged
 * after every epoch from the first look at 3 under a plan the pace re-fixed before every look; the
 * share that ended in each verdict.
 */
function simulate(paths: number, change: number, processSd: number, plan: { maxEpochs: number; lastLooks: number[] }, seed: number): Map<string, number> {
  const normal = normalSource(seed);
  const ended = new Map<string, number>();
  for (let p = 0; p < paths; p++) {
    const batches: InstructionBatch[] = [];
    let verdict = 'inconclusive';
    for (let e = 1; e <= plan.maxEpochs; e++) {
      batches.push(batch(e, 'baseline', 57e6 * Math.exp(processSd * normal())), batch(e, 'candidate', 57e6 * (1 + change) * Math.exp(processSd * normal())));
      if (e < 3) continue;
      const v = judgeInstructions(batches, { ...design, minEpochs: 3, ...plan });
      verdict = v.verdict;
      if (v.done) break;
    }
    ended.set(verdict, (ended.get(verdict) ?? 0) + 1);
  }
  return new Map([...ended].map(([k, v]) => [k, v / paths]));
}

describe('the first look at 3 epochs, the fewest the counts need', () => {
  // Issue 54's slow evening: three epochs fit in 10 minutes, the counts within 0.25% of each other.
  const slowDay = epochs(3, 0.0005, [0, 0.0012, -0.0013]);

  it("decides an unchanged gateway's three epochs no change at a last look the budget leaves no epoch after", () => {
    const verdict = judgeInstructions(slowDay, { ...design, minEpochs: 3, maxEpochs: 3, lastLooks: [3] });
    expect(verdict.verdict).toBe('no change');
    expect(verdict.done).toBe(true);
  });

  it('where a first look at 4 epochs left them without a verdict', () => {
    const verdict = judgeInstructions(slowDay, { ...design, minEpochs: 4, maxEpochs: 4 });
    expect(verdict.verdict).toBe('inconclusive');
    expect(verdict.reasons[0]).toMatch(/no verdict before 4 epochs/);
  });

  it('takes an epoch set aside as no look: the look at the last epoch the budget fits still spends what is left', () => {
    // Epoch 2's counts read 5% high on both sides (a timer in both processes): set aside.
    const batches = [1, 2, 3, 4].flatMap((e) => {
      const level = 57e6 * (e === 2 ? 1.05 : 1) * (1 + 0.0005 * (e % 3));
      return [batch(e, 'baseline', level), batch(e, 'candidate', level * (1 + 0.0003 * e))];
    });
    // The plan after epochs 3 and 4, by epochs: 4 was the last that fit.
    const verdict = judgeInstructions(batches, { ...design, minEpochs: 3, maxEpochs: 4, lastLooks: [4, 4] });
    const d = verdict.decisions.get(1)!;
    expect(d.setAsideEpochs).toEqual([2]);
    expect(d).toMatchObject({ epochs: 3, maxEpochs: 3, outcome: 'no change' });
    expect(verdict.done).toBe(true);
  });

  // 20,000 paths: the rates' sampling sd is 0.15 points at 5%.
  const plans = [
    { maxEpochs: 3, lastLooks: [3] },
    { maxEpochs: 5, lastLooks: [4, 5, 5] },
    { maxEpochs: 6, lastLooks: [6, 6, 6, 6] },
  ];

  it('keeps false regressions within α under repeated looks, with epochs twice as noisy as the sd floor', () => {
    for (const [i, plan] of plans.entries()) {
      const ended = simulate(20_000, 0, 0.0015, plan, 54 + i);
      expect(ended.get('regression') ?? 0).toBeLessThan(0.05 + 0.005);
      expect(ended.get('no change') ?? 0).toBeGreaterThan(0.85);
    }
  });

  it('keeps a false no change at a true change of the threshold within α', () => {
    for (const [i, plan] of plans.entries()) {
      const ended = simulate(20_000, 0.01, 0.0015, plan, 540 + i);
      expect(ended.get('no change') ?? 0).toBeLessThan(0.05 + 0.005);
    }
  });
});
