/**
 * End to end: fixed-rate (open-loop) steps against a stub gateway whose service time is known
 * (fixtures/stub-gateway.mjs holds its event loop D ms per request). Under Poisson arrivals it is
 * an M/D/1 queue, whose mean response time is D·(1 + ρ/(2(1 − ρ))), ρ = rate·D. Every bound is
 * certain on a loaded machine: derived from the sampling variance, or from what the step measured.
 * How closely a quiet machine keeps them (lag, rate, latency against theory) is the benchmarks'.
 * The M/D/1 queue's mean latency and `--rate auto` (a probe, then a ladder of rates) are
 * sweep-rate.long.test.ts's (`pnpm test:long`).
 */
import { describe, expect, it } from 'vitest';
import { sweepStub } from './cli.js';
import { servedMatchesSent } from './rate-checks.js';

const BASE_PORT = 4570;

describe('fixed-rate steps against a stub with a known service time', () => {
  it('sends at the target rate and serves what it sent', async () => {
    const rate = 60;
    const { code, run } = await sweepStub(
      BASE_PORT,
      ['STUB_SERVICE_MS=10', 'STUB_SERVICE_HOLD=sleep'],
      // Bounds from the step's own lag and latency, not from its length: a 5 s window holds 300 sends.
      ['--rate', String(rate), '--arrivals', 'uniform', '-d', '5', '-w', '1'],
    );
    const step = run.steps[0]!;
    expect(code).toBe(0);
    expect(step.load).toEqual({ kind: 'open', targetRps: rate, arrivals: 'uniform', maxInFlight: 1000 });
    // Evenly spaced sends are due exactly rate × T times in the window (±1 at its edges); a send can
    // only leave late, so lag moves at most rate × (max lag) of them across either edge.
    const T = step.timing.windowSec;
    const late = (rate * step.rate!.lagMs!.max) / 1000;
    expect(Math.abs(step.rate!.sentRps * T - rate * T)).toBeLessThanOrEqual(late + 2);
    servedMatchesSent(step, rate);
    // 60 req/s at 10 ms each keeps 1 or 2 in flight; refusing one takes 1,000.
    expect(step.rate!.dropped).toBe(0);
  }, 120_000);

  it('shows a gateway that freezes 1 s in every 5 at its p99, measured from intended send times', async () => {
    const { run } = await sweepStub(
      BASE_PORT,
      ['STUB_SERVICE_MS=1', 'STUB_FREEZE_EVERY_MS=5000', 'STUB_FREEZE_MS=1000'],
      ['--rate', '100', '--arrivals', 'uniform', '-d', '10', '-w', '3'],
    );
    const latency = run.steps[0]!.latencyMs!;
    // A freeze starts every 5–6 s (the interval may count from the freeze's end), so the window
    // (10 s or more) holds at least one whole freeze whose backlog (100 requests, 1 ms each) drains
    // inside it. Requests due in that freeze's first half wait ≥ 500 ms from their intended send time:
    // 50 or more of about 1,000, five times the 1% the p99 needs. Those due in its first 100 ms
    // wait ≥ 900 ms. The other 80% of requests meet no freeze.
    expect(latency.p99).toBeGreaterThanOrEqual(500);
    expect(latency.max).toBeGreaterThanOrEqual(900);
    expect(latency.p50).toBeLessThan(100);
  }, 120_000);

  it('never reports a rate beyond capacity as a clean step: drops at the in-flight cap mark it overloaded', async () => {
    // 200 req/s at 10 ms each is twice what the stub can serve: the backlog grows 100 a second and
    // reaches the cap of 20 in a fraction of a second, however fast the machine: within the warm-up,
    // and it stays there through the window.
    const { code, stdout, run } = await sweepStub(BASE_PORT, ['STUB_SERVICE_MS=10'], ['--rate', '200', '--max-in-flight', '20', '-d', '3', '-w', '1']);
    const step = run.steps[0]!;
    expect(step.status).toBe('overloaded');
    expect(step.rate!.dropped).toBeGreaterThan(0);
    expect(step.warnings.join(' ')).toMatch(/the gateway fell behind: \d+ sends refused at the in-flight cap of 20/);
    expect(stdout).toMatch(/^\s*200\s+overloaded\s/m);
    expect(code).toBe(0);
  }, 120_000);
});
