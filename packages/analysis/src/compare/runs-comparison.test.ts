import type { CompareResult, RunResult, StepRecord } from '@gwprof/results';
import { describe, expect, it } from 'vitest';
import { analyzeRunsComparison } from './runs-comparison.js';
import { metricStep } from '../testing/steps.js';

const step = (id: string, level: number, cpuMs: number, status: StepRecord['status'] = 'ok') => metricStep(level, cpuMs, status, id);

const run = (steps: StepRecord[], bucketMs: Record<string, number>) =>
  ({ steps, analysis: { steps: steps.map((s) => ({ stepId: s.id, bucketMsPerOkRequest: bucketMs, allocation: null })) } }) as unknown as RunResult;
const config = { config: { levels: [10], load: { kind: 'closed' } } } as unknown as Pick<CompareResult, 'config'>;

describe('analyzeRunsComparison', () => {
  it('gives deltas without intervals for two finished runs, and no verdict but deltas only', () => {
    const analysis = analyzeRunsComparison(config, run([step('10', 10, 4)], { plan: 1, execute: 2 }), run([step('10', 10, 5)], { plan: 1, execute: 3 }));
    expect(analysis).toMatchObject({ verdict: 'deltas only', exitCode: 0 });
    const level = analysis.levels[0]!;
    expect(level.decision).toBeNull();
    expect(level.buckets[0]).toMatchObject({ bucket: 'execute', deltaMsPerOkRequest: 1, noise: null });
    expect(level.gating.candidate.geometricMean! / level.gating.baseline.geometricMean!).toBeCloseTo(1.25, 9);
  });

  it('is invalid, exit 4, when a compared step failed on either side', () => {
    const analysis = analyzeRunsComparison(config, run([step('10', 10, 4)], {}), run([step('10', 10, 5, 'failed')], {}));
    expect(analysis.verdict).toBe('invalid');
    expect(analysis.exitCode).toBe(4);
    expect(analysis.verdictReasons[0]).toMatch(/a step at c=10 failed: success rate 90\.00%/);
  });
});
