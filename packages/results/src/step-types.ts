/**
 * One measured step (a load held on the gateway for a window), as a sweep's results.json and a
 * comparison's compare.json record it, and what the publish pass derives from its profiles.
 */
import type { FailureCounts, FailureSample } from './failures.js';
import type { TraceSample } from './trace-types.js';

/**
 * ok; unsteady: measured, but the window trended or swung too much to stand for a steady state
 * (the reasons say how); overloaded: an open-loop step whose schedule was not kept (sends dropped
 * at the in-flight cap, or the load generator late), so its latency is not the gateway's at that
 * rate; harness-bound: the harness's cores were full while the gateway's were not, so the step
 * measured gwprof's limit (or the machine's), not the gateway's; failed: below the success
 * threshold, or the gateway died.
 */
export type StepStatus = 'ok' | 'unsteady' | 'overloaded' | 'harness-bound' | 'failed';

/** A set of CPUs over a step's window: which, and how busy they were by anything that ran on them. */
export interface CoreUse {
  cpus: string;
  busyPercent: number;
  /** The process's CPU quota in cores (a cgroup's), when it has one below its CPUs. */
  quotaCores?: number;
}

/** The harness during a step's window: each of its processes, and its cores beside the gateway's. */
export interface HarnessUse {
  /** % of one core of each process: the load engine, each subgraph gwprof started, its counting proxy. */
  processes: Record<string, number | null>;
  /** Their sum; null when one of them could not be read. */
  cpuPercent: number | null;
  /** The CPUs the harness ran on; null when unknown. */
  cores: CoreUse | null;
  /** The CPUs the gateway ran on; null for a gateway gwprof cannot see. */
  gatewayCores: CoreUse | null;
  /** Why the step is harness-bound; null when it is not. */
  boundReason: string | null;
}

export interface RequestCounts {
  /** Every response or error that completed in the measured window. */
  total: number;
  /** Responses that passed validation (2xx, JSON, no errors, data as expected). */
  ok: number;
  failed: number;
  /** Requests sent and not yet answered when the window closed: counted, never silently lost. */
  inFlightAtEnd: number;
}

export interface LatencyMs {
  mean: number;
  p50: number;
  p75: number;
  p80: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
}

export interface TopFunction {
  functionName: string;
  url: string;
  line: number;
  /** Share of all samples where this function was the leaf. */
  selfShare: number;
  bucket: string;
}

/** The CPU profile of a step's measured window, as recorded. */
export interface StepProfile {
  /** Path relative to the run folder. */
  cpuprofile: string;
  samples: number;
  /** The interval asked of V8's sampler. */
  requestedIntervalUs: number;
  /**
   * Node's own account of GC in the profiled window (perf_hooks "gc" entries that started in it),
   * the ground truth the gc bucket is checked against; null when the gateway runs no gwprof preload.
   */
  nodeGc: { ms: number; count: number; windowMs: number; msByKind: Record<string, number> } | null;
  /** CPU of the gateway's main thread and of all its other threads (GC helpers, libuv) in the window, ms. */
  threadCpuMs: { main: number; others: number } | null;
  /** The allocation profile of the same window; null when allocations were not sampled. */
  heap: StepHeapProfile | null;
}

/** V8's sampling heap profiler over a step's window, every allocation kept (collected or not). */
export interface StepHeapProfile {
  /** Path relative to the run folder (Chrome's `.heapprofile`, which DevTools and speedscope open). */
  heapprofile: string;
  /** Mean bytes allocated between two samples, as asked of V8. */
  samplingIntervalBytes: number;
  samples: number;
  /**
   * A short allocation profile taken after the window, under the same load, with TurboFan's
   * inlining off and every optimised function dropped first: each allocation then has the frame
   * of the function that made it, which the window's own profile (physical frames only) hides
   * when that function was inlined. An error says why there is none; absent: not asked for.
   */
  attribution?: AllocationAttribution | { error: string };
}

/** The inlining-off allocation profile of a step (StepHeapProfile.attribution). */
export interface AllocationAttribution {
  heapprofile: string;
  samples: number;
  /** Load with inlining off before sampling, so the hot functions are optimised again without it, s. */
  rewarmSec: number;
  /** The sampled part, s, and the successful responses in it. */
  seconds: number;
  okResponses: number;
  /** Dropping the optimised code and switching the flag, ms of the gateway's time (both switches). */
  switchMs: number;
}

