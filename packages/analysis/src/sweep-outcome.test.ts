import type { RunResult, StepRecord } from '@gwprof/results';
import { describe, expect, it } from 'vitest';
import { sweepOutcome } from './sweep-outcome.js';

const step = (concurrency: number, status: StepRecord['status'], failures: string[] = []) =>
  ({ load: { kind: 'closed', concurrency }, status, failures }) as unknown as StepRecord;
const run = (state: RunResult['state'], steps: StepRecord[], error: string | null = null) => ({ state, steps, error });

describe('sweepOutcome', () => {
  it('passes a complete run whose steps are ok or only unsteady, and says how many were unsteady', () => {
    expect(sweepOutcome(run('complete', [step(10, 'ok'), step(100, 'unsteady')]))).toEqual({
      text: 'ALL STEPS OK (1 unsteady)',
      ok: true,
      exitCode: 0,
      reasons: [],
    });
  });

  it('fails on a failed step with exit 1, naming the step and why', () => {
    const outcome = sweepOutcome(run('complete', [step(10, 'ok'), step(1000, 'failed', ['success rate 0.0% below 100%'])]));
    expect(outcome).toMatchObject({ text: '1 STEP FAILED', ok: false, exitCode: 1 });
    expect(outcome.reasons).toEqual(['1 of 2 steps FAILED (c=1000: success rate 0.0% below 100%)']);
  });

  it('gives a run that could not finish exit 2 with its error, and an interrupted one 130', () => {
    expect(sweepOutcome(run('failed', [], 'port 4001 in use'))).toEqual({
      text: 'NO STEPS COMPLETED (run failed)',
      ok: false,
      exitCode: 2,
      reasons: ['port 4001 in use'],
    });
    expect(sweepOutcome(run('interrupted', [step(10, 'ok')]))).toMatchObject({
      ok: false,
      exitCode: 130,
      reasons: ['interrupted: results.json keeps the 1 finished step(s)'],
    });
  });
});
