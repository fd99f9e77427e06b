/**
 * End to end: fixed-rate (open-loop) steps against a stub gateway whose service time is known
 * (fixtures/stub-gateway.mjs holds its event loop D ms per request). Under Poisson arrivals it is
 * an M/D/1 queue, whose mean response time is D·(1 + ρ/(2(1 − ρ))), ρ = rate·D.
 */
import { describe, expect, it } from 'vitest';
import { loadLevel } from '@gwprof/results';
import { sweepStub } from './cli.js';

const BASE_PORT = 4570;
describe('fixed-rate steps against a stub with a known service time', () => {
  it('sends at the target rate', async () => {
    const { code, run } = await sweepStub(BASE_PORT, ['STUB_SERVICE_MS=10'], ['--rate', '60', '--arrivals', 'uniform', '-d', '10', '-w', '5']);
    const step = run.steps[0]!;
    expect(code).toBe(0);
    expect(step.load).toEqual({ kind: 'open', targetRps: 60, arrivals: 'uniform', maxInFlight: 1000 });
    expect(Math.abs(step.rate!.sentRps / 60 - 1)).toBeLessThan(0.03);
    expect(Math.abs(step.rps / 60 - 1)).toBeLessThan(0.03);
    expect(step.rate!.dropped).toBe(0);
    expect(step.rate!.scheduleKept).toBe(true);
  }, 120_000);

  it('measures the mean latency of an M/D/1 queue within 20% of theory, D from the stub’s own CPU per request', async () => {
    const { run } = await sweepStub(BASE_PORT, ['STUB_SERVICE_MS=10'], ['--rate', '50', '--arrivals', 'poisson', '-d', '30', '-w', '8']);
    const step = run.steps[0]!;
    const d = step.gateway.cpuMsPerOkRequest!;
    const rho = (step.rps * d) / 1000;
    const theory = d * (1 + rho / (2 * (1 - rho)));
    expect(rho).toBeGreaterThan(0.3);
    expect(rho).toBeLessThan(0.8);
    expect(Math.abs(step.latencyMs!.mean / theory - 1)).toBeLessThan(0.2);
  }, 120_000);

  it('shows a gateway that freezes 1 s in every 5 at its p99, measured from intended send times', async () => {
    const { run } = await sweepStub(BASE_PORT, ['STUB_SERVICE_MS=1', 'STUB_FREEZE_EVERY_MS=5000', 'STUB_FREEZE_MS=1000'], ['--rate', '100', '--arrivals', 'uniform', '-d', '10', '-w', '3']);
    expect(run.steps[0]!.latencyMs!.p99).toBeGreaterThanOrEqual(500);
  }, 120_000);

  it('never reports a rate beyond capacity as a clean step: drops at the in-flight cap mark it overloaded', async () => {
    const { code, stdout, run } = await sweepStub(BASE_PORT, ['STUB_SERVICE_MS=10'], ['--rate', '200', '--max-in-flight', '20', '-d', '5', '-w', '3']);
    const step = run.steps[0]!;
    expect(step.status).toBe('overloaded');
    expect(step.rate!.dropped).toBeGreaterThan(0);
    expect(step.warnings.join(' ')).toMatch(/the gateway fell behind: \d+ sends refused at the in-flight cap of 20/);
    expect(stdout).toMatch(/^\s*200\s+overloaded\s/m);
    expect(code).toBe(0);
  }, 120_000);
});

describe('--rate auto', () => {
  it('finds the closed-loop peak with a short probe, then steps from about 10% to 120% of it and finds the knee', async () => {
    const { run, stdout } = await sweepStub(BASE_PORT, ['STUB_SERVICE_MS=10'], ['--rate', 'auto', '-d', '2', '-w', '1', '--slo', 'p99=200ms']);
    const peak = run.probe!.peakRps;
    expect(run.probe!.steps.map((s) => loadLevel(s.load))).toEqual([8, 32, 128]);
    expect(peak).toBeGreaterThan(40);
    expect(peak).toBeLessThan(105);
    const rates = run.steps.map((s) => s.rate!.targetRps);
    expect(rates[0]).toBe(Math.round(0.1 * peak));
    expect(rates.at(-1)).toBe(Math.round(1.2 * peak));
    expect([...rates].sort((a, b) => a - b)).toEqual(rates);
    // 120% of a peak cannot be kept: the ladder breaks, and says where.
    const capacity = run.analysis!.rateCapacity!;
    expect(capacity.knee!.firstBrokenRps).toBeGreaterThan(capacity.knee!.lastKeptRps);
    expect(capacity.knee!.firstBrokenRps).toBeLessThanOrEqual(rates.at(-1)!);
    expect(capacity.maxRateUnderSlo).not.toBeNull();
    expect(stdout).toMatch(/^req\/s\s+status\s+sent\/s/m);
  }, 240_000);
});
