import { describe, expect, it } from 'vitest';
import type { CompareWindow, StepRecord } from '@gwprof/results';
import { compareMetric, GATING_METRIC, INFORMATIONAL_METRICS, judgeComparison, levelObservations } from './compare-windows.js';
import { mulberry32 } from '../random.js';
import { metricStep } from '../testing/steps.js';

const step = (level: number, cpuMs: number, status: StepRecord['status'] = 'ok') => metricStep(level, cpuMs, status);

/** One block per epoch, two windows per side, with multiplicative noise of about `noise` per window and a candidate slowdown. */
function windows(epochs: number, slowdown: number, noise: number, seed: number, level = 20): CompareWindow[] {
  const random = mulberry32(seed);
  const out: CompareWindow[] = [];
  for (let epoch = 1; epoch <= epochs; epoch++) {
    const order = epoch % 2 === 1 ? ['baseline', 'candidate', 'candidate', 'baseline'] : ['candidate', 'baseline', 'baseline', 'candidate'];
    order.forEach((side, position) => {
      const factor = side === 'candidate' ? 1 + slowdown : 1;
      const cpu = 10 * factor * Math.exp(noise * (random() * 2 - 1) * Math.sqrt(3));
      out.push({ epoch, block: epoch, position, side: side as CompareWindow['side'], step: step(level, cpu) });
    });
  }
  return out;
}

const design = { levels: [20], threshold: 0.05, alpha: 0.05, minEpochs: 4, maxEpochs: 10, spendingPower: 1 };

describe('judgeComparison', () => {
  it('calls a 4× slowdown a regression as soon as the test may look, and exits 1', () => {
    const verdict = judgeComparison(windows(6, 3, 0.05, 1), design);
    expect(verdict).toMatchObject({ verdict: 'regression', done: true });
    expect(verdict.decisions.get(20)!.relativeChange).toBeCloseTo(3, 0);
  });

  it('says no change for identical sides with little noise, and exits 0', () => {
    expect(judgeComparison(windows(6, 0, 0.005, 2), design)).toMatchObject({ verdict: 'no change', done: true });
  });

  it('calls a 4× speed-up an improvement', () => {
    expect(judgeComparison(windows(6, -0.75, 0.05, 3), design)).toMatchObject({ verdict: 'improvement' });
  });

  it('stays undecided before the first look: inconclusive, exit 3, not done', () => {
    expect(judgeComparison(windows(3, 3, 0.05, 4), design)).toMatchObject({ verdict: 'inconclusive', done: false });
    expect(judgeComparison([], design)).toMatchObject({ verdict: 'inconclusive', done: false });
  });

  it('ends inconclusive at the last look when the interval still holds 0 and reaches past the threshold', () => {
    // Epochs alternating ±40%: the interval stays wide. At the last look (4 epochs here) the comparison is done.
    const wide = windows(4, 0, 0, 9).map((w) => ({ ...w, step: step(20, w.side === 'candidate' ? (w.epoch % 2 === 1 ? 14 : 6) : 10) }));
    expect(judgeComparison(wide, { ...design, maxEpochs: 4 })).toMatchObject({ verdict: 'inconclusive', done: true });
    expect(judgeComparison(wide, design)).toMatchObject({ verdict: 'inconclusive', done: false });
  });

  it('turns a failed window into an invalid comparison, never a verdict', () => {
    const all = windows(6, 3, 0.05, 5);
    all[5] = { ...all[5]!, step: step(20, 10, 'failed') };
    const verdict = judgeComparison(all, design);
    expect(verdict).toMatchObject({ verdict: 'invalid', done: true });
    expect(verdict.reasons[0]).toMatch(/window 2\.1 at c=20 failed: success rate/);
  });

  it('splits α across levels and needs every level decided', () => {
    const both = [...windows(6, 0, 0.005, 6, 10), ...windows(2, 0, 0.005, 7, 50).map((w) => ({ ...w, block: w.block + 100 }))];
    const verdict = judgeComparison(both, { ...design, levels: [10, 50] });
    expect(verdict.decisions.get(10)!.alpha).toBeCloseTo(0.025, 9);
    expect(verdict.decisions.get(10)!.outcome).toBe('no change');
    expect(verdict).toMatchObject({ verdict: 'inconclusive', done: false });
  });
});

describe('levelObservations and compareMetric', () => {
  it('pairs the windows of a block: x is the mean log of the candidate minus that of the baseline', () => {
    const w: CompareWindow[] = [
      { epoch: 1, block: 1, position: 0, side: 'baseline', step: step(20, 10) },
      { epoch: 1, block: 1, position: 1, side: 'candidate', step: step(20, 12) },
      { epoch: 1, block: 1, position: 2, side: 'candidate', step: step(20, 12) },
      { epoch: 1, block: 1, position: 3, side: 'baseline', step: step(20, 10) },
    ];
    const [block] = levelObservations(w, 20);
    expect(block!.epoch).toBe(1);
    expect(block!.x).toBeCloseTo(Math.log(1.2), 12);
    const cpu = compareMetric(w, 20, GATING_METRIC);
    expect(cpu.relativeChange).toBeCloseTo(0.2, 9);
    expect(cpu.baseline.geometricMean).toBeCloseTo(10, 9);
    expect(cpu.candidate.geometricMean).toBeCloseTo(12, 9);
    expect(cpu.interval).toBeNull();
  });

  it('gives informational metrics a 95% interval labelled as not adjusted for the sequential stop', () => {
    const rps = compareMetric(windows(8, 0.25, 0.01, 8), 20, INFORMATIONAL_METRICS[0]!);
    expect(rps.confidence).toBe(0.95);
    expect(rps.relativeChange!).toBeCloseTo(1 / 1.25 - 1, 1);
    expect(rps.interval![0]).toBeLessThan(rps.relativeChange!);
    expect(rps.method).toMatch(/not adjusted for the sequential stop/);
  });
});
