import { describe, expect, it } from 'vitest';
import { budgetFit, epochsNeeded, epochsThatFit, plannedLastLook } from './epoch-budget.js';
import { studentTQuantile } from './student-t.js';

const COUNTS = { threshold: 0.01, alpha: 0.05 };

describe('epochsNeeded', () => {
  it("needs the t-test's fewest, 3, at the counts' noise: the sd floor 0.1% and Mesh's worst 0.3% alike", () => {
    expect(epochsNeeded({ ...COUNTS, noiseSd: 0.001 })).toBe(3);
    expect(epochsNeeded({ ...COUNTS, noiseSd: 0.003 })).toBe(3);
  });

  it("needs more where an epoch scatters more: Apollo Gateway's 0.49% takes 5 at ±1%", () => {
    expect(epochsNeeded({ ...COUNTS, noiseSd: 0.0049 })).toBe(5);
    expect(epochsNeeded({ ...COUNTS, noiseSd: 0.02 })).toBeGreaterThan(20);
  });

  it('is the smallest n whose A/A interval, with two standard errors of room for its mean, lies within the threshold', () => {
    for (const noiseSd of [0.004, 0.006, 0.01]) {
      const n = epochsNeeded({ ...COUNTS, noiseSd });
      const reach = (k: number) => ((studentTQuantile(0.95, k - 1) + 2) * noiseSd) / Math.sqrt(k);
      expect(reach(n)).toBeLessThanOrEqual(0.01);
      expect(reach(n - 1)).toBeGreaterThan(0.01);
    }
  });

  it('refuses a noise or threshold it cannot work with', () => {
    expect(() => epochsNeeded({ ...COUNTS, noiseSd: 0 })).toThrow(/must be > 0/);
  });
});

describe('the budget against the epochs needed', () => {
  // The slow evening of issue 54: epochs of 3.3 minutes, the first with its builds 3.6.
  const slow = { budgetMinutes: 10, elapsedSeconds: 216, epochs: 1, epochSeconds: 216 };

  it('fits the epochs done and those that fit in what is left at the pace', () => {
    expect(epochsThatFit(slow)).toBe(2);
    expect(epochsThatFit({ budgetMinutes: 10, elapsedSeconds: 400, epochs: 2, epochSeconds: 195 })).toBe(3);
    expect(epochsThatFit({ budgetMinutes: 10, elapsedSeconds: 700, epochs: 3, epochSeconds: 195 })).toBe(3);
    expect(epochsThatFit({ budgetMinutes: 10, elapsedSeconds: 0, epochs: 0, epochSeconds: Infinity })).toBe(0);
  });

  it('says the budget falls short, and the whole --budget that would fit the epochs needed with a tenth to spare', () => {
    expect(budgetFit(slow, 3)).toEqual({ afterEpoch: 1, epochsThatFit: 2, epochsNeeded: 3, epochSeconds: 216, budgetMinutesNeeded: 12 });
    expect(budgetFit({ ...slow, budgetMinutes: 12 }, 3).budgetMinutesNeeded).toBeNull();
  });

  it('plans the last look at every epoch that fits, never before the first look', () => {
    expect(plannedLastLook({ budgetMinutes: 10, elapsedSeconds: 260, epochs: 2, epochSeconds: 130 }, 3)).toBe(4);
    expect(plannedLastLook({ budgetMinutes: 10, elapsedSeconds: 580, epochs: 3, epochSeconds: 130 }, 3)).toBe(3);
    expect(plannedLastLook(slow, 3)).toBe(3);
  });
});
