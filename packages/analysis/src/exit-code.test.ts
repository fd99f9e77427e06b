import { describe, expect, it } from 'vitest';
import { EXIT } from '@gwprof/results';
import { exitCodeOf } from './exit-code.js';

describe('exitCodeOf', () => {
  it('exits 130 for an interrupted run, whatever it found before', () => {
    for (const finding of ['passed', 'failed', 'inconclusive', 'invalid', null] as const) expect(exitCodeOf('interrupted', finding)).toBe(EXIT.interrupted);
  });

  it('exits 2 when there is nothing to judge, and by the finding otherwise', () => {
    expect(exitCodeOf('failed', null)).toBe(EXIT.error);
    expect(exitCodeOf('complete', null)).toBe(EXIT.error);
    expect(exitCodeOf('complete', 'passed')).toBe(EXIT.ok);
    expect(exitCodeOf('complete', 'failed')).toBe(EXIT.failed);
    expect(exitCodeOf('complete', 'inconclusive')).toBe(EXIT.inconclusive);
    expect(exitCodeOf('complete', 'invalid')).toBe(EXIT.invalid);
    // A soak whose gateway crashed failed as a run, and found a crash: the finding decides.
    expect(exitCodeOf('failed', 'failed')).toBe(EXIT.failed);
  });
});
