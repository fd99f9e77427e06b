import { describe, expect, it } from 'vitest';
import { analyzeCapacity, type CapacityStep } from './capacity.js';
import { findKnee } from './knee.js';
import { checkLittlesLaw } from './little.js';
import { mulberry32 } from '../testing/profiles.js';
import { fitUsl, uslThroughput } from './usl.js';

const LEVELS = [1, 2, 4, 8, 16, 32, 64, 128];
const USL = { sigma: 0.05, kappa: 0.0005, lambda: 100 };

/** A closed-loop step that obeys Little's law exactly: mean latency = concurrency / throughput. */
function step(concurrency: number, rps: number, overrides: Partial<CapacityStep> = {}): CapacityStep & { concurrency: number } {
  const mean = (concurrency / rps) * 1000;
  return { load: { kind: 'closed', concurrency }, concurrency, rps, latencyMs: { mean, p99: 2 * mean }, successRate: 1, status: 'ok', ...overrides };
}

describe('fitUsl', () => {
  it('recovers σ, κ, λ from an exact USL curve', () => {
    const { fit } = fitUsl(LEVELS.map((n) => ({ concurrency: n, rps: uslThroughput(n, USL) })));
    expect(fit!.sigma).toBeCloseTo(0.05, 6);
    expect(fit!.kappa).toBeCloseTo(0.0005, 8);
    expect(fit!.lambda).toBeCloseTo(100, 4);
    expect(fit!.peakConcurrency).toBeCloseTo(Math.sqrt(0.95 / 0.0005), 4);
    expect(fit!.peakRps).toBeCloseTo(uslThroughput(Math.sqrt(0.95 / 0.0005), USL), 4);
    expect(fit!.r2).toBeCloseTo(1, 10);
    expect(fit!.points).toBe(8);
  });

  it('recovers them within a few percent from a curve with 2% noise', () => {
    const random = mulberry32(7);
    const points = LEVELS.map((n) => ({ concurrency: n, rps: uslThroughput(n, USL) * (1 + 0.02 * (2 * random() - 1)) }));
    const { fit } = fitUsl(points);
    expect(Math.abs(fit!.lambda / 100 - 1)).toBeLessThan(0.05);
    expect(Math.abs(fit!.sigma / 0.05 - 1)).toBeLessThan(0.15);
    expect(Math.abs(fit!.kappa / 0.0005 - 1)).toBeLessThan(0.1);
    expect(Math.abs(fit!.peakConcurrency! / 43.59 - 1)).toBeLessThan(0.05);
    expect(fit!.r2).toBeGreaterThan(0.99);
  });

  it('keeps κ at zero for a curve without retrograde region', () => {
    const { fit } = fitUsl(LEVELS.map((n) => ({ concurrency: n, rps: uslThroughput(n, { sigma: 0.1, kappa: 0, lambda: 50 }) })));
    expect(fit).toMatchObject({ kappa: 0, peakConcurrency: null, peakRps: null });
    expect(fit!.sigma).toBeCloseTo(0.1, 8);
  });

  it('needs four distinct concurrencies with throughput', () => {
    const result = fitUsl([
      { concurrency: 1, rps: 100 },
      { concurrency: 2, rps: 190 },
      { concurrency: 4, rps: 340 },
      { concurrency: 4, rps: 350 },
      { concurrency: 8, rps: 0 },
    ]);
    expect(result.fit).toBeNull();
    expect(result.note).toMatch(/at least 4 ok steps at distinct concurrencies .* \(have 3\)/);
  });
});

describe('findKnee', () => {
  it('finds where a saturating curve flattens', () => {
    const result = findKnee(LEVELS.map((n) => ({ concurrency: n, rps: Math.min(100 * n, 800) })));
    expect(result.knee).toMatchObject({ concurrency: 8, rps: 800 });
    expect(result.knee!.method).toMatch(/Kneedle/);
  });

  it('ignores the buckled tail of a USL curve', () => {
    const result = findKnee(LEVELS.map((n) => ({ concurrency: n, rps: uslThroughput(n, USL) })));
    expect(result.knee!.concurrency).toBe(16);
    expect(result.knee!.method).toMatch(/c=1\.\.64/);
  });

  it('says so when the data cannot show a knee', () => {
    expect(
      findKnee([
        { concurrency: 1, rps: 10 },
        { concurrency: 2, rps: 20 },
      ]).note,
    ).toMatch(/at least 3 ok steps \(have 2\)/);
    // Seed 000's shape: saturated from the lowest step.
    const flat = [10, 100, 300, 500, 1000].map((n, i) => ({ concurrency: n, rps: [190, 220, 215, 218, 212][i]! }));
    expect(findKnee(flat)).toMatchObject({ knee: null, note: expect.stringMatching(/saturated at or below the lowest step/) });
    const linear = LEVELS.map((n) => ({ concurrency: n, rps: 100 * n }));
    expect(findKnee(linear)).toMatchObject({ knee: null, note: expect.stringMatching(/beyond the measured steps/) });
  });
});