/**
 * The load a step held: closed loop (N connections, each sending when answered), or open loop
 * (arrivals at a target rate, whatever the gateway's pace; at most maxInFlight outstanding).
 */
export type LoadShape = { kind: 'closed'; concurrency: number } | { kind: 'open'; targetRps: number; arrivals: 'poisson' | 'uniform'; maxInFlight: number };

/** What an open-loop step sent against its schedule. */
export interface RateFacts {
  targetRps: number;
  /** Sends that left during the window, per second. */
  sentRps: number;
  /** Sends due in the window that the in-flight cap refused: counted, never queued. */
  dropped: number;
  /** How late sends left against their schedule; latency runs from the intended send time. */
  lagMs: { p50: number; p99: number; max: number } | null;
  /** No send dropped and the generator on time (p99 lag ≤ 10 ms): the latency is the gateway's. */
  scheduleKept: boolean;
}

/** Where the step's time went, in seconds of its one continuous load. */
export interface StepTiming {
  /** Waiting, before the load, for the gateway to work off what came before (the previous step). */
  settleSec: number;
  /** False when the gateway was still busy when the wait ran out. */
  settled: boolean;
  /** Warm-up on the same connections, discarded: until throughput stopped trending, or the maximum. */
  warmupSec: number;
  warmupSteady: boolean;
  /** Why the warm-up ended. */
  warmupNote: string;
  /** The measured window is seconds [windowStartSec, windowStartSec + windowSec) of the load. */
  windowStartSec: number;
  windowSec: number;
  /** What set the window's length: the minimum duration, enough round trips, enough responses, or the cap. */
  windowLimitedBy: 'duration' | 'round trips' | 'responses' | 'cap';
}

/** One second of a step's load, warm-up included. */
export interface SeriesPoint {
  /** Seconds since the step's load started. */
  t: number;
  /** `attribution`: after the window, the allocation profile with inlining off (StepHeapProfile.attribution). */
  phase: 'warmup' | 'window' | 'attribution';
  ok: number;
  failed: number;
  p50Ms: number | null;
  p99Ms: number | null;
  gatewayCpuPercent: number | null;
}

/** Was the measured window a steady state? */
export interface Steadiness {
  steady: boolean;
  /** Why not, one line each; [] when steady. */
  reasons: string[];
  /** Change of successful throughput across the window implied by its linear trend, in %. */
  trendPercent: number;
  /** Coefficient of variation of successful responses per second, in %. */
  cvPercent: number;
}

export interface StepRecord {
  /** Unique within its file; names the step's files (`step-<id>.cpuprofile`). */
  id: string;
  /** Closed loop (connections) or open loop (target rate, arrivals, in-flight cap): what the step held. */
  load: LoadShape;
  /** Open-loop steps only: the rate asked for and what was sent; null for closed loop. */
  rate: RateFacts | null;
  status: StepStatus;
  /** Why the step failed, one line each (success rate below threshold, gateway died, ...); [] when ok. */
  failures: string[];
  /** Caveats that do not fail the step (no profile, subgraph counts unavailable, ...). */
  warnings: string[];
  /**
   * Connections gwprof's own engine opened: over the step's load (warm-up and window) and in the
   * window, the first ones and every reopening. Absent for k6 and in results written before it was counted.
   */
  connectionsOpened?: { step: number; window: number };
  startedAt: string;
  /** Length of the measured window, s. */
  durationSec: number;
  timing: StepTiming;
  requests: RequestCounts;
  failureCounts: FailureCounts;
  failureSamples: FailureSample[];
  /** Responses whose key order differs from the query's selection order (a warning, not a failure). */
  orderWarnings: number;
  successRate: number;
  /** Successful responses per second. */
  rps: number;
  /** Latency of successful responses; null when there were none. */
  latencyMs: LatencyMs | null;
  bytesPerResponse: number;
  /** null figures: a gateway measured by URL without --gateway-pid, whose process gwprof cannot see. */
  gateway: {
    cpuPercent: number | null;
    cpuMsPerOkRequest: number | null;
    rssMaxMB: number | null;
    pids: number[];
    /** Threads of its processes at the window's end (a native gateway's runtime workers, Node's helpers); absent in older results. */
    threads?: number | null;
  };
  /** null CPU: a subgraph whose process gwprof could not find (started by someone else). */
  subgraphs: { cpuPercent: number | null; perSubgraph: Record<string, { cpuPercent: number | null; requests: number }> };
  /** Subgraph requests per gateway response; null when no responses. */
  fanout: number | null;
  loadgen: { cpuPercent: number };
  /** Every process of the harness and the cores of both sides; absent in older results. */
  harness?: HarnessUse;
  profile?: StepProfile;
  /** `--trace`: the window's traced requests and their subgraph calls; absent without it. */
  traces?: TraceSample;
  series: SeriesPoint[];
  steadiness: Steadiness;
}

