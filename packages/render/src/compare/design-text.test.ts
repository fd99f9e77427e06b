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