describe('checkLittlesLaw', () => {
  it('flags a step whose connections were half idle', () => {
    const check = checkLittlesLaw({ ...step(100, 1000), latencyMs: { mean: 50 }, loadgen: { cpuPercent: 98 } });
    expect(check).toMatchObject({ impliedConcurrency: 50, ratio: 0.5, flag: 'loadgen-saturated' });
    expect(check.note).toMatch(/50\.0 requests in flight for 100 connections \(50% busy\).*CPU was at 98%/);
  });

  it('tells idle connections from connections held by timed-out requests', () => {
    const idle = checkLittlesLaw({ ...step(100, 1000), latencyMs: { mean: 50 }, loadgen: { cpuPercent: 5 } });
    expect(idle).toMatchObject({ ratio: 0.5, flag: 'connections-idle' });
    // 300 connections, 100 ok req/s at 1.5 s = 150 busy; 300 timeouts in 20 s × 10 s = 150 more.
    const held = { ...step(300, 100), latencyMs: { mean: 1500 }, successRate: 0.87, failureCounts: { timeouts: 300 }, durationSec: 20 };
    expect(checkLittlesLaw(held, 10)).toMatchObject({ ratio: 0.5, flag: 'failures-hold-connections' });
    expect(checkLittlesLaw(held, 10).note).toMatch(/300 timeouts held about 150\.0 more for 10 s each/);
    expect(checkLittlesLaw(held)).toMatchObject({ flag: 'connections-idle' });
  });

  it('accepts a closed loop that holds, and flags latency inflated by client-side queueing', () => {
    expect(checkLittlesLaw(step(100, 1000))).toMatchObject({ impliedConcurrency: 100, ratio: 1, flag: 'ok', note: '' });
    expect(checkLittlesLaw({ ...step(10, 100), latencyMs: { mean: 200 } })).toMatchObject({ ratio: 2, flag: 'client-queueing' });
    expect(checkLittlesLaw({ ...step(10, 100), latencyMs: null })).toMatchObject({ ratio: null, flag: 'no-data' });
  });
});

describe('analyzeCapacity', () => {
  const curve = LEVELS.map((n) => step(n, uslThroughput(n, USL)));

  it('reports knee, optimal and maximum concurrency, USL and Little’s law per step', () => {
    const result = analyzeCapacity([...curve].reverse());
    expect(result.knee!.concurrency).toBe(16);
    // Power rps / latency = rps² / N peaks at 16 on this curve (45.8k vs 42.1k at 8 and 34.5k at 32).
    expect(result.optimalConcurrency).toBe(16);
    // 128 buckled: 827/s is more than 10% below the 1051/s peak at 32.
    expect(result.maxConcurrency).toBe(64);
    expect(result.notes).toContainEqual(expect.stringMatching(/stops at c=64: c=128 throughput 827\/s fell more than 10% below the peak 1051\/s/));
    expect(result.usl!.kappa).toBeCloseTo(0.0005, 8);
    expect(result.littlesLaw.map((check) => check.concurrency)).toEqual(LEVELS);
    expect(result.littlesLaw.every((check) => check.flag === 'ok')).toBe(true);
  });

  it("reads the connections from each step's load and leaves open-loop steps out", () => {
    const open: CapacityStep = { ...step(1000, 50), load: { kind: 'open', targetRps: 50, arrivals: 'poisson', maxInFlight: 1000 } };
    const closed = curve.map(({ concurrency: _, ...rest }): CapacityStep => rest);
    const result = analyzeCapacity([...closed, open]);
    expect(result.littlesLaw.map((check) => check.concurrency)).toEqual(LEVELS);
    expect(result.maxConcurrency).toBe(64);
  });

  it('stops the maximum at the first step that misses a target', () => {
    const steps = curve.map((s) => (s.concurrency === 32 ? { ...s, successRate: 0.98 } : s));
    const result = analyzeCapacity(steps, { minSuccess: 0.99 });
    expect(result.maxConcurrency).toBe(16);
    expect(result.notes).toContainEqual(expect.stringMatching(/c=32 success rate 98% is below the target 99%/));

    const withLatencyTarget = analyzeCapacity(curve, { latencyTargetMs: 50 });
    // p99 = 2 × N / X: 37 ms at c=16, 61 ms at c=32.
    expect(withLatencyTarget.maxConcurrency).toBe(16);
    expect(withLatencyTarget.notes).toContainEqual(expect.stringMatching(/c=32 p99 61 ms exceeds the target 50 ms/));
  });

  it('says which figures the data cannot support', () => {
    const result = analyzeCapacity([step(10, 100), step(20, 120), step(40, 10, { status: 'failed', latencyMs: null })]);
    expect(result).toMatchObject({ knee: null, usl: null, maxConcurrency: 20, optimalConcurrency: 10 });
    expect(result.notes).toEqual([
      'knee needs at least 3 ok steps (have 2)',
      'optimal concurrency is the lowest step measured (c=10); the true optimum may be lower',
      'maximum concurrency stops at c=20: c=40 failed',
      'USL fit needs at least 4 ok steps at distinct concurrencies with throughput > 0 (have 2)',
    ]);
    expect(result.littlesLaw[2]!.flag).toBe('no-data');
  });
});
