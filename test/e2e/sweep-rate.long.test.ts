/**
 * End to end, the long tier (`pnpm test:long`): `--rate auto` against a sleeping stub whose capacity
 * is known, a probe for the closed-loop peak and then a ladder of rates up to 120% of it.
 */
import { describe, expect, it } from 'vitest';
import { loadLevel } from '@gwprof/results';
import { sweepStub } from './cli.js';

const BASE_PORT = 4570;

describe('--rate auto', () => {
  it('finds the closed-loop peak with a short probe, then steps from about 10% to 120% of it and finds the knee', async () => {
    // A sleeping stub's capacity, 1/(D + its HTTP work), does not move with the load on its core, so
    // 120% of the probe's peak is beyond what the ladder's steps can serve. Evenly spaced arrivals
    // send each step's target exactly: the knee rule compares successes with the target, and a
    // Poisson window sends short by chance (at 9/s over 24 s, 5% short one time in four). Windows are
    // capped at 4 s: the lightest rates would otherwise grow theirs to hold 200 responses.
    const { run, stdout } = await sweepStub(
      BASE_PORT,
      ['STUB_SERVICE_MS=10', 'STUB_SERVICE_HOLD=sleep'],
      ['--rate', 'auto', '--arrivals', 'uniform', '-d', '2', '--max-duration', '4', '-w', '1', '--slo', 'p99=200ms'],
    );
    const peak = run.probe!.peakRps;
    expect(run.probe!.steps.map((s) => loadLevel(s.load))).toEqual([8, 32, 128]);
    // One thread holding each request 10 ms answers at most 100/s (105 with a short window's edge);
    // under 40 would take 15 ms of HTTP work per request.
    expect(peak).toBeGreaterThan(40);
    expect(peak).toBeLessThan(105);
    const rates = run.steps.map((s) => s.rate!.targetRps);
    expect(rates[0]).toBe(Math.round(0.1 * peak));
    expect(rates.at(-1)).toBe(Math.round(1.2 * peak));
    expect([...rates].sort((a, b) => a - b)).toEqual(rates);
    // 120% of the peak cannot be kept: one thread completes at most T/D + 1 requests in T s, under
    // 95% of that step's target (the knee rule's bar), when it is not already overloaded.
    const top = run.steps.at(-1)!;
    expect(top.status === 'overloaded' || top.rps < 0.95 * top.rate!.targetRps, `${top.status} at ${top.rps} req/s`).toBe(true);
    // So the ladder breaks, and says where: at a knee at or below that step, or, when the load
    // generator fell behind its schedule already at the lightest rate (a send more than 10 ms late
    // at p99 on a loaded machine), there, and it says so. Where the knee lands is the benchmarks'.
    const capacity = run.analysis!.rateCapacity!;
    if (capacity.knee) {
      expect(capacity.knee.firstBrokenRps).toBeGreaterThan(capacity.knee.lastKeptRps);
      expect(capacity.knee.firstBrokenRps).toBeLessThanOrEqual(rates.at(-1)!);
    } else {
      expect(run.steps[0]!.status).toBe('overloaded');
      expect(capacity.notes.join(' ')).toMatch(/the lightest rate already broke/);
    }
    expect(capacity.maxRateUnderSlo).not.toBeNull();
    expect(stdout).toMatch(/^req\/s\s+status\s+sent\/s/m);
  }, 240_000);
});
