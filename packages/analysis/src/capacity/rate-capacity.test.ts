import { describe, expect, it } from 'vitest';
import type { StepRecord } from '@gwprof/results';
import { analyzeRateCapacity, sloMisses } from './rate-capacity.js';

function rung(rate: number, okRps: number, p99: number, status: StepRecord['status'] = 'ok', successRate = 1): StepRecord {
  return {
    status,
    failures: status === 'failed' ? ['success rate below'] : [],
    rps: okRps,
    successRate,
    rate: { targetRps: rate, sentRps: rate, dropped: 0, lagMs: null, scheduleKept: status !== 'overloaded' },
    latencyMs: { mean: p99 / 3, p50: p99 / 2, p75: 0, p80: 0, p90: 0, p95: p99 / 1.2, p99, max: p99 },
  } as StepRecord;
}

describe('analyzeRateCapacity', () => {
  it('puts the knee between the last rate kept and the first whose throughput fell short', () => {
    const capacity = analyzeRateCapacity([rung(100, 100, 30), rung(50, 50, 25), rung(200, 150, 900)], null);
    expect(capacity.knee).toEqual({ lastKeptRps: 100, firstBrokenRps: 200, why: '150.0 successful req/s against 200.0 sent (200 offered)' });
  });

  it('judges keeping up against what was sent: a Poisson window that sent 8% short is no knee', () => {
    const short = { ...rung(100, 92, 30), rate: { targetRps: 100, sentRps: 92, dropped: 0, lagMs: null, scheduleKept: true } } as StepRecord;
    expect(analyzeRateCapacity([rung(50, 50, 25), short], null).knee).toBeNull();
  });

  it('also breaks where queueing dominates: the median over three times that of the lightest rate', () => {
    const capacity = analyzeRateCapacity([rung(50, 50, 20), rung(100, 99, 70)], null);
    expect(capacity.knee?.why).toBe('p50 35 ms, over 3× the 10 ms of the lightest rate');
  });

  it('does not call a p99 spike with a steady median a knee (one GC pause moves a p99)', () => {
    const spike = { ...rung(100, 99, 200), latencyMs: { mean: 12, p50: 11, p75: 0, p80: 0, p90: 0, p95: 20, p99: 200, max: 240 } } as StepRecord;
    expect(analyzeRateCapacity([rung(50, 50, 20), spike], null).knee).toBeNull();
  });

  it('says how an overloaded rate missed its schedule: sends dropped, or sends late', () => {
    const dropped = rung(200, 199, 30, 'overloaded');
    dropped.rate = { ...dropped.rate!, dropped: 42 };
    const late = rung(200, 199, 30, 'overloaded');
    late.rate = { ...late.rate!, lagMs: { p50: 3, p99: 48.6, max: 90 } };
    expect(analyzeRateCapacity([rung(100, 100, 30), dropped], null).knee?.why).toBe(
      'the offered rate could not be kept (42 sends dropped at the in-flight cap)',
    );
    expect(analyzeRateCapacity([rung(100, 100, 30), late], null).knee?.why).toBe('the offered rate could not be kept (sends late: p99 lag 49 ms)');
  });

  it('finds the highest rate meeting every target of the SLO', () => {
    const slo = { latencyMs: { p99: 100 }, minSuccess: 0.9999 };
    const capacity = analyzeRateCapacity([rung(50, 50, 40), rung(100, 100, 90), rung(150, 149, 180), rung(200, 150, 900, 'overloaded')], slo);
    expect(capacity.maxRateUnderSlo).toBe(100);
    expect(sloMisses(rung(150, 149, 180), slo)).toEqual(['p99 180 ms > 100 ms']);
    expect(sloMisses(rung(100, 100, 90, 'ok', 0.999), slo)).toEqual(['success 99.900% < 99.990%']);
  });

  it('says when the ladder did not reach the knee, or started past it', () => {
    expect(analyzeRateCapacity([rung(50, 50, 20), rung(100, 100, 21)], null).notes[0]).toMatch(/every rate up to 100 req\/s was kept: step higher/);
    expect(analyzeRateCapacity([rung(50, 20, 20)], null).notes[0]).toMatch(/the lightest rate already broke/);
  });
});
