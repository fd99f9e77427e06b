import { describe, expect, it } from 'vitest';
import { comparisonOutcome } from './comparison-outcome.js';
import type { ComparisonVerdict } from './compare-windows.js';

const verdictOf = (verdict: ComparisonVerdict['verdict'], exitCode: ComparisonVerdict['exitCode']): ComparisonVerdict => ({
  decisions: new Map(),
  verdict,
  reasons: ['why'],
  exitCode,
  done: true,
});

describe('comparisonOutcome', () => {
  it('gives a comparison that did not run to its end no verdict and exit 2, apart from an invalid one (exit 4)', () => {
    const failed = comparisonOutcome({ state: 'failed', error: 'the candidate did not start', stopReason: 'error' }, verdictOf('no change', 0));
    expect(failed).toEqual({ verdict: 'error', verdictReasons: ['the candidate did not start'], exitCode: 2 });
    const invalid = comparisonOutcome({ state: 'complete', error: null, stopReason: 'decided' }, verdictOf('invalid', 4));
    expect(invalid).toMatchObject({ verdict: 'invalid', exitCode: 4 });
  });

  it("keeps the budget's reason first when the test ran out of it", () => {
    const outcome = comparisonOutcome({ state: 'complete', error: null, stopReason: 'budget of 10 min reached' }, verdictOf('inconclusive', 3));
    expect(outcome).toEqual({ verdict: 'inconclusive', verdictReasons: ['budget of 10 min reached', 'why'], exitCode: 3 });
  });
});
