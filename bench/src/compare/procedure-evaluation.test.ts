import { describe, expect, it } from 'vitest';
import { mulberry32 } from '@gwprof/analysis';
import {
  epochSource,
  evaluateProcedure,
  maxEpochsFor,
  optimalRoundsPerEpoch,
  recordedEpochValues,
  recordedRounds,
  recordingNoise,
  runToVerdict,
  summarizeReplays,
  wilsonInterval,
  type RecordedWindow,
} from './procedure-evaluation.js';

function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/**
 * A synthetic A/A recording: one block per epoch of `rounds` windows per side in a random order,
 * lognormal (log sd `sd`) around 10 ms, with a lasting log offset of sd `processSd` per process.
 */
function recording(seed: number, epochs: number, rounds: number, sd: number, processSd = 0): RecordedWindow[] {
  const random = mulberry32(seed);
  const windows: RecordedWindow[] = [];
  for (let epoch = 0; epoch < epochs; epoch++) {
    const offset = { baseline: processSd * gaussian(random), candidate: processSd * gaussian(random) };
    const order = Array.from({ length: 2 * rounds }, (_, i): 'baseline' | 'candidate' => (i % 2 === 0 ? 'baseline' : 'candidate')).sort(() => random() - 0.5);
    for (const [position, side] of order.entries())
      windows.push({ epoch, block: epoch, position, side, value: 10 * Math.exp(offset[side] + sd * gaussian(random)) });
  }
  return windows;
}

const options = { replays: 1000, seed: 11, secondsPerEpoch: 40, budgetMinutes: 10 };

describe('mulberry32', () => {
  it('is deterministic per seed and uniform on [0, 1)', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const draws = Array.from({ length: 10_000 }, () => a());
    expect(draws.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => b()));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    expect(draws.reduce((s, x) => s + x, 0) / draws.length).toBeCloseTo(0.5, 1);
  });
});

describe('recorded epochs', () => {
  const windows: RecordedWindow[] = [
    { epoch: 1, block: 1, position: 0, side: 'candidate', value: 12 },
    { epoch: 1, block: 1, position: 1, side: 'baseline', value: 10 },
    { epoch: 1, block: 1, position: 2, side: 'baseline', value: 10 },
    { epoch: 1, block: 1, position: 3, side: 'candidate', value: 15 },
    { epoch: 2, block: 2, position: 0, side: 'baseline', value: 10 },
    { epoch: 2, block: 2, position: 1, side: 'candidate', value: 10 },
    { epoch: 3, block: 3, position: 0, side: 'baseline', value: 10 },
  ];

  it('pairs each block’s windows in the order they ran into rounds, and drops what misses a side', () => {
    expect(recordedRounds(windows).map((e) => e.map((x) => +x.toFixed(6)))).toEqual([[+Math.log(1.2).toFixed(6), +Math.log(1.5).toFixed(6)], [0]]);
  });

  it('gives each epoch the live test’s value: the mean log of each side', () => {
    const [first, second] = recordedEpochValues(windows);
    expect(first).toBeCloseTo(Math.log(Math.sqrt(12 * 15) / 10), 12);
    expect(second).toBe(0);
  });

  it('needs two epochs with a complete pair', () => {
    expect(() => recordedRounds(windows.slice(0, 4))).toThrow(/at least two epochs/);
  });
});

describe('epochSource', () => {
  it('draws every recorded epoch once before any repeats in deck mode', () => {
    const next = epochSource([1, 2, 3, 4], mulberry32(3), 'deck');
    const draws = Array.from({ length: 8 }, next);
    expect([...draws.slice(0, 4)].sort()).toEqual([1, 2, 3, 4]);
    expect([...draws.slice(4)].sort()).toEqual([1, 2, 3, 4]);
  });

  it('repeats epochs within a replay when drawing with replacement', () => {
    const next = epochSource([1, 2, 3, 4], mulberry32(3));
    const draws = Array.from({ length: 40 }, next);
    expect(new Set(draws.slice(0, 4)).size).toBeLessThan(5);
    expect(new Set(draws)).toEqual(new Set([1, 2, 3, 4]));
  });
});

describe('runToVerdict', () => {
  it('stops at the first verdict, or reports inconclusive at the last look', () => {
    const slower = Math.log(4);
    expect(runToVerdict(() => slower, { maxEpochs: 10, minEpochs: 4 })).toEqual({ outcome: 'regression', epochs: 4 });
    let i = 0;
    // ±40% alternating: never decided within 6 epochs.
    expect(runToVerdict(() => (i++ % 2 === 0 ? 0.4 : -0.4), { maxEpochs: 6, minEpochs: 4 })).toEqual({ outcome: 'inconclusive', epochs: 6 });
  });
});

