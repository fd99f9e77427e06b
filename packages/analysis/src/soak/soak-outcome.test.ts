import { describe, expect, it } from 'vitest';
import { soakOutcome } from './soak-outcome.js';

const soak = (state: 'complete' | 'failed' | 'interrupted', crash: object | null = null) =>
  ({ state, error: 'port 4001 in use', crash, intervals: [] }) as never;

describe('soakOutcome', () => {
  it('maps each verdict to its exit code: no leak 0, leak or crash 1, inconclusive 3', () => {
    expect(soakOutcome(soak('complete'), 'no leak').exitCode).toBe(0);
    expect(soakOutcome(soak('complete'), 'leak').exitCode).toBe(1);
    expect(soakOutcome(soak('failed', { at: 'x' }), 'crash').exitCode).toBe(1);
    expect(soakOutcome(soak('complete'), 'inconclusive').exitCode).toBe(3);
  });

  it('gives a soak that could not run exit 2 with its error, and an interrupted one 130', () => {
    expect(soakOutcome(soak('failed'), null)).toEqual({ exitCode: 2, exitReasons: ['gwprof: port 4001 in use'] });
    expect(soakOutcome(soak('interrupted'), 'no leak').exitCode).toBe(130);
  });
});
