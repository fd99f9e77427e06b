/**
 * Where a request's time went (`--trace`): the raw sample a step records (the traced requests and
 * the subgraph calls each one's trace id reached) and what analysis derives from it.
 */

/** One subgraph call of a traced request, as the subgraph (or gwprof's counting proxy) saw it. */
export interface TracedCall {
  subgraph: string;
  /** ms after the request's latency began (sub-millisecond; the engine's and the subgraph's clocks are the machine's). */
  startMs: number;
  endMs: number;
  /** Bytes of the subgraph's answer. */
  bytes: number;
}

/** One span the gateway itself exported over OTLP for a traced request (its own phases: parse, validate, plan, execute, fetch…). */
export interface GatewaySpan {
  /** As the gateway names it. */
  name: string;
  /** OTLP's span kind: server (the request), client (an outgoing call), internal (a phase). */
  kind: 'server' | 'client' | 'internal' | 'other';
  /** ms after the request's latency began, from the gateway's wall clock mapped onto the machine's monotonic one. */
  startMs: number;
  endMs: number;
  /** How many of its ancestors are among the request's spans (0: a root). */
  depth: number;
  /** Its parent's index in the request's spans; null for a root (or a parent not exported). */
  parent: number | null;
  /** The subgraph a fetch went to, where the span or an ancestor says (an attribute ending in `subgraph.name`). */
  subgraph?: string;
}

/** A sampled request answered successfully, with every subgraph call that carried its trace id. */
export interface TracedRequest {
  traceId: string;
  latencyMs: number;
  calls: TracedCall[];
  /** The gateway's own spans of this trace, in start order, where it exported OTLP (`sweep --trace`). */
  spans?: GatewaySpan[];
}

/** What gwprof's OTLP receiver got in a step's window. */
export interface SpanReception {
  /** Spans received in all, and those of the step's traced requests. */
  received: number;
  matched: number;
  /** Spans past the receiver's limit, and exports that did not decode. */
  dropped: number;
  rejected: number;
}

/** A step's traced requests (StepRecord.traces). */
export interface TraceSample {
  /** How the window's requests were sampled: the first `perSecond` sent in each second, at most `perWindow`. */
  sampling: { perSecond: number; perWindow: number };
  requests: TracedRequest[];
  /** Subgraphs whose calls gwprof could not read (no call log: the native subgraphs, a scenario's own not proxied). */
  unlogged: string[];
  /** Calls of traced requests the subgraphs' logs had no room for. */
  droppedCalls: number;
  /**
   * How calls were given to requests: by the trace id they carried (absent), or, the gateway not
   * forwarding the trace context, by timing: requests sent one at a time (c=1), each call given to
   * the sampled request in flight when it arrived.
   */
  attribution?: 'timing';
  /** The gateway was told to export OTLP spans to gwprof: what arrived. Absent: not told. */
  spans?: SpanReception;
}

/** Means over a set of traced requests, ms: the parts add up to the latency. */
export interface TraceSplit {
  requests: number;
  latencyMs: number;
  /** From the request's start to its first subgraph call: the gateway's parse, validate, plan and queueing. */
  beforeFirstCallMs: number;
  /** The subgraph critical path, by subgraph: the calls the gateway was waiting on, last-finishing first. */
  criticalPathMs: Record<string, number>;
  /** Between the first call and the last answer, with no call in flight: the gateway's work between rounds. */
  gapsMs: number;
  /** From the last subgraph answer to the response's last byte: merging, serialising, writing. */
  afterLastCallMs: number;
  /** Per subgraph, all its calls' time, critical or not (parallel calls overlap). */
  callMs: Record<string, number>;
  /** Time with two or more calls in flight. */
  parallelMs: number;
  callsPerRequest: number;
  /**
   * The most call time of one request that lay outside its latency and was clipped off: how far the
   * processes' clocks disagreed, the bound on the split's own error (the parts add up to the latency).
   */
  maxClippedMs: number;
}

/** One step's split (RunAnalysis.traceSplits). */
export interface StepTraceSplit {
  stepId: string;
  /** Traced requests, and those whose trace id reached no subgraph (not in the split: see `missing`). */
  sampled: number;
  withoutCalls: number;
  /** Every traced request with calls; null when none had any. */
  all: TraceSplit | null;
  /** The traced requests at or above the sample's 99th percentile of latency. */
  p99: TraceSplit | null;
  /** The slowest traced requests with calls, slowest first, for their waterfalls. */
  slowest: TracedRequest[];
  /** Why there is no split, or what it lacks ("no trace context forwarded", "calls of X not logged"); null: nothing. */
  missing: string | null;
  /** The gateway's own spans, where it exported them. */
  gatewaySpans?: GatewaySpanSplit;
}

/** The gateway's own phases over the traced requests it exported spans for. */
export interface GatewaySpanSplit {
  /** Traced requests with spans. */
  requests: number;
  /**
   * Per span name, the mean time per request spent in spans of that name (ms), longest first.
   * Spans nest (a fetch inside an execute inside the request): these do not add up to the latency.
   */
  phasesMs: { name: string; kind: GatewaySpan['kind']; meanMs: number; perRequest: number }[];
  /** The gateway's client spans to subgraphs against the counting proxy's view of the same calls; null: none to pair. */
  fetchAgreement: FetchAgreement | null;
  /** What is missing: no span arrived, some traced requests without spans, spans dropped; null: nothing. */
  note: string | null;
}

/** Client spans paired with the proxy's calls of the same request, in start order (requests with as many of each). */
export interface FetchAgreement {
  pairs: number;
  /** The span's duration minus the call's, ms: median, and the 90th percentile of its absolute value. */
  medianDiffMs: number;
  p90AbsDiffMs: number;
  /** The call's start minus the span's, ms (median): the gateway's clock and client time before the subgraph saw the call. */
  medianStartOffsetMs: number;
}