describe('summarizeReplays', () => {
  it('gives shares, time to verdict and machine time per comparison', () => {
    const rates = summarizeReplays(
      [
        { outcome: 'regression', epochs: 4 },
        { outcome: 'no change', epochs: 6 },
        { outcome: 'inconclusive', epochs: 10 },
        { outcome: 'no change', epochs: 8 },
      ],
      30,
      10,
    );
    expect(rates.shares).toEqual({ regression: 0.25, 'no change': 0.5, improvement: 0, inconclusive: 0.25 });
    expect(rates.epochsToVerdict).toEqual({ mean: 6, median: 6, p90: 8 });
    expect(rates.minutesToVerdict!.median).toBeCloseTo(3, 12);
    expect(rates.meanMinutesPerComparison).toBeCloseTo(((4 + 6 + 10 + 8) / 4) * 0.5, 12);
  });

  it('has no time to verdict when nothing was decided', () => {
    expect(summarizeReplays([{ outcome: 'inconclusive', epochs: 5 }], 30, 5).epochsToVerdict).toBeNull();
  });
});

describe('wilsonInterval', () => {
  it('matches the textbook value', () => {
    const [low, high] = wilsonInterval(50, 100);
    expect(low).toBeCloseTo(0.4038, 3);
    expect(high).toBeCloseTo(0.5962, 3);
  });
});

describe('evaluateProcedure', () => {
  const aa = recording(7, 40, 2, 0.03, 0.02);

  it('rarely calls an A/A recording a regression and mostly says no change', () => {
    const rates = evaluateProcedure(aa, {}, options);
    expect(rates.replays).toBe(1000);
    expect(rates.maxEpochs).toBe(maxEpochsFor(10, 40, 4));
    // At α = 5% the replays put false regressions near 5%, ±1.4 points (1000 replays): 10% is 3.5σ away.
    expect(rates.shares.regression).toBeLessThan(0.1);
    expect(rates.shares['no change']).toBeGreaterThan(0.6);
    expect(Object.values(rates.shares).reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12);
    expect(rates.epochsToVerdict!.median).toBeGreaterThanOrEqual(4);
  });

  it('calls a 4× synthetic slowdown a regression every time, at the first look', () => {
    const rates = evaluateProcedure(aa, {}, { ...options, shift: 3 });
    expect(rates.shares.regression).toBe(1);
    expect(rates.epochsToVerdict).toEqual({ mean: 4, median: 4, p90: 4 });
    expect(rates.minutesToVerdict!.median).toBeCloseTo((4 * 40) / 60, 12);
  });

  it('replays exactly the shift: the recording’s chance mean is removed unless asked to keep it', () => {
    const small = { ...options, replays: 10 };
    const centered = evaluateProcedure(aa, {}, { ...small, shift: 0.05 });
    expect(centered.replayedMeanLogRatio).toBeCloseTo(Math.log(1.05), 12);
    const kept = evaluateProcedure(aa, {}, { ...small, shift: 0.05, center: false });
    expect(kept.replayedMeanLogRatio).toBeCloseTo(kept.recordedMeanLogRatio + Math.log(1.05), 12);
    expect(kept.recordedMeanLogRatio).not.toBe(0);
  });

  it('is reproducible for a seed', () => {
    const small = { ...options, replays: 200, shift: 0.05 };
    expect(evaluateProcedure(aa, {}, small)).toEqual(evaluateProcedure(aa, {}, small));
  });

  it('rejects too few replays or a bad shift', () => {
    expect(() => evaluateProcedure(aa, {}, { ...options, replays: 0 })).toThrow(/replays/);
    expect(() => evaluateProcedure(aa, {}, { ...options, shift: -1 })).toThrow(/shift/);
    expect(() => evaluateProcedure(aa, {}, { ...options, epochDraw: 'pool' as never })).toThrow(/epochDraw/);
  });
});

describe('recordingNoise', () => {
  it('separates the round noise from the per-process offsets', () => {
    // A round's x has sd 0.07·√2 (one window of sd 0.07 per side); a pair's offset on x, 0.05·√2.
    const noise = recordingNoise(recording(9, 300, 4, 0.07, 0.05));
    expect(noise).toMatchObject({ epochs: 300, roundsPerEpoch: 4 });
    expect(noise.withinEpochSd).toBeGreaterThan(0.09);
    expect(noise.withinEpochSd).toBeLessThan(0.108);
    expect(noise.epochEffectSd).toBeGreaterThan(0.055);
    expect(noise.epochEffectSd).toBeLessThan(0.085);
  });

  it('finds no epoch effect where there is none', () => {
    expect(recordingNoise(recording(10, 300, 4, 0.07)).epochEffectSd).toBeLessThan(0.02);
  });

  it('makes one round per epoch best when a pair’s offset outweighs a round’s noise at equal cost', () => {
    expect(optimalRoundsPerEpoch({ withinEpochSd: 0.04, epochEffectSd: 0.045 }, 20, 14)).toBeCloseTo((0.04 / 0.045) * Math.sqrt(20 / 14), 12);
    expect(optimalRoundsPerEpoch({ withinEpochSd: 0.04, epochEffectSd: 0 }, 20, 14)).toBe(Infinity);
  });
});
