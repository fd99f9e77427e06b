/** A soak's exit code, from its state and its verdict, with what the CLI prints beside it. */
import { EXIT, type SoakAnalysis, type SoakResult } from '@gwprof/results';

export function soakOutcome(
  soak: Pick<SoakResult, 'state' | 'error' | 'crash' | 'intervals'>,
  verdict: SoakAnalysis['verdict'] | null,
): { exitCode: number; exitReasons: string[] } {
  if (soak.state === 'interrupted')
    return { exitCode: EXIT.interrupted, exitReasons: [`interrupted: results.json keeps the ${soak.intervals.length} finished interval(s)`] };
  if (soak.state === 'failed' && !soak.crash) return { exitCode: EXIT.error, exitReasons: [`gwprof: ${soak.error ?? 'soak failed'}`] };
  if (verdict === 'no leak') return { exitCode: EXIT.ok, exitReasons: [] };
  if (verdict === 'leak' || verdict === 'crash') return { exitCode: EXIT.failed, exitReasons: [] };
  return { exitCode: EXIT.inconclusive, exitReasons: [] };
}
