/** Checks of a fixed-rate step that hold on any machine: bounds from what the step measured. */
import { expect } from 'vitest';
import type { StepRecord } from '@gwprof/results';

/**
 * What was served against what was sent, in one step's window. A request completes in the window
 * if it was sent in it or was in flight at its start, and one sent in it may still be in flight at
 * its end, so completions − sends lies between −(in flight at the end) and +(in flight at the
 * start). The step records the first, read at the tick that closes the window, a few ms late: one
 * or two more may have completed by then (at most one per service time, 10 ms or more here). The
 * second were sent within the window's max latency before its start; sends in such a span are
 * Poisson with mean m = rate × (max latency + max lag), lag bunching late ones (fewer if evenly
 * spaced): m + 5√m + 1 bounds them. Bounds from what the step measured, not a percentage.
 */
export function servedMatchesSent(step: StepRecord, rate: number): void {
  const sent = Math.round(step.rate!.sentRps * step.timing.windowSec);
  const served = step.requests.ok + step.requests.failed;
  const m = (rate * (step.latencyMs!.max + step.rate!.lagMs!.max)) / 1000;
  expect(step.requests.failed).toBe(0);
  expect(served - sent).toBeGreaterThanOrEqual(-(step.requests.inFlightAtEnd + 2));
  expect(served - sent).toBeLessThanOrEqual(m + 5 * Math.sqrt(m) + 1);
}
