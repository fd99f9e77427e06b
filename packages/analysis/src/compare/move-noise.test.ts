import { randomFillSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { epochPairs, moveNoise } from './move-noise.js';

function normal(): number {
  const [u, v] = randomFillSync(new Uint32Array(2));
  return Math.sqrt(-2 * Math.log((u! + 0.5) / 2 ** 32)) * Math.cos((2 * Math.PI * (v! + 0.5)) / 2 ** 32);
}

describe('moveNoise', () => {
  it('calls a move far beyond the epochs’ scatter moved, and one inside it not', () => {
    const moved = moveNoise(
      [1, 2, 3, 4, 5].map((i) => ({ baseline: 1 + 0.01 * i, candidate: 2 + 0.01 * i })),
      10,
    );
    expect(moved).toMatchObject({ moved: true, familySize: 10, familyConfidence: 0.95 });
    expect(moved!.interval[0]).toBeCloseTo(1, 9);
    const still = moveNoise(
      [0.1, -0.1, 0.1, -0.1].map((d) => ({ baseline: 1, candidate: 1 + d })),
      10,
    );
    expect(still!.moved).toBe(false);
    expect(moveNoise([{ baseline: 1, candidate: 2 }], 10)).toBeNull();
  });

  it('widens each interval with the size of the family', () => {
    const epochs = [0.9, 1.1, 1.0, 1.2, 0.8].map((d) => ({ baseline: 0, candidate: d }));
    const one = moveNoise(epochs, 1)!;
    const many = moveNoise(epochs, 1000)!;
    expect(many.interval[1] - many.interval[0]).toBeGreaterThan(3 * (one.interval[1] - one.interval[0]));
    expect(many.confidence).toBeCloseTo(1 - 0.05 / 1000, 12);
  });

  it('shows nothing as moved in nearly every A/A run, however many items it tests', () => {
    // 2,000 A/A runs of 6 epochs and 20 items: at a family confidence of 95%, any moved item in at most 5% of runs.
    // 2,000 runs put that share within ±1 point (σ): 8% is 3σ above 5%.
    let runsWithAMove = 0;
    for (let run = 0; run < 2000; run++) {
      let any = false;
      for (let item = 0; item < 20; item++) {
        const epochs = Array.from({ length: 6 }, () => ({ baseline: 1 + 0.1 * normal(), candidate: 1 + 0.1 * normal() }));
        if (moveNoise(epochs, 20)!.moved) any = true;
      }
      if (any) runsWithAMove++;
    }
    expect(runsWithAMove / 2000).toBeLessThan(0.08);
  });
});

describe('epochPairs', () => {
  it('adds up each side’s cost and requests within an epoch, and keeps only epochs with both sides', () => {
    const cost = (epoch: number, side: 'baseline' | 'candidate', okRequests: number, ms: number) => ({
      epoch,
      side,
      okRequests,
      amountByItem: new Map([['gc', ms]]),
    });
    const pairs = epochPairs([cost(1, 'baseline', 100, 50), cost(1, 'baseline', 100, 70), cost(1, 'candidate', 50, 40), cost(2, 'baseline', 10, 1)], 'gc');
    expect(pairs).toEqual([{ baseline: 0.6, candidate: 0.8 }]);
  });
});