/** A function of one bucket, with what it cost per successful request. */
export interface BucketFunctionCost {
  functionName: string;
  url: string;
  line: number;
  msPerOkRequest: number;
  /** Its share of the bucket's time. */
  shareOfBucket: number;
}

/** A function that allocated in a window, with the bucket the CPU rules give its stack. */
export interface AllocatorCost {
  functionName: string;
  url: string;
  line: number;
  bucket: string;
  bytesPerOkRequest: number;
  /** Its share of all bytes allocated in the window. */
  share: number;
}

/** What one window allocated on the JavaScript heap, from V8's sampled estimate, beside what GC cost. */
export interface AllocationSummary {
  /** Flame graph page of the allocation profile (bytes, not time), relative to the run folder. */
  flamegraph: string | null;
  samples: number;
  samplingIntervalBytes: number;
  /** Bytes allocated in the window: V8's estimate from its samples, each scaled by its chance of being sampled. */
  bytes: number;
  /** null without successful requests. */
  bytesPerOkRequest: number | null;
  /** Bucket (the CPU rules, applied to allocation stacks) -> bytes per successful request. */
  bucketBytesPerOkRequest: Record<string, number> | null;
  /** The functions that allocated most, largest first. */
  topAllocators: AllocatorCost[];
  /** Node's own account of GC pauses in the same window, ms per successful request; null without it. */
  gcMsPerOkRequest: number | null;
  /**
   * Whose frames the buckets and functions name. `allocating`: from the inlining-off profile, its
   * shares scaled to the window's bytes per request, so an inlined function keeps its own bytes.
   * `physical`: the window's own profile, where a function V8 inlined is charged to its caller.
   */
  frames: 'allocating' | 'physical';
  /** With `allocating`: what the inlining-off profile itself read per successful request (escape analysis without inlining keeps more objects). */
  attributionBytesPerOkRequest?: number | null;
}

/** The gc bucket beside Node's own GC account of the same window. */
export interface GcCheck {
  /** The gc bucket's share of the sampled time. */
  profileShare: number;
  /** Node's GC pauses as a share of the window. */
  nodeShare: number;
  /** profileShare − nodeShare, percentage points. */
  differencePoints: number;
  /** More than 3 points apart: the step says so. */
  disagrees: boolean;
}

/** What the publish pass derived from one step's profile. */
export interface StepAnalysis {
  stepId: string;
  /** Flame graph page, relative to the run folder; null without a profile. */
  flamegraph: string | null;
  /** Samples in the profile and their median spacing, as measured from the file. */
  samples: number;
  samplingIntervalUs: number;
  /** CPU bucket -> share of the sampled time, summing to 1; null without samples. */
  buckets: Record<string, number> | null;
  /**
   * CPU bucket -> milliseconds of the main thread per successful request (idle excluded): costs
   * that do not move when idle time or another bucket moves. null without samples or successes.
   */
  bucketMsPerOkRequest: Record<string, number> | null;
  /** Their sum: the main thread's busy milliseconds per successful request. */
  busyMsPerOkRequest: number | null;
  /** Per bucket, the functions with the most self time in it. */
  bucketFunctions: Record<string, BucketFunctionCost[]>;
  topFunctions: TopFunction[];
  /** null without Node's GC account (a gateway without the preload) or without samples. */
  gc: GcCheck | null;
  /** What the window allocated, from its allocation profile; null without one. */
  allocation: AllocationSummary | null;
  /** Caveats found by the analysis (the gc bucket and Node disagree, ...). */
  warnings: string[];
  /** Why the profile could not be analysed; null when it was (or there was none). */
  error: string | null;
}
