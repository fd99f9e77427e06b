/**
 * End to end, the long tier (`pnpm test:long`): the mean latency of an M/D/1 queue (a stub that
 * sleeps D per request, Poisson arrivals), within bounds from the window mean's sampling
 * distribution and from what the step measured; `--rate auto` against a sleeping stub whose
 * capacity is known, a probe for the closed-loop peak and then a ladder of rates up to 120% of it.
 */
import { describe, expect, it } from 'vitest';
import { loadLevel } from '@gwprof/results';
import { sweepStub } from './cli.js';
import { servedMatchesSent } from './rate-checks.js';

const BASE_PORT = 4570;

describe('fixed-rate steps against a stub with a known service time', () => {
  it('measures the mean latency of an M/D/1 queue, the service time the stub’s', async () => {
    // The stub sleeps D per request (STUB_SERVICE_HOLD=sleep). A busy hold on a core shared with a
    // CPU hog also waits for the scheduler: at D = 10 ms, 50/s, the mean came out 2.4 times theory.
    // Sleeping, its CPU per request is its HTTP work, which adds to D.
    const D = 20;
    const rate = 20;
    const { run } = await sweepStub(
      BASE_PORT,
      [`STUB_SERVICE_MS=${D}`, 'STUB_SERVICE_HOLD=sleep'],
      ['--rate', String(rate), '--arrivals', 'poisson', '-d', '30', '-w', '3'],
    );
    const step = run.steps[0]!;
    const T = step.timing.windowSec;
    expect(T).toBeGreaterThanOrEqual(30);
    // A 30 s Poisson window at 20/s sends 600 ± 24.5: 5σ is ±20%.
    expect(Math.abs(step.rate!.sentRps / rate - 1)).toBeLessThan(5 / Math.sqrt(rate * T));
    servedMatchesSent(step, rate);
    const http = step.gateway.cpuMsPerOkRequest!;
    expect(http).toBeLessThan(D / 4);
    const service = D + http;
    const rho = (step.rate!.sentRps * service) / 1000;
    const theory = service * (1 + rho / (2 * (1 - rho)));
    // Tolerance from the window mean's sampling distribution (10⁴ simulated 30 s windows of an
    // M/D/1 queue at D = 20 ms, ρ = 0.4, against theory at each window's own sent rate):
    // σ = 2.9%, skewed right: its 1-in-10⁴ quantiles are −8.4% and +15.0%. So 5σ = ±15%. No
    // queueing at all (W = D, or evenly spaced arrivals) would be 25% below theory.
    expect(step.latencyMs!.mean).toBeGreaterThan(theory * 0.85);
    // Above, theory leaves out the send's lag, the round trip and the stub's wake-up, which
    // lengthens its service, and the queue multiplies that: with both cores busy it reached 41 ms
    // against 37 ms allowed for a quiet machine. The step measures it itself: at ρ ≈ 0.4 six
    // requests in ten find the stub idle, so the median response waited for nothing, and is the
    // service as this machine ran it then, overheads included (it counts the round trip as service:
    // a looser bound, never a tighter one). 1 ms more for the median's own scatter.
    const served = Math.max(service, step.latencyMs!.p50);
    const rhoServed = Math.min(0.9, (step.rate!.sentRps * served) / 1000);
    const theoryServed = served * (1 + rhoServed / (2 * (1 - rhoServed)));
    expect(step.latencyMs!.mean).toBeLessThan(theoryServed * 1.15 + 1);
  }, 120_000);
});

describe('--rate auto', () => {
  it('finds the closed-loop peak with a short probe, then steps from about 10% to 120% of it and finds the knee', async () => {
    // A sleeping stub's capacity, 1/(D + its HTTP work), does not move with the load on its core, so
    // 120% of the probe's peak is beyond what the ladder's steps can serve. Evenly spaced arrivals
    // send each step's target exactly: the knee rule compares successes with the target, and a
    // Poisson window sends short by chance (at 9/s over 24 s, 5% short one time in four). Windows are
    // capped at 4 s: the lightest rates would otherwise grow theirs to hold 200 responses. No warm-up:
    // the sleep sets a sleeping stub's capacity, not the HTTP work V8 warms up.
    const { run, stdout } = await sweepStub(
      BASE_PORT,
      ['STUB_SERVICE_MS=10', 'STUB_SERVICE_HOLD=sleep'],
      ['--rate', 'auto', '--arrivals', 'uniform', '-d', '2', '--max-duration', '4', '-w', '0', '--slo', 'p99=200ms'],
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
