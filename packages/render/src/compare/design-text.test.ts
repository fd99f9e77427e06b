import { describe, expect, it } from 'vitest';
import type { PublishedCompare } from '@gwprof/results';
import { designText } from './compare-rows.js';

/** A comparison by instructions, reduced to what its design text reads. */
function counted(node: boolean): PublishedCompare {
  const side = { pid: 1, node, startup: { prepareMs: 0, listenMs: 0, readyMs: 0 }, warmupSec: 1, warmupFailures: 0 };
  return {
    config: {
      design: {
        measure: 'instructions',
        alpha: 0.05,
        minEpochs: 4,
        threshold: 0.01,
        budgetMinutes: 10,
        instructions: {
          valgrindArgs: ['--tool=callgrind'],
          warmupRequests: 200,
          batchRequests: 30,
          batchesPerEpoch: 1,
          v8Flags: ['--no-opt'],
          minEpochSd: 0.001,
        },
      },
    },
    plan: { maxEpochs: 40 },
    instructionEpochs: [{ epoch: 1, startedAt: '', finishedAt: '', sides: { baseline: side, candidate: side } }],
  } as unknown as PublishedCompare;
}

describe('the design of a comparison by instructions', () => {
  it('tells of V8 flags and the GC before each batch when a side is Node', () => {
    expect(designText(counted(true))!.measurement).toMatch(/each Node side's after a full GC; V8 flags on Node sides: --no-opt$/);
  });

  it('says nothing of V8 or a GC for two native gateways, which get neither', () => {
    const text = designText(counted(false))!.measurement;
    expect(text).toMatch(/counts 1 batch of the scenario's first 30 requests per side$/);
    expect(text).not.toMatch(/V8|GC/);
  });
});

describe('the plan of looks and the budget in the design of a comparison by instructions', () => {
  const text = (changes: Partial<PublishedCompare>) => designText({ ...counted(true), ...changes } as PublishedCompare)!.test;

  it('says no look was reached, not an unknown number, when the run stopped before its plan was fixed', () => {
    const test = text({ plan: null });
    expect(test).toMatch(/no look reached: the run stopped before its plan of looks was fixed/);
    expect(test).not.toMatch(/\?/);
  });

  it("says the plan followed the epochs' pace when it was re-fixed before every look", () => {
    expect(text({ plan: { maxEpochs: 3, epochSeconds: 195, fixedAfterEpoch: 3, lastLooks: [3] } })).toMatch(
      /up to 3 epochs, re-planned from the epochs' pace after each\), first look after 4 epochs/,
    );
  });

  it('says when the budget could not fit the epochs a verdict needs, and the --budget that would', () => {
    const budgetFit = { afterEpoch: 1, epochsThatFit: 2, epochsNeeded: 3, epochSeconds: 216, budgetMinutesNeeded: 12 };
    expect(text({ budgetFit })).toMatch(/budget 10 min; the budget fit 2 of the 3 epochs a verdict needs at 3\.6 min an epoch: --budget 12 would fit them$/);
    expect(text({ budgetFit: { ...budgetFit, epochsThatFit: 4, budgetMinutesNeeded: null } })).toMatch(/budget 10 min$/);
  });
});
