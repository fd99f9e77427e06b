import { describe, expect, it } from 'vitest';
import { mulberry32, type BlockObservation } from '@gwprof/analysis';
import {
  evaluateProcedure,
  recordedEpochs,
  recordingNoise,
  replaySource,
  runToVerdict,
  summarizeReplays,
  wilsonInterval,
  type RecordedWindow,
} from './procedure-evaluation.js';

/** The design these tests are written for: no look before 12 blocks, the rest as the defaults. */
const DESIGN = { minBlocks: 12 };

function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/**
 * A synthetic A/A recording: ABBA blocks of lognormal windows (log sd `sd`) around 10 ms, with a
 * lasting log offset of sd `processSd` per process, restarted every `blocksPerEpoch` blocks.
 */
function recording(seed: number, epochs: number, blocksPerEpoch: number, sd: number, processSd = 0): RecordedWindow[] {
  const random = mulberry32(seed);
  const windows: RecordedWindow[] = [];
  for (let epoch = 0; epoch < epochs; epoch++) {
    const offset = { baseline: processSd * gaussian(random), candidate: processSd * gaussian(random) };
    for (let block = 0; block < blocksPerEpoch; block++) {
      for (const side of ['baseline', 'candidate', 'candidate', 'baseline'] as const) {
        windows.push({ epoch, block, side, value: 10 * Math.exp(offset[side] + sd * gaussian(random)) });
      }
    }
  }
  return windows;
}

const options = { replays: 1000, seed: 11, blocksPerEpoch: 6, secondsPerBlock: 25, budgetBlocks: 48 };

describe('mulberry32', () => {
  it('is deterministic per seed and uniform on [0, 1)', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const draws = Array.from({ length: 10_000 }, () => a());
    expect(draws.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => b()));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    expect(draws.reduce((s, v) => s + v, 0) / draws.length).toBeCloseTo(0.5, 1);
  });
});

describe('recordedEpochs', () => {
  it('turns each block into the log ratio of its sides', () => {
    const windows = recording(1, 3, 4, 0.1);
    const epochs = recordedEpochs(windows);
    expect(epochs.map((e) => e.length)).toEqual([4, 4, 4]);
    const first = windows.slice(0, 4);
    const logOf = (side: string) => first.filter((w) => w.side === side).reduce((s, w) => s + Math.log(w.value), 0) / 2;
    expect(epochs[0]![0]).toBeCloseTo(logOf('candidate') - logOf('baseline'), 12);
  });

  it('drops blocks that miss a side and needs two epochs', () => {
    const windows: RecordedWindow[] = [
      { epoch: 0, block: 0, side: 'baseline', value: 10 },
      { epoch: 0, block: 0, side: 'candidate', value: 11 },
      { epoch: 0, block: 1, side: 'baseline', value: 10 },
      { epoch: 1, block: 0, side: 'candidate', value: 10 },
    ];
    expect(() => recordedEpochs(windows)).toThrow(/at least two epochs/);
    const epochs = recordedEpochs([...windows, { epoch: 1, block: 0, side: 'baseline', value: 10 }]);
    expect(epochs).toHaveLength(2);
    expect(epochs[0]).toHaveLength(1);
    expect(epochs[0]![0]).toBeCloseTo(Math.log(1.1), 12);
  });
});

describe('replaySource', () => {
  it('keeps each replayed epoch inside one recorded epoch', () => {
    // Every block of recorded epoch i has x = i, so a replayed epoch must be constant.
    const epochs = [0, 1, 2, 3, 4].map((i) => Array.from({ length: 6 }, () => i));
    const next = replaySource(epochs, 4, mulberry32(3));
    const drawn = Array.from({ length: 400 }, () => next());
    const byEpoch = new Map<number, Set<number>>();
    for (const b of drawn) byEpoch.set(b.epoch, (byEpoch.get(b.epoch) ?? new Set()).add(b.x));
    expect(byEpoch.size).toBe(100);
    for (const values of byEpoch.values()) expect(values.size).toBe(1);
    expect(new Set(drawn.map((b) => b.x)).size).toBe(5);
  });

  it('draws every recorded epoch once before any repeats in deck mode', () => {
    const epochs = [0, 1, 2, 3, 4].map((i) => [i, i, i]);
    const next = replaySource(epochs, 3, mulberry32(5), 'deck');
    for (let round = 0; round < 10; round++) {
      const epochsOfRound = Array.from({ length: 5 }, () => [next().x, next().x, next().x][0]!);
      expect(epochsOfRound.sort()).toEqual([0, 1, 2, 3, 4]);
    }
  });

  it('repeats epochs within a replay when drawing with replacement', () => {
    // Five epochs drawn five times with replacement hold a repeat with probability 1 − 5!/5⁵ ≈ 96%.
    const epochs = [0, 1, 2, 3, 4].map((i) => [i]);
    const next = replaySource(epochs, 1, mulberry32(6));
    const rounds = Array.from({ length: 50 }, () => new Set(Array.from({ length: 5 }, () => next().x)).size);
    expect(rounds.filter((distinct) => distinct < 5).length).toBeGreaterThan(35);
  });

  it('takes an epoch’s blocks without replacement while it has enough', () => {
    const next = replaySource([[1, 2, 3], [1, 2, 3]], 3, mulberry32(4));
    for (let epoch = 0; epoch < 20; epoch++) {
      expect([next().x, next().x, next().x].sort()).toEqual([1, 2, 3]);
    }
  });
});

