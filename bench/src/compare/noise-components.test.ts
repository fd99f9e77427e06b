import { describe, expect, it } from 'vitest';
import { mulberry32 } from '@gwprof/analysis';
import type { SlimEpoch, SlimWindow } from './driver.js';
import { epochPace, gcCorrelation } from './noise-components.js';

/** Windows of 4 epochs × 2 sides × 4 windows, CPU per request = base + gcWeight × GC per request + noise. */
function windows(gcWeight: number, seed: number): SlimWindow[] {
  const random = mulberry32(seed);
  const out: SlimWindow[] = [];
  for (let epoch = 1; epoch <= 4; epoch++) {
    for (const side of ['baseline', 'candidate'] as const) {
      for (let position = 0; position < 4; position++) {
        const gcPerRequest = 1 + random();
        const value = 6 + epoch * 0.3 + gcWeight * gcPerRequest + 0.05 * random();
        out.push({ epoch, block: epoch, position, side, level: 20, value, ok: 600, rps: 120, gcMs: gcPerRequest * 600, majorGcMs: null });
      }
    }
  }
  return out;
}

describe('gcCorrelation', () => {
  it("sees window CPU that follows GC, and none when it does not, whatever each epoch's level", () => {
    expect(gcCorrelation(windows(1, 1))!).toBeGreaterThan(0.9);
    expect(Math.abs(gcCorrelation(windows(0, 2))!)).toBeLessThan(0.5);
  });

  it('says nothing without GC figures', () => {
    expect(gcCorrelation(windows(1, 3).map((w) => ({ ...w, gcMs: null })))).toBeNull();
  });
});

describe('epochPace', () => {
  // Stop 0.5 s; each side listens in 1.5 s, answers in 0.1 s and warms for 10 s (baseline) or 12 s (candidate);
  // the epoch takes 60 s with 2 rounds.
  const side = (warmupSec: number) => ({ order: 1, prepareMs: 0, listenMs: 1500, readyMs: 100, warmupSec, warmupSteady: true });
  const epoch = (warmedTogether: boolean): SlimEpoch => ({
    epoch: 1,
    seed: null,
    warmedTogether,
    seconds: 60,
    stopMs: 500,
    sides: { baseline: side(10), candidate: side(12) },
  });
  const rounds = windows(0, 4).filter((w) => w.epoch === 1 && w.position < 2);

  it('adds up the sides started one after the other', () => {
    const pace = epochPace([epoch(false)], rounds)!;
    expect(pace.pairSeconds).toBeCloseTo(0.5 + 11.6 + 13.6, 9);
    expect(pace.roundSeconds).toBeCloseTo((60 - 25.7) / 2, 9);
  });

  it('counts sides started together once, at the slower of the two', () => {
    expect(epochPace([epoch(true)], rounds)!.pairSeconds).toBeCloseTo(0.5 + 13.6, 9);
  });
});
