import { describe, expect, it } from 'vitest';
import type { InstructionBatch } from '@gwprof/results';
import { instructionBatch } from '../testing/instruction-batch.js';
import { allocationCallCount } from './allocation-calls.js';
import { allocationVerdict, exitCodeWithAllocations } from './allocation-verdict.js';

const design = { threshold: 0.01, alpha: 0.05, minEpochs: 3, maxEpochs: 10, spendingPower: 1, minEpochSd: 0.001 };
const OK = 30;

/**
 * A batch's dump as callgrind files it: a gateway's own 888 allocations a request (Grafbase's figure)
 * through jemalloc from two functions, a timer's one allocation landing in some batches and not
 * others, and `planted` more a request from gwprof_planted_allocations into the C library's malloc
 * (fixtures/native-work's preload).
 */
function dump(planted: number, timer: number): string {
  return `events: Ir
fn=(1) engine::plan::build
cfn=(2) _rjem_malloc
calls=${600 * OK} 0
0 60000
fn=(3) engine::response::serialize
cfn=(2)
calls=${288 * OK + timer} 0
0 20000
fn=(4) gwprof_planted_allocations
cfn=(5) malloc
calls=${planted * OK} 0
0 ${planted * 100 + 1}
`;
}

function batch(epoch: number, side: InstructionBatch['side'], planted: number, timer: number): InstructionBatch {
  const { calls, byCaller } = allocationCallCount(dump(planted, timer));
  return { ...instructionBatch(epoch, side, 1e6, OK), allocationCalls: calls, allocationCallers: byCaller };
}

function epochs(baselinePlanted: number, candidatePlanted: number): InstructionBatch[] {
  return [1, 2, 3].flatMap((e) => [batch(e, 'baseline', baselinePlanted, e % 2), batch(e, 'candidate', candidatePlanted, (e + 1) % 2)]);
}

describe('allocationVerdict', () => {
  it('reads a planted 5% more allocations per request within 5% of itself, a regression, and names where they were made', () => {
    // 44.4 allocations a request on 888: 5%.
    const verdict = allocationVerdict(epochs(0, 44.4), design)!;
    expect(verdict.kind).toBe('allocator calls');
    expect(verdict.decision.outcome).toBe('regression');
    const read = verdict.metric.candidate.geometricMean - verdict.metric.baseline.geometricMean;
    expect(Math.abs(read / 44.4 - 1)).toBeLessThan(0.05);
    expect(Math.abs(verdict.decision.relativeChange / 0.05 - 1)).toBeLessThan(0.05);
    expect(verdict.functions[0]).toMatchObject({ functionName: 'gwprof_planted_allocations', baselinePerOkRequest: 0 });
    expect(verdict.functions[0]!.deltaPerOkRequest).toBeCloseTo(44.4, 1);
    // The timer's allocation moved by a thirtieth of one a request: listed below the planted function, not above it.
    expect(verdict.functions.map((f) => f.functionName)).not.toContain('engine::plan::build');
    expect(exitCodeWithAllocations(0, verdict)).toBe(1);
  });

  it('says no change for the same allocations with a timer landing in one batch or the next, and leaves the exit code alone', () => {
    const verdict = allocationVerdict(epochs(5, 5), design)!;
    expect(verdict.decision.outcome).toBe('no change');
    expect(exitCodeWithAllocations(0, verdict)).toBe(0);
    expect(exitCodeWithAllocations(4, verdict)).toBe(4);
  });

  it('counts V8 bytes for Node sides, and gives no verdict when the sides count different things', () => {
    const node = (epoch: number, side: InstructionBatch['side'], bytes: number): InstructionBatch => ({
      ...instructionBatch(epoch, side, 1e6, OK),
      allocationCalls: null,
      allocatedBytes: bytes * OK,
    });
    const batches = [1, 2, 3].flatMap((e) => [node(e, 'baseline', 100_000 * (1 + e * 1e-4)), node(e, 'candidate', 110_000)]);
    const verdict = allocationVerdict(batches, design)!;
    expect(verdict).toMatchObject({ kind: 'V8 bytes', unit: 'bytes/req', functions: [] });
    expect(verdict.decision.outcome).toBe('regression');
    expect(verdict.decision.relativeChange).toBeCloseTo(0.1, 2);
    const mixed = [1, 2, 3].flatMap((e) => [node(e, 'baseline', 100_000), batch(e, 'candidate', 0, 0)]);
    expect(allocationVerdict(mixed, design)).toBeNull();
  });
});