describe('runToVerdict', () => {
  it('stops at the first verdict, or reports inconclusive at the budget', () => {
    let i = 0;
    const slow = (): BlockObservation => ({ epoch: Math.floor(i++ / 6), x: Math.log(4) + (i % 2 ? 0.01 : -0.01) });
    expect(runToVerdict(slow, DESIGN, 48)).toEqual({ outcome: 'regression', blocks: 12 });
    let j = 0;
    const halfway = (): BlockObservation => ({ epoch: Math.floor(j++ / 6), x: Math.log1p(0.05) / 2 + (j % 2 ? 0.1 : -0.1) });
    expect(runToVerdict(halfway, DESIGN, 30)).toEqual({ outcome: 'inconclusive', blocks: 30 });
  });
});

describe('summarizeReplays', () => {
  it('gives shares, time to verdict and machine time per comparison', () => {
    const rates = summarizeReplays(
      [
        { outcome: 'no change', blocks: 12 },
        { outcome: 'no change', blocks: 20 },
        { outcome: 'regression', blocks: 16 },
        { outcome: 'inconclusive', blocks: 48 },
      ],
      30,
      48,
    );
    expect(rates.shares).toEqual({ regression: 0.25, 'no change': 0.5, improvement: 0, inconclusive: 0.25 });
    expect(rates.blocksToVerdict).toEqual({ mean: 16, median: 16, p90: 20 });
    expect(rates.minutesToVerdict).toEqual({ mean: 8, median: 8, p90: 10 });
    expect(rates.meanMinutesPerComparison).toBeCloseTo(((12 + 20 + 16 + 48) / 4) * 0.5, 12);
    expect(rates.shareIntervals['improvement']![0]).toBe(0);
  });

  it('has no time to verdict when nothing was decided', () => {
    const rates = summarizeReplays([{ outcome: 'inconclusive', blocks: 10 }], 25, 10);
    expect(rates.blocksToVerdict).toBeNull();
    expect(rates.minutesToVerdict).toBeNull();
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
  const aa = recording(7, 30, 6, 0.07);

  it('rarely calls an A/A recording a regression and mostly says no change', () => {
    const rates = evaluateProcedure(aa, DESIGN, options);
    expect(rates.replays).toBe(1000);
    // The simulation puts false regressions near 4% here; 1000 replays give about ±1.3 points.
    expect(rates.shares.regression).toBeLessThan(0.1);
    expect(rates.shares['no change']).toBeGreaterThan(0.6);
    expect(Object.values(rates.shares).reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12);
    expect(rates.blocksToVerdict!.median).toBeGreaterThanOrEqual(12);
  });

  it('calls a 4× synthetic slowdown a regression every time, at the first allowed look', () => {
    const rates = evaluateProcedure(aa, DESIGN, { ...options, shift: 3 });
    expect(rates.shares.regression).toBe(1);
    expect(rates.blocksToVerdict).toEqual({ mean: 12, median: 12, p90: 12 });
    expect(rates.minutesToVerdict!.median).toBeCloseTo(5, 12);
  });

  it('replays exactly the shift: the recording’s chance mean is removed unless asked to keep it', () => {
    const small = { ...options, replays: 10 };
    const centered = evaluateProcedure(aa, DESIGN, { ...small, shift: 0.05 });
    expect(centered.replayedMeanLogRatio).toBeCloseTo(Math.log(1.05), 12);
    const kept = evaluateProcedure(aa, DESIGN, { ...small, shift: 0.05, center: false });
    expect(kept.replayedMeanLogRatio).toBeCloseTo(kept.recordedMeanLogRatio + Math.log(1.05), 12);
    expect(kept.recordedMeanLogRatio).not.toBe(0);
  });

  it('is reproducible for a seed', () => {
    const small = { ...options, replays: 200, shift: 0.05 };
    expect(evaluateProcedure(aa, DESIGN, small)).toEqual(evaluateProcedure(aa, DESIGN, small));
  });

  it('rejects too few replays or a bad shift', () => {
    expect(() => evaluateProcedure(aa, DESIGN, { ...options, replays: 0 })).toThrow(/replays/);
    expect(() => evaluateProcedure(aa, DESIGN, { ...options, shift: -1 })).toThrow(/shift/);
    expect(() => evaluateProcedure(aa, DESIGN, { ...options, epochDraw: 'pool' as never })).toThrow(/epochDraw/);
  });
});

describe('recordingNoise', () => {
  it('separates the block noise from the per-process offsets', () => {
    const noise = recordingNoise(recording(9, 200, 6, 0.07, 0.05));
    // x has sd 0.07 within an epoch (four windows of sd 0.07, two per side) and an epoch offset of sd 0.05·√2.
    expect(noise).toMatchObject({ blocks: 1200, epochs: 200 });
    expect(noise.withinEpochSd).toBeGreaterThan(0.063);
    expect(noise.withinEpochSd).toBeLessThan(0.077);
    expect(noise.epochEffectSd).toBeGreaterThan(0.055);
    expect(noise.epochEffectSd).toBeLessThan(0.085);
    expect(noise.intraEpochCorrelation).toBeGreaterThan(0.3);
  });

  it('finds no epoch effect where there is none', () => {
    const noise = recordingNoise(recording(10, 200, 6, 0.07));
    expect(noise.epochEffectSd).toBeLessThan(0.02);
  });
});
