/** A comparison's verdict as published: the test's, unless the comparison did not run to its end (then there is none). */
import type { CompareAnalysis, CompareResult } from '@gwprof/results';
import { exitCodeOf } from '../exit-code.js';
import { findingOf, type ComparisonVerdict } from './verdict.js';

export function comparisonOutcome(
  compare: Pick<CompareResult, 'state' | 'error' | 'stopReason'>,
  verdict: ComparisonVerdict,
): Pick<CompareAnalysis, 'verdict' | 'verdictReasons' | 'fixes' | 'exitCode'> {
  if (compare.state !== 'complete') {
    const reason = compare.error ?? `comparison ${compare.state}: ${compare.stopReason}`;
    return { verdict: 'error', verdictReasons: [reason], exitCode: exitCodeOf(compare.state, null) };
  }
  const reasons = verdict.verdict === 'inconclusive' ? [compare.stopReason, ...verdict.reasons] : verdict.reasons;
  const fixes = verdict.verdict === 'invalid' && verdict.fixes && verdict.fixes.length > 0 ? { fixes: verdict.fixes } : {};
  return { verdict: verdict.verdict, verdictReasons: reasons, ...fixes, exitCode: exitCodeOf(compare.state, findingOf(verdict.verdict)) };
}
