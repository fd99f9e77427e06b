/** A soak's exit code, from its state and its verdict, with what the CLI prints beside it. */
import type { SoakAnalysis, SoakResult } from '@gwprof/results';
import { exitCodeOf, type Finding } from '../exit-code.js';

export function soakOutcome(
  soak: Pick<SoakResult, 'state' | 'error' | 'crash' | 'intervals'>,
  verdict: SoakAnalysis['verdict'] | null,
): { exitCode: number; exitReasons: string[] } {
  // A crashed gateway is the soak's finding; any other failure is the harness's, with nothing to judge.
  const finding: Finding | null = soak.state === 'failed' && !soak.crash ? null : soakFinding(verdict);
  const exitCode = exitCodeOf(soak.state, finding);
  if (soak.state === 'interrupted') return { exitCode, exitReasons: [`interrupted: results.json keeps the ${soak.intervals.length} finished interval(s)`] };
  if (finding === null) return { exitCode, exitReasons: [`gwprof: ${soak.error ?? 'soak failed'}`] };
  return { exitCode, exitReasons: [] };
}

function soakFinding(verdict: SoakAnalysis['verdict'] | null): Finding {
  if (verdict === 'no leak') return 'passed';
  if (verdict === 'leak' || verdict === 'crash') return 'failed';
  return 'inconclusive';
}
