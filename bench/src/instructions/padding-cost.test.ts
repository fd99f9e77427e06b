import { describe, expect, it } from 'vitest';
import { paddedByteCost, sidesPadding, type PaddingCost } from './padding-cost.js';

const dose = (bytes: number, extra: number, date = '2026-11-28T14:00:00Z'): PaddingCost => ({
  kind: 'padding',
  date,
  gateway: 'grafbase',
  bytes,
  baselinePerRequest: 1e6,
  candidatePerRequest: 1e6 + extra,
  instructionsPerPaddedByte: extra / bytes,
  exitCode: 1,
});

describe('paddedByteCost', () => {
  it("takes the slope between the latest day's two largest doses, so that what padding costs at all falls out", () => {
    // 3,000 instructions once an answer is padded at all, 37 a byte after that.
    const cost = paddedByteCost([
      dose(20_000, 3000 + 37 * 20_000, '2026-11-27T10:00:00Z'),
      dose(2000, 3000 + 37 * 2000),
      dose(20_000, 3000 + 37 * 20_000),
      dose(200_000, 3000 + 37 * 200_000),
    ]);
    expect(cost?.instructionsPerPaddedByte).toBeCloseTo(37, 9);
    expect(cost?.doses.map((d) => d.bytes)).toEqual([20_000, 200_000]);
    expect(paddedByteCost([dose(2000, 80_000)])).toBeNull();
  });

  it("pads both sides' subgraph answers by the base and the candidate's by the planted bytes more", () => {
    expect(sidesPadding(2000, 268)).toBe('4001=2000,4002=2000,4003=2000,4004=2000,4011=2268,4012=2268,4013=2268,4014=2268');
  });
});
