/**
 * The gateway's own spans (received over OTLP) placed in the traced requests they belong to, by
 * trace id, on each request's own time axis. Spans carry the gateway's wall clock; the engine's
 * times are the machine's monotonic clock: one offset between the two, read by the harness, maps them.
 */
import type { GatewaySpan, SpanReception, TraceSample } from '@gwprof/results';
import type { AnsweredTrace } from '../load/request-traces.js';
import type { ExportedSpan } from '../services/otlp-spans.js';

const KIND: Record<number, GatewaySpan['kind']> = { 1: 'internal', 2: 'server', 3: 'client' };

/** `sample` with each request's spans; `wallMinusMonotonicMs`: the wall clock's ms minus the monotonic clock's, at one moment. */
export function withGatewaySpans(
  sample: TraceSample,
  answered: readonly AnsweredTrace[],
  taken: { spans: readonly ExportedSpan[]; dropped: number; rejected: number },
  wallMinusMonotonicMs: number,
): TraceSample {
  const byTrace = new Map<string, ExportedSpan[]>();
  for (const span of taken.spans) {
    const list = byTrace.get(span.traceId);
    if (list) list.push(span);
    else byTrace.set(span.traceId, [span]);
  }
  const startOf = new Map(answered.map((trace) => [trace.traceId, trace.start]));
  let matched = 0;
  const requests = sample.requests.map((request) => {
    const spans = byTrace.get(request.traceId);
    const start = startOf.get(request.traceId);
    if (!spans || start === undefined) return request;
    matched += spans.length;
    return { ...request, spans: placed(spans, start + wallMinusMonotonicMs) };
  });
  const reception: SpanReception = { received: taken.spans.length, matched, dropped: taken.dropped, rejected: taken.rejected };
  return { ...sample, requests, spans: reception };
}

/** A trace's spans in start order, ms after `originWallMs`, each with its parent's index and the subgraph it or an ancestor names. */
function placed(spans: readonly ExportedSpan[], originWallMs: number): GatewaySpan[] {
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  const sorted = spans
    .map((span) => ({ span, startMs: micros(wallMs(span.startUnixNano) - originWallMs), depth: depthOf(span, byId) }))
    .sort((a, b) => a.startMs - b.startMs || a.depth - b.depth);
  const indexOf = new Map(sorted.map(({ span }, i) => [span.spanId, i]));
  return sorted.map(({ span, startMs, depth }) => {
    const subgraph = subgraphOf(span, byId);
    return {
      name: span.name,
      kind: KIND[span.kind] ?? 'other',
      startMs,
      endMs: micros(wallMs(span.endUnixNano) - originWallMs),
      depth,
      parent: indexOf.get(span.parentSpanId) ?? null,
      ...(subgraph ? { subgraph } : {}),
    };
  });
}

/** ns since the epoch as ms, to the µs (a double holds µs since the epoch exactly). */
function wallMs(unixNano: bigint): number {
  return Number(unixNano / 1000n) / 1000;
}

function depthOf(span: ExportedSpan, byId: ReadonlyMap<string, ExportedSpan>): number {
  let depth = 0;
  for (let parent = byId.get(span.parentSpanId); parent && depth < 64; parent = byId.get(parent.parentSpanId)) depth++;
  return depth;
}

function subgraphOf(span: ExportedSpan, byId: ReadonlyMap<string, ExportedSpan>): string | undefined {
  for (let at: ExportedSpan | undefined = span, hops = 0; at && hops < 64; at = byId.get(at.parentSpanId), hops++)
    for (const [key, value] of Object.entries(at.attributes)) if (key.endsWith('subgraph.name') && typeof value === 'string') return value;
  return undefined;
}

function micros(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/**
 * The wall clock's ms minus the monotonic clock's, read at the moment Date.now() ticks over to a
 * new millisecond, so the offset is good to a few µs rather than Date.now()'s 1 ms.
 */
export function wallMinusMonotonicMs(): number {
  const first = Date.now();
  let now = first;
  let mono = 0;
  while (now === first) {
    mono = Number(process.hrtime.bigint()) / 1e6;
    now = Date.now();
  }
  return now - mono;
}
