/**
 * Where one traced request's time went, from its subgraph calls: the time before the first call,
 * the critical path through the calls (by subgraph), the gaps with no call in flight, and the time
 * after the last answer. The parts add up to the latency by construction; calls are first clipped
 * to the request, and what was clipped (the processes' clocks disagreeing) is reported.
 */
import type { TracedCall, TracedRequest } from '@gwprof/results';

export interface RequestParts {
  latencyMs: number;
  beforeFirstCallMs: number;
  criticalPathMs: Map<string, number>;
  gapsMs: number;
  afterLastCallMs: number;
  callMs: Map<string, number>;
  parallelMs: number;
  calls: number;
  /** Call time that lay outside the request's latency, clipped off. */
  clippedMs: number;
}

interface Interval {
  subgraph: string;
  start: number;
  end: number;
}

/** The parts of a request with at least one call. */
export function splitRequest(request: TracedRequest): RequestParts {
  const latency = request.latencyMs;
  const calls = request.calls.map((call) => clip(call, latency));
  const clippedMs = request.calls.reduce((sum, call, i) => sum + (call.endMs - call.startMs) - (calls[i]!.end - calls[i]!.start), 0);
  const firstStart = Math.min(...calls.map((call) => call.start));
  const lastEnd = Math.max(...calls.map((call) => call.end));
  const { critical, gaps } = criticalPath(calls, firstStart, lastEnd);
  const callMs = new Map<string, number>();
  for (const call of calls) add(callMs, call.subgraph, call.end - call.start);
  return {
    latencyMs: latency,
    beforeFirstCallMs: firstStart,
    criticalPathMs: critical,
    gapsMs: gaps,
    afterLastCallMs: latency - lastEnd,
    callMs,
    parallelMs: overlapped(calls),
    calls: calls.length,
    clippedMs,
  };
}

function clip(call: TracedCall, latency: number): Interval {
  const start = Math.min(Math.max(call.startMs, 0), latency);
  return { subgraph: call.subgraph, start, end: Math.min(Math.max(call.endMs, start), latency) };
}

/**
 * Walks back from the last answer: the call the gateway was waiting on at a moment is the one in
 * flight then that finished last; before it started, the one that finished last before that, and
 * so on. Time on the way with no call in flight is a gap.
 */
function criticalPath(calls: readonly Interval[], firstStart: number, lastEnd: number): { critical: Map<string, number>; gaps: number } {
  const critical = new Map<string, number>();
  let gaps = 0;
  let t = lastEnd;
  while (t > firstStart) {
    let chosen: Interval | null = null;
    let reach = Number.NEGATIVE_INFINITY;
    for (const call of calls) {
      if (call.start >= t) continue;
      const callReach = Math.min(call.end, t);
      if (callReach > reach || (callReach === reach && chosen !== null && call.start < chosen.start)) {
        chosen = call;
        reach = callReach;
      }
    }
    // firstStart is some call's start, so one always starts before t.
    if (!chosen) break;
    gaps += t - reach;
    add(critical, chosen.subgraph, reach - chosen.start);
    t = chosen.start;
  }
  return { critical, gaps };
}

/** Time with two or more calls in flight. */
function overlapped(calls: readonly Interval[]): number {
  const edges = calls.flatMap((call) => [
    { at: call.start, step: 1 },
    { at: call.end, step: -1 },
  ]);
  // Ends before starts at the same moment: calls that only touch do not overlap.
  edges.sort((a, b) => a.at - b.at || a.step - b.step);
  let inFlight = 0;
  let since = 0;
  let total = 0;
  for (const edge of edges) {
    if (inFlight >= 2) total += edge.at - since;
    inFlight += edge.step;
    since = edge.at;
  }
  return total;
}

function add(map: Map<string, number>, key: string, value: number): void {
  map.set(key, (map.get(key) ?? 0) + value);
}
