import { describe, expect, it } from 'vitest';
import { comparisonOutcome } from './comparison-outcome.js';
import type { ComparisonVerdict } from './verdict.js';

const verdictOf = (verdict: ComparisonVerdict['verdict']): ComparisonVerdict => ({ decisions: new Map(), verdict, reasons: ['why'], done: true });

describe('comparisonOutcome', () => {
  it('gives a comparison that did not run to its end no verdict and exit 2, apart from an invalid one (exit 4)', () => {
    const failed = comparisonOutcome({ state: 'failed', error: 'the candidate did not start', stopReason: 'error' }, verdictOf('no change'));
    expect(failed).toEqual({ verdict: 'error', verdictReasons: ['the candidate did not start'], exitCode: 2 });
    const invalid = comparisonOutcome({ state: 'complete', error: null, stopReason: 'decided' }, verdictOf('invalid'));
    expect(invalid).toMatchObject({ verdict: 'invalid', exitCode: 4 });
  });

  it("keeps the budget's reason first when the test ran out of it", () => {
    const outcome = comparisonOutcome({ state: 'complete', error: null, stopReason: 'budget of 10 min reached' }, verdictOf('inconclusive'));
    expect(outcome).toEqual({ verdict: 'inconclusive', verdictReasons: ['budget of 10 min reached', 'why'], exitCode: 3 });
  });

  it('records the exit code the process exits with: 130 for an interrupted comparison, 1 for a regression', () => {
    const interrupted = comparisonOutcome({ state: 'interrupted', error: null, stopReason: 'interrupted' }, verdictOf('no change'));
    expect(interrupted).toMatchObject({ verdict: 'error', exitCode: 130 });
    expect(comparisonOutcome({ state: 'complete', error: null, stopReason: 'decided' }, verdictOf('regression')).exitCode).toBe(1);
    expect(comparisonOutcome({ state: 'complete', error: null, stopReason: 'decided' }, verdictOf('improvement')).exitCode).toBe(0);
  });
});
