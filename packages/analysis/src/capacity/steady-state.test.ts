import { describe, expect, it } from 'vitest';
import { cpuWarmupDecision, judgeWindowSteadiness, trendOf, warmupDecision, windowDecision } from './steady-state.js';

const flat = (n: number, level = 100, wobble = 3): number[] => Array.from({ length: n }, (_, i) => level + (i % 2 === 0 ? wobble : -wobble));
const ramp = (n: number, from: number, to: number): number[] => Array.from({ length: n }, (_, i) => from + ((to - from) * i) / (n - 1));

describe('trendOf', () => {
  it('finds the slope and the change it implies over the span', () => {
    const t = trendOf(ramp(11, 50, 150));
    expect(t.slope).toBeCloseTo(10, 9);
    expect(t.relativeChange).toBeCloseTo(1, 9);
    expect(t.t).toBe(Infinity);
  });

  it('sees no trend in an alternating series', () => {
    expect(Math.abs(trendOf(flat(10)).relativeChange)).toBeLessThan(0.03);
  });
});

describe('warmupDecision', () => {
  it('keeps warming up while throughput still climbs (JIT warm-up)', () => {
    expect(warmupDecision({ okPerSecond: ramp(8, 20, 54), meanLatencyMs: 100, maxSeconds: 30 })).toEqual({ done: false });
  });

  it('ends once the trailing seconds are flat and the connections have cycled', () => {
    const decision = warmupDecision({ okPerSecond: [...ramp(4, 20, 90), ...flat(6)], meanLatencyMs: 100, maxSeconds: 30 });
    expect(decision).toMatchObject({ done: true, steady: true });
  });

  it('waits for several round trips when each takes seconds (high concurrency)', () => {
    expect(warmupDecision({ okPerSecond: flat(6), meanLatencyMs: 4000, maxSeconds: 60 })).toEqual({ done: false });
    expect(warmupDecision({ okPerSecond: flat(12), meanLatencyMs: 4000, maxSeconds: 60 })).toMatchObject({ done: true, steady: true });
  });

  it('gives up at the maximum, unsteady, and says why', () => {
    const decision = warmupDecision({ okPerSecond: ramp(10, 10, 100), meanLatencyMs: 50, maxSeconds: 10 });
    expect(decision).toMatchObject({ done: true, steady: false });
    expect(decision.done && decision.reason).toMatch(/did not settle within 10 s \(throughput still moving: \+\d+/);
  });

  it('waits until every connection has had its first response (a busy gateway admits them slowly)', () => {
    const flatState = { okPerSecond: flat(10), meanLatencyMs: 100, maxSeconds: 30 };
    expect(warmupDecision({ ...flatState, connections: { answered: 280, total: 300 } })).toEqual({ done: false });
    expect(warmupDecision({ ...flatState, connections: { answered: 300, total: 300 } })).toMatchObject({ done: true, steady: true });
    const atMax = warmupDecision({ ...flatState, maxSeconds: 10, connections: { answered: 280, total: 300 } });
    expect(atMax.done && atMax.reason).toMatch(/20 of 300 connections had no response yet/);
  });

  it('gives up at the maximum when nothing has come back at all', () => {
    const decision = warmupDecision({ okPerSecond: [0, 0, 0], meanLatencyMs: null, maxSeconds: 3 });
    expect(decision.done && decision.reason).toMatch(/no response yet/);
  });
});

describe('windowDecision', () => {
  const rule = { minSeconds: 10, maxSeconds: 30, minRoundTrips: 5, minResponses: 200 };

  it('closes at the minimum duration when that already holds enough round trips and responses', () => {
    expect(windowDecision({ seconds: 10, okResponses: 2000, failedResponses: 0, meanRoundTripMs: 50 }, rule)).toEqual({
      done: true,
      limitedBy: 'duration',
      note: null,
    });
    expect(windowDecision({ seconds: 9, okResponses: 2000, failedResponses: 0, meanRoundTripMs: 50 }, rule)).toEqual({ done: false });
  });

  it('stretches to hold enough round trips when latency is long', () => {
    expect(windowDecision({ seconds: 12, okResponses: 600, failedResponses: 0, meanRoundTripMs: 3000 }, rule)).toEqual({ done: false });
    expect(windowDecision({ seconds: 15, okResponses: 750, failedResponses: 0, meanRoundTripMs: 3000 }, rule)).toMatchObject({
      done: true,
      limitedBy: 'round trips',
    });
  });

  it('stretches for enough responses, and at the cap says what it lacks', () => {
    expect(windowDecision({ seconds: 12, okResponses: 150, failedResponses: 0, meanRoundTripMs: 50 }, rule)).toEqual({ done: false });
    const capped = windowDecision({ seconds: 30, okResponses: 150, failedResponses: 0, meanRoundTripMs: 12_000 }, rule);
    expect(capped).toMatchObject({ done: true, limitedBy: 'cap' });
    expect(capped.done && capped.note).toBe('window capped at 30 s with only 2.5 round trips (wanted 5) and 150 successful responses (wanted 200)');
  });

  it('closes at the minimum when every response failed, and not before, nor while none has come back', () => {
    const allFailed = { okResponses: 0, failedResponses: 4000, meanRoundTripMs: 5 };
    expect(windowDecision({ seconds: 9, ...allFailed }, rule)).toEqual({ done: false });
    expect(windowDecision({ seconds: 10, ...allFailed }, rule)).toEqual({
      done: true,
      limitedBy: 'duration',
      note: 'no successful response in 10 s (4000 failed): closed at its minimum',
    });
    // Nothing answered yet (a gateway that hangs): the window waits, up to its cap, for timeouts or answers.
    expect(windowDecision({ seconds: 10, okResponses: 0, failedResponses: 0, meanRoundTripMs: null }, rule)).toEqual({ done: false });
    // One success among the failures: the window grows as before, to measure it.
    expect(windowDecision({ seconds: 10, okResponses: 1, failedResponses: 4000, meanRoundTripMs: 5 }, rule)).toEqual({ done: false });
  });
});

describe('judgeWindowSteadiness', () => {
  it('calls a flat window steady', () => {
    expect(judgeWindowSteadiness(flat(20)).steady).toBe(true);
  });

  it('flags a window whose throughput was still climbing', () => {
    const judged = judgeWindowSteadiness(ramp(20, 20, 54));
    expect(judged.steady).toBe(false);
    expect(judged.reasons[0]).toMatch(/throughput trended \+\d+/);
  });

  it('flags lockstep batches (0, 266, 0, 248, …) as bursty', () => {
    const batches = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 0 : 257));
    const judged = judgeWindowSteadiness(batches);
    expect(judged.steady).toBe(false);
    expect(judged.reasons.join(' ')).toMatch(/answers in bursts/);
  });

  it('does not flag the counting noise of a low rate', () => {
    // About 5 responses a second: Poisson-like swings of ±2 are noise, not bursts.
    expect(judgeWindowSteadiness([5, 7, 3, 6, 4, 5, 8, 2, 5, 5, 6, 4, 3, 7, 5, 5, 4, 6, 5, 5]).steady).toBe(true);
  });
});

