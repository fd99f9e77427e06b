/**
 * A traced step's window (`--trace`): the engine samples requests while it runs, then the subgraphs'
 * logs are taken and each sampled request gets the calls its trace id reached, in its own time
 * (ms after its latency began).
 */
import type { TraceSample, TracedCall } from '@gwprof/results';
import { type CallLogPage, type LoggedCall, machineMs } from '@gwprof/subgraph-server';
import type { AnsweredTrace, RequestTraces, TraceSampling } from '../load/request-traces.js';
import type { OtlpReceiver } from '../services/otlp-receiver.js';
import type { RunningSubgraphs } from '../services/subgraphs.js';
import { wallMinusMonotonicMs, withGatewaySpans } from './trace-spans.js';

export interface TraceWindow {
  /** Stops sampling, takes the subgraphs' calls and joins them. */
  close(): Promise<TraceSample>;
  /** After close: the closed sample with the gateway's spans, once its exports have settled; the sample as it was without a receiver. */
  withSpans(sample: TraceSample): Promise<TraceSample>;
}

/**
 * Samples the window's requests from `open` on; `otlp`: the receiver the gateway exports its spans
 * to, if any. `sequential`: one request at a time (c=1): the subgraphs also log calls without a
 * traceparent, for a gateway that does not forward it, and they are placed by timing.
 */
export function openTraceWindow(
  traces: RequestTraces,
  sampling: TraceSampling,
  subgraphs: RunningSubgraphs,
  otlp: OtlpReceiver | null = null,
  sequential = false,
): TraceWindow {
  traces.startSampling();
  // Spans from before the window (no request was sampled then) are not its own.
  otlp?.take();
  const untracedSince = sequential && subgraphs.takeCalls ? subgraphs.takeCalls(true).then(() => machineMs()) : null;
  let answered: AnsweredTrace[] = [];
  return {
    async close() {
      answered = traces.stopSampling();
      const since = untracedSince ? await untracedSince : null;
      const pages = subgraphs.takeCalls
        ? await subgraphs.takeCalls(since === null ? undefined : false)
        : Object.fromEntries(Object.keys(subgraphs.urls).map((name) => [name, null]));
      return traceSample(answered, pages, sampling, since);
    },
    async withSpans(sample) {
      if (!otlp) return sample;
      await spansSettled(otlp);
      return withGatewaySpans(sample, answered, otlp.take(), wallMinusMonotonicMs());
    },
  };
}

/**
 * Waits for the window's spans: gateways send theirs in batches (every 200 ms to 1 s as gwprof
 * starts them), and once sampling stopped no new sampled request is sent. Done when none came for
 * QUIET_MS, at the latest after SETTLE_MAX_MS.
 */
const QUIET_MS = 1_500;
const SETTLE_MAX_MS = 6_000;

async function spansSettled(otlp: OtlpReceiver): Promise<void> {
  const began = performance.now();
  for (;;) {
    const now = performance.now();
    const last = otlp.lastSpanAt();
    if (now - Math.max(last, began) >= QUIET_MS || now - began >= SETTLE_MAX_MS) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The sampled requests with the calls that carried their trace ids; calls of other traces are left
 * out. `timingSince`: requests were sent one at a time and the subgraphs logged calls without a
 * traceparent from then on (monotonic ms): where no call carried a sampled trace id, each such call
 * goes to the sampled request in flight when it arrived, and requests sent before then are left out.
 */
export function traceSample(
  answered: readonly AnsweredTrace[],
  pages: Record<string, CallLogPage | null>,
  sampling: TraceSampling,
  timingSince: number | null = null,
): TraceSample {
  const callsOf = new Map<string, TracedCall[]>(answered.map((trace) => [trace.traceId, []]));
  const startOf = new Map(answered.map((trace) => [trace.traceId, trace.start]));
  let droppedCalls = 0;
  const untraced: { subgraph: string; call: LoggedCall }[] = [];
  for (const [subgraph, page] of Object.entries(pages)) {
    if (!page) continue;
    droppedCalls += page.dropped;
    for (const call of page.calls) {
      if (call.traceId === '') untraced.push({ subgraph, call });
      const start = startOf.get(call.traceId);
      if (start === undefined) continue;
      callsOf.get(call.traceId)!.push(tracedCall(subgraph, call, start));
    }
  }
  const byTiming = timingSince !== null && untraced.length > 0 && [...callsOf.values()].every((calls) => calls.length === 0);
  const requests = byTiming ? answered.filter((trace) => trace.start >= timingSince) : answered;
  if (byTiming)
    for (const { subgraph, call } of untraced) {
      const owner = requests.find((trace) => call.start >= trace.start && call.start <= trace.end);
      if (owner) callsOf.get(owner.traceId)!.push(tracedCall(subgraph, call, owner.start));
    }
  return {
    sampling: { ...sampling },
    requests: requests.map((trace) => ({
      traceId: trace.traceId,
      latencyMs: micros(trace.end - trace.start),
      calls: callsOf.get(trace.traceId)!.sort((a, b) => a.startMs - b.startMs),
    })),
    unlogged: Object.keys(pages).filter((name) => pages[name] === null),
    droppedCalls,
    ...(byTiming ? { attribution: 'timing' as const } : {}),
  };
}

function tracedCall(subgraph: string, call: LoggedCall, requestStart: number): TracedCall {
  return { subgraph, startMs: micros(call.start - requestStart), endMs: micros(call.end - requestStart), bytes: call.bytes };
}

function micros(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
