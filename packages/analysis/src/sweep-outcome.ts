/**
 * Whether a sweep passed, in one place: the overall verdict every page prints and the exit code
 * the CLI returns, from the run's state and its steps' statuses.
 */
import { loadLabel, type RequestSourceRecord, type RunOutcome, type RunResult } from '@gwprof/results';
import { exitCodeOf } from './exit-code.js';
import { failureDetail, sweepValidationFixes } from './failure-diagnosis.js';

export function sweepOutcome(run: Pick<RunResult, 'state' | 'error' | 'steps'> & { config?: Partial<RequestSourceRecord> }): RunOutcome {
  const failed = run.steps.filter((s) => s.status === 'failed');
  const unsteady = run.steps.filter((s) => s.status === 'unsteady').length;
  const suffix = `${unsteady > 0 ? ` (${unsteady} unsteady)` : ''}${run.state === 'complete' ? '' : ` (run ${run.state})`}`;
  const stepsText =
    run.steps.length === 0 ? 'NO STEPS COMPLETED' : failed.length === 0 ? 'ALL STEPS OK' : `${failed.length} ${failed.length === 1 ? 'STEP' : 'STEPS'} FAILED`;
  const verdict = `${stepsText}${suffix}`;
  // A harness failure leaves nothing to judge; otherwise the steps decide.
  const exitCode = exitCodeOf(run.state, run.state === 'failed' ? null : failed.length > 0 ? 'failed' : 'passed');
  if (run.state === 'interrupted')
    return { verdict, passed: false, exitCode, exitReasons: [`interrupted: results.json keeps the ${run.steps.length} finished step(s)`] };
  if (run.state === 'failed') return { verdict, passed: false, exitCode, exitReasons: [run.error ?? 'sweep failed'] };
  if (failed.length > 0) {
    const failures = failed.map((s) => {
      const detail = failureDetail(s);
      return `${loadLabel(s.load)}: ${s.failures.join('; ')}${detail ? ` — ${detail}` : ''}`;
    });
    const fixes = sweepValidationFixes(failed, run.config);
    const exitReasons = [`${failed.length} of ${run.steps.length} steps FAILED (${failures.join('; ')})`];
    return { verdict, passed: false, exitCode, exitReasons, ...(fixes.length > 0 ? { fixes } : {}) };
  }
  return { verdict, passed: run.steps.length > 0 && run.state === 'complete', exitCode, exitReasons: [] };
}
