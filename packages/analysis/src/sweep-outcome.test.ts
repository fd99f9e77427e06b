import type { RunResult, StepRecord } from '@gwprof/results';
import { describe, expect, it } from 'vitest';
import { sweepOutcome } from './sweep-outcome.js';

const step = (concurrency: number, status: StepRecord['status'], failures: string[] = []) =>
  ({ load: { kind: 'closed', concurrency }, status, failures }) as unknown as StepRecord;
const run = (state: RunResult['state'], steps: StepRecord[], error: string | null = null) => ({ state, steps, error });

describe('sweepOutcome', () => {
  it('passes a complete run whose steps are ok or only unsteady, and says how many were unsteady', () => {
    expect(sweepOutcome(run('complete', [step(10, 'ok'), step(100, 'unsteady')]))).toEqual({
      verdict: 'ALL STEPS OK (1 unsteady)',
      passed: true,
      exitCode: 0,
      exitReasons: [],
    });
  });

  it('fails on a failed step with exit 1, naming the step and why', () => {
    const outcome = sweepOutcome(run('complete', [step(10, 'ok'), step(1000, 'failed', ['success rate 0.0% below 100%'])]));
    expect(outcome).toMatchObject({ verdict: '1 STEP FAILED', passed: false, exitCode: 1 });
    expect(outcome.exitReasons).toEqual(['1 of 2 steps FAILED (c=1000: success rate 0.0% below 100%)']);
  });

  it('gives a run that could not finish exit 2 with its error, and an interrupted one 130', () => {
    expect(sweepOutcome(run('failed', [], 'port 4001 in use'))).toEqual({
      verdict: 'NO STEPS COMPLETED (run failed)',
      passed: false,
      exitCode: 2,
      exitReasons: ['port 4001 in use'],
    });
    expect(sweepOutcome(run('interrupted', [step(10, 'ok')]))).toMatchObject({
      passed: false,
      exitCode: 130,
      exitReasons: ['interrupted: results.json keeps the 1 finished step(s)'],
    });
  });

  it('names the failure kinds, the first sample and the command that fixes a mismatch', () => {
    const failed = {
      ...step(10, 'failed', ['success rate 0.00% is below the required 100.00%']),
      failureCounts: { non2xx: 0, badBody: 0, graphqlErrors: 0, mismatch: 363, timeouts: 0, socketErrors: 0, protocolErrors: 0 },
      failureSamples: [{ kind: 'mismatch', message: 'data.topProducts[0].upc: expected "1166", got "2166"', count: 363 }],
    } as StepRecord;
    const outcome = sweepOutcome({ ...run('complete', [failed]), config: { scenarioFile: 'perf/scenario.yaml' } });
    expect(outcome.exitReasons).toEqual([
      '1 of 1 steps FAILED (c=10: success rate 0.00% is below the required 100.00% — mismatch ×363; first mismatch: data.topProducts[0].upc: expected "1166", got "2166")',
    ]);
    expect(outcome.fixes).toEqual(["if the gateway's answers are right, record the goldens again: gwprof goldens --scenario perf/scenario.yaml"]);
  });
});
