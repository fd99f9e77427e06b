import type { RateFacts } from '@gwprof/results';
import { describe, expect, it } from 'vitest';
import { stepFailures, stepStatus } from './step-verdict.js';

const kept: RateFacts = { targetRps: 100, sentRps: 100, dropped: 0, lagMs: null, scheduleKept: true };
const base = { requests: { total: 1000, ok: 1000 }, minSuccess: 1, gatewayExit: null, rate: null, steady: true };

describe('a step verdict', () => {
  it('fails a step below the success threshold, without responses, or whose gateway died, saying why', () => {
    expect(stepFailures({ ...base, requests: { total: 1000, ok: 990 } })).toEqual(['success rate 99.00% is below the required 100.00%']);
    expect(stepFailures({ ...base, requests: { total: 0, ok: 0 } })).toEqual(['no response at all in the measured window']);
    expect(stepStatus({ ...base, gatewayExit: 'gateway exited (code 3)' })).toBe('failed');
  });

  it('calls an open-loop step that did not keep its schedule overloaded, before unsteady', () => {
    expect(stepStatus({ ...base, rate: { ...kept, dropped: 5, scheduleKept: false }, steady: false })).toBe('overloaded');
    expect(stepStatus({ ...base, rate: kept, steady: false })).toBe('unsteady');
    expect(stepStatus(base)).toBe('ok');
  });
});
