/**
 * The gateway's own phases over a step's traced requests (the spans it exported over OTLP), and how
 * its client spans to subgraphs agree with the counting proxy's view of the same calls.
 */
import type { FetchAgreement, GatewaySpan, GatewaySpanSplit, TraceSample, TracedCall, TracedRequest } from '@gwprof/results';

/** Phases listed per step, longest first. */
export const PHASES_SHOWN = 12;

/** Null when the gateway was not told to export spans. */
export function gatewaySpanSplit(sample: TraceSample): GatewaySpanSplit | null {
  if (!sample.spans) return null;
  const withSpans = sample.requests.filter((request) => (request.spans?.length ?? 0) > 0);
  const note = spansNote(sample, withSpans.length);
  if (withSpans.length === 0) return { requests: 0, phasesMs: [], fetchAgreement: null, note };
  const n = withSpans.length;
  const totals = new Map<string, { kind: GatewaySpan['kind']; ms: number; count: number }>();
  for (const request of withSpans)
    for (const span of request.spans!) {
      const total = totals.get(span.name) ?? { kind: span.kind, ms: 0, count: 0 };
      total.ms += span.endMs - span.startMs;
      total.count++;
      totals.set(span.name, total);
    }
  const phasesMs = [...totals.entries()]
    .map(([name, total]) => ({ name, kind: total.kind, meanMs: round(total.ms / n), perRequest: round(total.count / n, 2) }))
    .sort((a, b) => b.meanMs - a.meanMs || a.name.localeCompare(b.name))
    .slice(0, PHASES_SHOWN);
  return { requests: n, phasesMs, fetchAgreement: fetchAgreement(withSpans), note };
}

function spansNote(sample: TraceSample, withSpans: number): string | null {
  const reception = sample.spans!;
  const lost = reception.dropped + reception.rejected > 0 ? `; ${reception.dropped} spans dropped, ${reception.rejected} exports not decoded` : '';
  if (withSpans === 0) return `the gateway exported no span of a traced request (${reception.received} spans received)${lost}`;
  if (withSpans < sample.requests.length || lost)
    return `${sample.requests.length - withSpans} of ${sample.requests.length} traced requests without spans${lost}`;
  return null;
}

/**
 * Pairs each request's innermost client spans (a client span with no client span under it: the
 * HTTP call, not a wrapper around it) with the calls the subgraphs saw, per subgraph in start
 * order, where the request has as many of one as of the other for every subgraph (else which span
 * is which call is a guess, and the request is left out). Spans that name no subgraph are paired
 * with all the request's calls in start order.
 */
export function fetchAgreement(requests: readonly TracedRequest[]): FetchAgreement | null {
  const diffs: number[] = [];
  const offsets: number[] = [];
  for (const request of requests)
    for (const [span, call] of pairs(request)) {
      diffs.push(span.endMs - span.startMs - (call.endMs - call.startMs));
      offsets.push(call.startMs - span.startMs);
    }
  if (diffs.length === 0) return null;
  return {
    pairs: diffs.length,
    medianDiffMs: round(quantile(diffs, 0.5)),
    p90AbsDiffMs: round(quantile(diffs.map(Math.abs), 0.9)),
    medianStartOffsetMs: round(quantile(offsets, 0.5)),
  };
}

function pairs(request: TracedRequest): [GatewaySpan, TracedCall][] {
  const spans = request.spans ?? [];
  const hasClientBelow = clientAncestors(spans);
  const clients = spans.filter((span, i) => span.kind === 'client' && !hasClientBelow.has(i));
  if (clients.length === 0 || clients.length !== request.calls.length) return [];
  const named = clients.every((span) => span.subgraph !== undefined);
  const keyOfSpan = (span: GatewaySpan): string => (named ? span.subgraph! : '');
  const keyOfCall = (call: TracedCall): string => (named ? call.subgraph : '');
  const found: [GatewaySpan, TracedCall][] = [];
  for (const key of new Set(clients.map(keyOfSpan))) {
    const ofSpans = clients.filter((span) => keyOfSpan(span) === key).sort((a, b) => a.startMs - b.startMs);
    const ofCalls = request.calls.filter((call) => keyOfCall(call) === key).sort((a, b) => a.startMs - b.startMs);
    if (ofSpans.length !== ofCalls.length) return [];
    for (const [i, span] of ofSpans.entries()) found.push([span, ofCalls[i]!]);
  }
  return found;
}

/**
 * The spans with a client span anywhere below them, not only as a child: Hive Router puts an
 * internal span (`http.inflight`) between its subgraph operation and its HTTP client span.
 */
function clientAncestors(spans: readonly GatewaySpan[]): Set<number> {
  const found = new Set<number>();
  for (const span of spans) {
    if (span.kind !== 'client') continue;
    // Bounded by the spans' count: a parent index that loops cannot hold the walk.
    for (let parent = span.parent, steps = 0; parent !== null && steps < spans.length; parent = spans[parent]?.parent ?? null, steps++) found.add(parent);
  }
  return found;
}

/** Nearest rank. */
function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

function round(value: number, digits = 3): number {
  return Number(value.toFixed(digits));
}
