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

/** A sampled request answered successfully, with every subgraph call that carried its trace id. */
export interface TracedRequest {
  traceId: string;
  latencyMs: number;
  calls: TracedCall[];
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
}
