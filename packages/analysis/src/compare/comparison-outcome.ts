/** A comparison's verdict as published: the test's, unless the comparison did not run to its end (then there is none). */
import { EXIT, type CompareAnalysis, type CompareResult } from '@gwprof/results';
import type { ComparisonVerdict } from './compare-windows.js';

export function comparisonOutcome(
  compare: Pick<CompareResult, 'state' | 'error' | 'stopReason'>,
  verdict: ComparisonVerdict,
): Pick<CompareAnalysis, 'verdict' | 'verdictReasons' | 'exitCode'> {
  if (compare.state !== 'complete') {
    return { verdict: 'error', verdictReasons: [compare.error ?? `comparison ${compare.state}: ${compare.stopReason}`], exitCode: EXIT.error };
  }
  if (verdict.verdict === 'inconclusive')
    return { verdict: 'inconclusive', verdictReasons: [compare.stopReason, ...verdict.reasons], exitCode: EXIT.inconclusive };
  return { verdict: verdict.verdict, verdictReasons: verdict.reasons, exitCode: verdict.exitCode };
}
