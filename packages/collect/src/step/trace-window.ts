/**
 * A traced step's window (`--trace`): the engine samples requests while it runs, then the subgraphs'
 * logs are taken and each sampled request gets the calls its trace id reached, in its own time
 * (ms after its latency began).
 */
import type { TraceSample, TracedCall } from '@gwprof/results';
import type { CallLogPage } from '@gwprof/subgraph-server';
import type { AnsweredTrace, RequestTraces, TraceSampling } from '../load/request-traces.js';
import type { RunningSubgraphs } from '../services/subgraphs.js';

/** Samples the window's requests from `open` on; `close` takes the subgraphs' calls and joins them. */
export function openTraceWindow(traces: RequestTraces, sampling: TraceSampling, subgraphs: RunningSubgraphs): { close(): Promise<TraceSample> } {
  traces.startSampling();
  return {
    async close() {
      const answered = traces.stopSampling();
      const pages = subgraphs.takeCalls ? await subgraphs.takeCalls() : Object.fromEntries(Object.keys(subgraphs.urls).map((name) => [name, null]));
      return traceSample(answered, pages, sampling);
    },
  };
}

/** The sampled requests with the calls that carried their trace ids; calls of other traces are left out. */
export function traceSample(answered: readonly AnsweredTrace[], pages: Record<string, CallLogPage | null>, sampling: TraceSampling): TraceSample {
  const callsOf = new Map<string, TracedCall[]>(answered.map((trace) => [trace.traceId, []]));
  const startOf = new Map(answered.map((trace) => [trace.traceId, trace.start]));
  let droppedCalls = 0;
  for (const [subgraph, page] of Object.entries(pages)) {
    if (!page) continue;
    droppedCalls += page.dropped;
    for (const call of page.calls) {
      const start = startOf.get(call.traceId);
      if (start === undefined) continue;
      callsOf.get(call.traceId)!.push({ subgraph, startMs: micros(call.start - start), endMs: micros(call.end - start), bytes: call.bytes });
    }
  }
  return {
    sampling: { ...sampling },
    requests: answered.map((trace) => ({
      traceId: trace.traceId,
      latencyMs: micros(trace.end - trace.start),
      calls: callsOf.get(trace.traceId)!.sort((a, b) => a.startMs - b.startMs),
    })),
    unlogged: Object.keys(pages).filter((name) => pages[name] === null),
    droppedCalls,
  };
}

function micros(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
