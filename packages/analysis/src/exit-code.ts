/**
 * The one map from how a run ended and what it found to the process's exit code, for every command
 * (EXIT in results names the codes). An interrupted run exits 130 whatever it found before; a run
 * that found nothing to judge (bad input, a harness error, a comparison that did not reach its end)
 * exits 2; otherwise its finding decides.
 */
import { EXIT, type ExitCode } from '@gwprof/results';

/** What a finished measurement found, in the terms every command shares. */
export type Finding = 'passed' | 'failed' | 'inconclusive' | 'invalid';

const FINDING_EXIT: Record<Finding, ExitCode> = {
  passed: EXIT.ok,
  failed: EXIT.failed,
  inconclusive: EXIT.inconclusive,
  invalid: EXIT.invalid,
};

export function exitCodeOf(state: 'running' | 'complete' | 'interrupted' | 'failed', finding: Finding | null): ExitCode {
  if (state === 'interrupted') return EXIT.interrupted;
  if (finding === null) return EXIT.error;
  return FINDING_EXIT[finding];
}
