import { describe, expect, it } from 'vitest';
import { instructionBatch } from '../testing/instruction-batch.js';
import type { InstructionBatch } from '@gwprof/results';
import { instructionMetric, instructionObservations, judgeInstructions } from './instruction-test.js';
import { findingOf } from '../compare/verdict.js';

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
