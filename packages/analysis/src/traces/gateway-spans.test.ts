import type { GatewaySpan, TraceSample, TracedRequest } from '@gwprof/results';
import { describe, expect, it } from 'vitest';
import { fetchAgreement, gatewaySpanSplit } from './gateway-spans.js';

function span(name: string, kind: GatewaySpan['kind'], startMs: number, endMs: number, parent: number | null, subgraph?: string): GatewaySpan {
  return { name, kind, startMs, endMs, depth: parent === null ? 0 : 1, parent, ...(subgraph ? { subgraph } : {}) };
}

/** A request of 50 ms: parse 1 ms, an execute with two subgraph calls, each wrapped in a client span over the HTTP client span. */
function request(traceId: string, shift = 0): TracedRequest {
  return {
    traceId,
    latencyMs: 50,
    calls: [
      { subgraph: 'reviews', startMs: 12 + shift, endMs: 40 + shift, bytes: 10 },
      { subgraph: 'accounts', startMs: 3, endMs: 8, bytes: 10 },
    ],
    spans: [
      span('POST /graphql', 'server', 1, 49, null),
      span('parse', 'internal', 1, 2, 0),
      span('execute', 'internal', 2, 48, 0),
      span('subgraph accounts', 'client', 2, 9, 2, 'accounts'),
      span('http', 'client', 2.5, 8.5, 3, 'accounts'),
      span('subgraph reviews', 'client', 10, 42, 2, 'reviews'),
      span('http', 'client', 11, 41, 5, 'reviews'),
    ],
  };
}

function sample(requests: TracedRequest[], received = 7 * requests.length): TraceSample {
  return {
    sampling: { perSecond: 25, perWindow: 500 },
    requests,
    unlogged: [],
    droppedCalls: 0,
    spans: { received, matched: received, dropped: 0, rejected: 0 },
  };
}

describe("the gateway's own spans", () => {
  it('gives the mean time per request by span name, longest first, and how many per request', () => {
    const split = gatewaySpanSplit(sample([request('a'), request('b')]))!;
    expect(split.requests).toBe(2);
    expect(split.phasesMs[0]).toEqual({ name: 'POST /graphql', kind: 'server', meanMs: 48, perRequest: 1 });
    expect(split.phasesMs.find((phase) => phase.name === 'http')).toEqual({ name: 'http', kind: 'client', meanMs: 36, perRequest: 2 });
    expect(split.phasesMs.find((phase) => phase.name === 'parse')?.meanMs).toBe(1);
    expect(split.note).toBeNull();
  });

  it('pairs the innermost client spans with the calls of the same subgraph: durations and start offsets', () => {
    const agreement = fetchAgreement([request('a')])!;
    // accounts: span 6 ms, call 5 ms; reviews: span 30 ms, call 28 ms.
    expect(agreement.pairs).toBe(2);
    expect(agreement.medianDiffMs).toBe(1);
    expect(agreement.p90AbsDiffMs).toBe(2);
    expect(agreement.medianStartOffsetMs).toBe(0.5);
  });

  it('takes a client span with a client span further below it (through an internal one) as a wrapper, not a call', () => {
    const nested = request('a');
    // As Hive Router nests them: subgraph operation (client) > http.inflight (internal) > http.client (client).
    nested.spans = [
      span('http.server', 'server', 1, 49, null),
      span('graphql.execute', 'internal', 2, 48, 0),
      span('graphql.subgraph.operation', 'client', 2, 9, 1, 'accounts'),
      span('http.inflight', 'internal', 2.2, 8.8, 2, 'accounts'),
      span('http.client', 'client', 2.5, 8.5, 3, 'accounts'),
      span('graphql.subgraph.operation', 'client', 10, 42, 1, 'reviews'),
      span('http.inflight', 'internal', 10.5, 41.5, 5, 'reviews'),
      span('http.client', 'client', 11, 41, 6, 'reviews'),
    ];
    expect(fetchAgreement([nested])).toEqual(fetchAgreement([request('a')]));
    expect(fetchAgreement([nested])!.pairs).toBe(2);
  });

  it('leaves out a request whose spans and calls do not pair one to one', () => {
    const extra = request('a');
    extra.calls.push({ subgraph: 'reviews', startMs: 44, endMs: 45, bytes: 1 });
    expect(fetchAgreement([extra])).toBeNull();
  });

  it('says so when the gateway was told to export and no traced request got spans', () => {
    const bare = { ...request('a'), spans: [] };
    const split = gatewaySpanSplit(sample([bare], 0))!;
    expect(split.requests).toBe(0);
    expect(split.note).toMatch(/exported no span of a traced request \(0 spans received\)/);
  });

  it('is absent when the gateway was not told to export', () => {
    const { spans: _spans, ...untold } = sample([request('a')]);
    expect(gatewaySpanSplit(untold)).toBeNull();
  });
});