describe('cpuWarmupDecision', () => {
  // A fresh Mesh process's CPU ms per request, second by second (bench/results/compare-epochs/restart-cost-mesh.json, restart 2).
  const mesh = [24.0, 12.5, 16.83, 12.38, 9.81, 7.17, 8.33, 9.26, 7.35, 8.2, 7.75, 7.3, 6.85, 6.25, 7.25, 6.37, 6.15];

  it('waits while CPU per request falls by more than 5% from one 3-second span to the next', () => {
    for (let s = 1; s < 6; s++) expect(cpuWarmupDecision(mesh.slice(0, s), 20)).toEqual({ done: false });
    // 24.0, 12.5, 16.8 → 12.4, 9.8, 7.2: −39%.
    expect(cpuWarmupDecision(mesh.slice(0, 6), 20)).toEqual({ done: false });
  });

  it('ends once the last 3 seconds are no more than 5% below the 3 before', () => {
    const done = [6, 7, 8, 9, 10, 11, 12].find((s) => cpuWarmupDecision(mesh.slice(0, s), 20).done);
    // At 9 s: 8.3, 9.3, 7.4 (mean 8.31) against 12.4, 9.8, 7.2 (9.79) is −15%. At 10 s: 9.3, 7.4, 8.2 (8.27)
    // against 9.8, 7.2, 8.3 (8.44) is −2.0%.
    expect(done).toBe(10);
    expect(cpuWarmupDecision(mesh.slice(0, 10), 20)).toMatchObject({
      done: true,
      steady: true,
      reason: expect.stringMatching(/^CPU per request no longer falling: -2\.0% from the 3 s before to the last 3 s$/),
    });
  });

  it('never ends before 6 s, and ends unsteady at the longest warm-up while still falling', () => {
    expect(cpuWarmupDecision([10, 10, 10, 10, 10], 20)).toEqual({ done: false });
    const falling = Array.from({ length: 8 }, (_, i) => 30 * 0.8 ** i);
    expect(cpuWarmupDecision(falling, 8)).toMatchObject({ done: true, steady: false, reason: expect.stringMatching(/still falling after 8 s/) });
  });

  it('skips seconds without a response', () => {
    expect(cpuWarmupDecision([null, null, null, 10, 10, 10], 20)).toMatchObject({ done: false });
    expect(cpuWarmupDecision([12, null, 11, 10, 10, null, 10], 20)).toMatchObject({ done: true, steady: true });
  });
});
