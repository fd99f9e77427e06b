/** A step's traced requests as where their time went: means over all of them and over the slowest (p99). */
import type { StepRecord, StepTraceSplit, TraceSample, TraceSplit, TracedRequest } from '@gwprof/results';
import { gatewaySpanSplit } from './gateway-spans.js';
import { type RequestParts, splitRequest } from './request-split.js';

/** Waterfalls drawn per step. */
export const SLOWEST_SHOWN = 5;

/** Every traced step's split, in step order. */
export function traceSplits(steps: readonly StepRecord[]): StepTraceSplit[] {
  return steps.filter((step) => step.traces).map((step) => stepTraceSplit(step.id, step.traces!));
}

export function stepTraceSplit(stepId: string, sample: TraceSample): StepTraceSplit {
  const withCalls = sample.requests.filter((request) => request.calls.length > 0);
  const parts = withCalls.map(splitRequest);
  const threshold = percentile(
    withCalls.map((request) => request.latencyMs),
    0.99,
  );
  const p99 = parts.filter((part) => part.latencyMs >= threshold);
  return {
    stepId,
    sampled: sample.requests.length,
    withoutCalls: sample.requests.length - withCalls.length,
    all: meanSplit(parts),
    p99: meanSplit(p99),
    slowest: [...withCalls].sort((a, b) => b.latencyMs - a.latencyMs).slice(0, SLOWEST_SHOWN),
    missing: missing(sample, withCalls),
    ...(sample.spans ? { gatewaySpans: gatewaySpanSplit(sample)! } : {}),
  };
}

function missing(sample: TraceSample, withCalls: readonly TracedRequest[]): string | null {
  const unlogged = sample.unlogged.length > 0 ? `calls to ${sample.unlogged.join(', ')} not logged` : null;
  if (sample.requests.length === 0) return 'no traced request was answered in the window';
  if (withCalls.length === 0)
    return (
      unlogged ??
      `no trace context forwarded: none of the ${sample.requests.length} traced requests' trace ids reached a subgraph (a step at -c 1 splits by timing)`
    );
  const timing =
    sample.attribution === 'timing'
      ? 'no trace context forwarded: split by timing, one request at a time (c=1), each subgraph call given to the request in flight when it arrived'
      : null;
  return [timing, unlogged].filter((part) => part !== null).join('; ') || null;
}

/** Means of the parts; null for no requests. */
export function meanSplit(parts: readonly RequestParts[]): TraceSplit | null {
  if (parts.length === 0) return null;
  const n = parts.length;
  const mean = (pick: (part: RequestParts) => number): number => round(parts.reduce((sum, part) => sum + pick(part), 0) / n);
  const meanBy = (pick: (part: RequestParts) => Map<string, number>): Record<string, number> => {
    const names = [...new Set(parts.flatMap((part) => [...pick(part).keys()]))].sort();
    return Object.fromEntries(names.map((name) => [name, mean((part) => pick(part).get(name) ?? 0)]));
  };
  return {
    requests: n,
    latencyMs: mean((part) => part.latencyMs),
    beforeFirstCallMs: mean((part) => part.beforeFirstCallMs),
    criticalPathMs: meanBy((part) => part.criticalPathMs),
    gapsMs: mean((part) => part.gapsMs),
    afterLastCallMs: mean((part) => part.afterLastCallMs),
    callMs: meanBy((part) => part.callMs),
    parallelMs: mean((part) => part.parallelMs),
    callsPerRequest: round(parts.reduce((sum, part) => sum + part.calls, 0) / n, 2),
    maxClippedMs: round(Math.max(...parts.map((part) => part.clippedMs))),
  };
}

/** Nearest rank; Infinity for no values (no request reaches it). */
function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.POSITIVE_INFINITY;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

function round(value: number, digits = 3): number {
  return Number(value.toFixed(digits));
}
