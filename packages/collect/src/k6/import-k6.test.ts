/**
 * The k6 importer on sample lines in k6's JSON output format (one object per line: a Metric
 * declaration, then Points with time, value and tags): two load generators' files merge into one
 * step, counted once each, with latency from every validated response.
 */
import { describe, expect, it } from 'vitest';
import { K6Samples, k6Step } from './import-k6.js';

const t0 = Date.parse('2026-11-25T10:00:00Z');
const point = (metric: string, atMs: number, value: number, tags: Record<string, string> = {}) =>
  JSON.stringify({
    type: 'Point',
    metric,
    data: {
      time: new Date(t0 + atMs)
        .toISOString()
        .replace('Z', '123456+00:00')
        .replace(/\.(\d{3})123456/, '.$1123456'),
      value,
      tags: { gwprof_load: 'open:100:500', scenario: 'gwprof', ...tags },
    },
  });

/** A load generator's file: `perSecond` validated responses a second for `seconds`, latency `ms`, from `offsetMs`. */
function generator(seconds: number, perSecond: number, ms: number, offsetMs: number): string[] {
  const lines = [JSON.stringify({ type: 'Metric', metric: 'gwprof_ok', data: { type: 'counter', contains: 'default' } })];
  for (let s = 0; s < seconds; s++) {
    for (let i = 0; i < perSecond; i++) {
      const at = s * 1000 + offsetMs + (i * 1000) / perSecond;
      lines.push(point('iterations', at, 1), point('gwprof_ok', at, 1), point('gwprof_ok_duration', at, ms), point('http_req_duration', at, ms));
    }
  }
  return lines;
}

describe('gwprof import k6', () => {
  it('merges two execution segments into one step: rates add, latency is of every response', () => {
    const samples = new K6Samples();
    for (const line of [...generator(12, 50, 4, 0), ...generator(12, 50, 8, 1)]) samples.add(line);
    const step = k6Step(samples, { skipSec: 2, minSuccess: 1 });
    expect(step.load).toEqual({ kind: 'open', targetRps: 100, arrivals: 'uniform', maxInFlight: 500 });
    // 12 s of samples: 2 s skipped, the last (partial) second left out.
    expect(step.durationSec).toBe(9);
    expect(step.requests).toEqual({ total: 900, ok: 900, failed: 0, inFlightAtEnd: 0 });
    expect(step.rps).toBe(100);
    expect(step.latencyMs!.p50).toBeGreaterThanOrEqual(3.99);
    expect(step.latencyMs!.p50).toBeLessThanOrEqual(8.01);
    expect(step.latencyMs!.max).toBeCloseTo(8, 1);
    expect(step.rate).toMatchObject({ targetRps: 100, sentRps: 100, dropped: 0, scheduleKept: true });
    expect(step.status).toBe('ok');
  });

  it('counts failures by kind and dropped iterations, and fails a step below the success threshold', () => {
    const samples = new K6Samples();
    const lines = generator(6, 10, 5, 0);
    for (let s = 1; s < 5; s++)
      lines.push(point('gwprof_failed', s * 1000 + 500, 1, { kind: 'graphqlErrors' }), point('dropped_iterations', s * 1000 + 600, 3));
    for (const line of lines) samples.add(line);
    const step = k6Step(samples, { skipSec: 0, minSuccess: 1 });
    expect(step.failureCounts.graphqlErrors).toBe(4);
    expect(step.requests.failed).toBe(4);
    expect(step.rate!.dropped).toBe(12);
    expect(step.rate!.scheduleKept).toBe(false);
    expect(step.status).toBe('failed');
    expect(step.failures[0]).toMatch(/success rate/);
  });

  it('refuses files that are not from an exported script', () => {
    const samples = new K6Samples();
    samples.add(JSON.stringify({ type: 'Point', metric: 'http_reqs', data: { time: '2026-11-25T10:00:00Z', value: 1, tags: {} } }));
    expect(() => k6Step(samples, { skipSec: 0, minSuccess: 1 })).toThrow(/gwprof_load tag|no gwprof samples/);
    expect(() => samples.add('not json')).toThrow(/not k6 JSON output/);
  });
});
