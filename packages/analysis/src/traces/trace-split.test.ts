import type { TraceSample, TracedCall, TracedRequest } from '@gwprof/results';
import { describe, expect, it } from 'vitest';
import { splitRequest } from './request-split.js';
import { stepTraceSplit } from './trace-split.js';

const call = (subgraph: string, startMs: number, endMs: number): TracedCall => ({ subgraph, startMs, endMs, bytes: 100 });
const request = (latencyMs: number, calls: TracedCall[], traceId = 'a'.repeat(32)): TracedRequest => ({ traceId, latencyMs, calls });
const sum = (parts: ReturnType<typeof splitRequest>): number =>
  parts.beforeFirstCallMs + [...parts.criticalPathMs.values()].reduce((a, b) => a + b, 0) + parts.gapsMs + parts.afterLastCallMs;

describe('one request split', () => {
  it('puts calls in series end to end on the critical path, with the gaps between them', () => {
    // 0–5 gateway, 5–25 accounts, 25–28 gap, 28–58 reviews, 58–60 gateway.
    const parts = splitRequest(request(60, [call('accounts', 5, 25), call('reviews', 28, 58)]));
    expect(parts.beforeFirstCallMs).toBe(5);
    expect(Object.fromEntries(parts.criticalPathMs)).toEqual({ accounts: 20, reviews: 30 });
    expect(parts.gapsMs).toBe(3);
    expect(parts.afterLastCallMs).toBe(2);
    expect(parts.parallelMs).toBe(0);
    expect(sum(parts)).toBe(60);
  });

  it('puts only the last-finishing of parallel calls on the critical path; the others show in their call time and the parallel time', () => {
    // products 10–50 and inventory 10–30 in parallel: the gateway waits on products.
    const parts = splitRequest(request(55, [call('inventory', 10, 30), call('products', 10, 50)]));
    expect(Object.fromEntries(parts.criticalPathMs)).toEqual({ products: 40 });
    expect(Object.fromEntries(parts.callMs)).toEqual({ inventory: 20, products: 40 });
    expect(parts.parallelMs).toBe(20);
    expect(parts.gapsMs).toBe(0);
    expect(sum(parts)).toBe(55);
  });

  it('follows overlapping calls back to the one in flight when the later one started', () => {
    // accounts 0–30, reviews 20–50: reviews is waited on from 20 to 50, accounts before that.
    const parts = splitRequest(request(50, [call('accounts', 0, 30), call('reviews', 20, 50)]));
    expect(Object.fromEntries(parts.criticalPathMs)).toEqual({ accounts: 20, reviews: 30 });
    expect(parts.parallelMs).toBe(10);
    expect(sum(parts)).toBe(50);
  });

  it('clips calls to the request and reports what it clipped, the parts still adding up to the latency', () => {
    const parts = splitRequest(request(40, [call('accounts', -0.5, 10), call('reviews', 15, 40.25)]));
    expect(parts.clippedMs).toBeCloseTo(0.75, 9);
    expect(parts.beforeFirstCallMs).toBe(0);
    expect(parts.afterLastCallMs).toBe(0);
    expect(sum(parts)).toBeCloseTo(40, 9);
  });

  it('counts calls that only touch as in series, not in parallel', () => {
    const parts = splitRequest(request(20, [call('a', 0, 10), call('b', 10, 20)]));
    expect(parts.parallelMs).toBe(0);
    expect(Object.fromEntries(parts.criticalPathMs)).toEqual({ a: 10, b: 10 });
  });
});

describe("a step's split", () => {
  const sample = (requests: TracedRequest[], unlogged: string[] = []): TraceSample => ({
    sampling: { perSecond: 50, perWindow: 1000 },
    requests,
    unlogged,
    droppedCalls: 0,
  });

  it('means over the requests with calls, the p99 set at or above the 99th percentile, the slowest first', () => {
    const requests = Array.from({ length: 100 }, (_, i) => request(10 + i, [call('accounts', 2, 6)], i.toString(16).padStart(32, '0')));
    requests.push(request(5, [], 'f'.repeat(32)));
    const split = stepTraceSplit('c10', sample(requests));
    expect(split.sampled).toBe(101);
    expect(split.withoutCalls).toBe(1);
    expect(split.all!.requests).toBe(100);
    expect(split.all!.latencyMs).toBeCloseTo(59.5, 9);
    expect(split.all!.criticalPathMs).toEqual({ accounts: 4 });
    expect(split.all!.beforeFirstCallMs).toBe(2);
    expect(split.all!.afterLastCallMs).toBeCloseTo(59.5 - 6, 9);
    // Latencies 10…109: the 99th percentile by nearest rank is 108.
    expect(split.p99!.requests).toBe(2);
    expect(split.p99!.latencyMs).toBe(108.5);
    expect(split.slowest.map((r) => r.latencyMs)).toEqual([109, 108, 107, 106, 105]);
    expect(split.missing).toBeNull();
  });

  it('says the trace context was not forwarded when no traced request reached a subgraph', () => {
    const split = stepTraceSplit('c10', sample([request(10, []), request(12, [])]));
    expect(split.all).toBeNull();
    expect(split.missing).toBe("no trace context forwarded: none of the 2 traced requests' trace ids reached a subgraph (a step at -c 1 splits by timing)");
    expect(stepTraceSplit('c10', sample([request(10, [])], ['accounts'])).missing).toBe('calls to accounts not logged');
  });
});
