/**
 * The results.json and compare.json contract between collecting and reporting. Each file has two
 * parts with one writer each: the raw record (steps or windows: what was measured), written by collect
 * after every step and never changed afterwards, and `analysis`, everything derived from the raw
 * record and the profiles, written by the publish pass. Every table and page is rendered from
 * the file. Bump RESULTS_SCHEMA_VERSION on any incompatible change.
 */
import type { InstructionBatch, InstructionDesign, InstructionMoves, InstructionProfileRecord, InstructionSide } from './instruction-types.js';
import type { FailureCounts, FailureSample } from './failures.js';
import type { ExitCode } from './exit-codes.js';
import type { StepTraceSplit, TraceSample } from './trace-types.js';

export const RESULTS_SCHEMA_VERSION = 3;

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

export interface RunEnvironment {
  node: string;
  platform: string;
  cpuModel: string;
  cpuCount: number;
  totalMemMB: number;
  cpuSets: { gateway: string | null; others: string | null };
  gatewayMemoryLimitMB: number | null;
  /** How the memory cap was applied: cgroup v1/v2, heap flag, or not at all. */
  memoryLimitMethod: string | null;
  /** The gateway's CPU quota (--gateway-cpu-quota), in cores; absent when it had whole cores. */
  gatewayCpuQuota?: { cores: number; method: string };
  fdLimit: { soft: number; hard: number };
  gatewayPackages: Record<string, string>;
  /** Each native gateway's build, by spec (a comparison's by side: `baseline:grafbase`); absent for Node gateways and in older results. */
  gatewayBuilds?: Record<string, GatewayBuild>;
  gitCommit: string | null;
  commandLine: string[];
  hostname: string;
}

/** A native gateway's binary as measured: where it came from, how it was built, and its hash. */
export interface GatewayBuild {
  name: string;
  version: string;
  /** The registry and package or crate it came from, or the user's own command. */
  source: string;
  /** The build's settings: as published, or cargo's profile and flags. */
  profile: string;
  binary: string;
  sha256: string;
  licence: string;
}

/** Where a run's requests came from, as every record keeps it: query files, or a scenario file and its own subgraphs. */
export interface RequestSourceRecord {
  /** The query file sent; null when the requests came from a scenario file. */
  query: string | null;
  variables: string | null;
  /** The goldens checked: an expected-response file, or the scenario file's goldens file; null when none were given. */
  expect: string | null;
  /** The scenario file of the user's own operations (and subgraphs); absent or null otherwise. */
  scenarioFile?: string | null;
  /** The scenario file's own subgraphs (not gwprof's code); absent or null with the demo's. */
  ownSubgraphs?: string[] | null;
  /**
   * Those of them counted through gwprof's counting proxy (`proxy: true`): one more loopback hop per
   * subgraph call. Fan-out is counted only when all of them are. Absent in older results (none).
   */
  proxiedSubgraphs?: string[] | null;
  /** True: answers were not compared with goldens on purpose (--expect-none), only their status, JSON and errors. Absent in older results. */
  expectNone?: boolean;
}

/** The services around one gateway under test, as a sweep and a soak record them. */
export interface ServicesRecord {
  /** The demo's subgraphs: Node (graphql-js) or native (Rust, async-graphql); absent in older results (node). */
  subgraphs?: 'node' | 'native';
  timeoutSec: number;
  subgraphDelayMs: number;
  /** `--subgraph-delay name=time,…`: per subgraph, instead of subgraphDelayMs (the others none); absent otherwise. */
  subgraphDelaysMs?: Record<string, number>;
  subgraphPorts: Record<string, number>;
  gatewayPort: number;
}

export interface RunConfig extends RequestSourceRecord, ServicesRecord {
  gateway: string;
  gatewayEnv: Record<string, string>;
  /** The named experiment (--scenario); query, variables and expect below are what it sent. */
  scenario: string;
  /** Closed-loop steps' connections, or [] for a rate sweep. */
  concurrency: number[];
  /** Open-loop steps' target rates (req/s), or [] for a concurrency sweep. */
  rates: number[];
  arrivals: 'poisson' | 'uniform' | null;
  /** `--rate auto`: the rates came from a closed-loop probe of the peak (see RunResult.probe). */
  autoRate: boolean;
  /** Targets a step must meet to count toward the highest rate under them (--slo); null when none. */
  slo: Slo | null;
  /** Shortest measured window per step, s. */
  durationSec: number;
  /** Longest measured window per step, s. */
  maxDurationSec: number;
  /** Longest warm-up per step, s. */
  warmupSec: number;
  /** What every measured window had to hold, unless it reached maxDurationSec; null in files from before schema 3. */
  windowMinimums: { minRoundTrips: number; minResponses: number } | null;
  minSuccess: number;
  profile: boolean;
  profiler: 'inspector' | 'clinic' | '0x' | 'none';
  samplingIntervalUs: number;
  /** Mean bytes between allocation samples; null when allocations are not sampled (or in files from before allocation profiles). */
  heapSamplingBytes: number | null;
  /** After each step, allocations sampled again with inlining off (StepHeapProfile.attribution); absent in older runs. */
  allocationAttribution?: { rewarmSec: number; seconds: number } | null;
  quick: boolean;
  /** Who sent the load: gwprof's own engines, or a local k6 running the exported script. */
  engine: 'gwprof' | 'k6';
}

/** Service-level targets, seed 004's form: "p99=500ms,success=99.99%". */
export interface Slo {
  /** Latency ceilings of successful responses, ms. */
  latencyMs: Partial<Record<'mean' | 'p50' | 'p80' | 'p95' | 'p99', number>>;
  /** 0..1, the lowest success rate. */
  minSuccess: number | null;
}

/** Universal Scalability Law fit: X(N) = λN / (1 + σ(N−1) + κN(N−1)). */
export interface UslFit {
  sigma: number;
  kappa: number;
  lambda: number;
  /** N* = sqrt((1−σ)/κ); null when κ ≤ 0 (no retrograde region in the data). */
  peakConcurrency: number | null;
  peakRps: number | null;
  /** Coefficient of determination of the fit on the measured points. */
  r2: number;
  points: number;
}

export interface LittlesLawCheck {
  concurrency: number;
  rps: number;
  meanLatencyMs: number | null;
  /** rps × mean latency: the concurrency the server actually saw. */
  impliedConcurrency: number | null;
  /** impliedConcurrency / concurrency. */
  ratio: number | null;
  /**
   * ok: connections were kept busy; client-queueing: latency includes client-side waiting;
   * loadgen-saturated: idle connections and the load generator's CPU at its limit;
   * failures-hold-connections: timed-out requests account for the idle share;
   * connections-idle: idle for another reason; no-data: no successful response.
   */
  flag: 'ok' | 'client-queueing' | 'loadgen-saturated' | 'failures-hold-connections' | 'connections-idle' | 'no-data';
  note: string;
}

export interface CapacityAnalysis {
  /** The knee of the throughput curve; null with a note when the data cannot show one. */
  knee: { concurrency: number; rps: number; method: string } | null;
  /** Seed 004's sense: the concurrency with the best throughput before latency buckles. */
  optimalConcurrency: number | null;
  /** Seed 004's sense: the highest concurrency still meeting the success and latency targets. */
  maxConcurrency: number | null;
  usl: UslFit | null;
  littlesLaw: LittlesLawCheck[];
  /** One line per figure the data could not support, or caveat. */
  notes: string[];
}

/** What every run record starts with: a sweep's results.json, a comparison's compare.json, a soak's results.json. */
/** The kinds of run folder gwprof writes. */
export type RecordKind = 'sweep' | 'compare' | 'soak' | 'bisect';

export interface RecordHeader<K extends RecordKind> {
  schemaVersion: number;
  tool: { name: 'gwprof'; version: string };
  kind: K;
  runId: string;
  startedAt: string;
  finishedAt: string | null;
  /** running: still being written; complete; interrupted (signal); failed (harness error). */
  state: 'running' | 'complete' | 'interrupted' | 'failed';
  /** The harness error that ended the run early; null otherwise. */
  error: string | null;
}

export interface RunResult extends RecordHeader<'sweep'> {
  config: RunConfig;
  environment: RunEnvironment;
  /**
   * Subgraph requests per gateway request with requests sent one at a time, before the first
   * step: what a step's fan-out would be if the gateway shared nothing. null until measured.
   */
  fanoutAlone: { requests: number; fanout: number | null } | null;
  /** `--rate auto`: the short closed-loop steps that found the peak the rates were set from. */
  probe: { steps: StepRecord[]; peakRps: number } | null;
  steps: StepRecord[];
  /** Extra artifacts relative to the run folder (clinic/0x HTML, logs). */
  artifacts: Record<string, string>;
  /** Written by the publish pass; null until then. */
  analysis: RunAnalysis | null;
}

/** Whether a run passed: the overall verdict every page prints and the CLI's exit code (EXIT). */
export interface RunOutcome {
  /** "ALL STEPS OK", "2 STEPS FAILED (1 unsteady)", … */
  verdict: string;
  passed: boolean;
  exitCode: number;
  /** What the CLI prints on stderr beside a code that is not 0: one line each. */
  exitReasons: string[];
  /** What fixes the failure, a command each ("if the gateway's answers are right, record the goldens again: gwprof goldens …"); absent when none does. */
  fixes?: string[];
}

/** Derived in analysis; publish writes it (sweep-outcome.ts for the verdict and exit code). */
export interface RunAnalysis extends RunOutcome {
  /** The bucket rules used: "built-in", or the file given with --rules followed by the built-in ones. */
  rules: string;
  /** One per step that has a profile, in step order. */
  steps: StepAnalysis[];
  /** A concurrency sweep's capacity (knee, USL, Little's law); null for a rate sweep. */
  capacity: CapacityAnalysis | null;
  /** A rate sweep's capacity (knee on rate, highest rate under the SLO); null for a concurrency sweep. */
  rateCapacity: RateCapacity | null;
  /** `--trace`: per traced step, where its requests' time went; absent otherwise. */
  traceSplits?: StepTraceSplit[];
}

/** Capacity read from a fixed-rate ladder. */
export interface RateCapacity {
  /** The last rate kept and the first that broke (throughput short of the rate, tail latency, drops); null when none broke or the first did. */
  knee: { lastKeptRps: number; firstBrokenRps: number; why: string } | null;
  /** The highest rate whose step met every target of the SLO; null without an SLO or when none did. */
  maxRateUnderSlo: number | null;
  slo: Slo | null;
  notes: string[];
}

export interface SampleSummary {
  n: number;
  median: number;
  mean: number;
  /** exp(mean of logs) over positive values (NaN otherwise): what the change compares. */
  geometricMean: number;
  values: number[];
}

/** An informational metric of one level: both sides' windows and the change between them. */
export interface MetricComparison {
  /** e.g. rps, p50, p99, rssMaxMB, fanout */
  metric: string;
  unit: string;
  higherIsBetter: boolean;
  baseline: SampleSummary;
  candidate: SampleSummary;
  /**
   * Ratio of the geometric means of the candidate's and the baseline's windows, minus 1 (the mean
   * of the blocks' paired log ratios); null when undefined.
   */
  relativeChange: number | null;
  /** Interval of the relative change, at `confidence`; null with fewer than two blocks. */
  interval: [number, number] | null;
  confidence: number | null;
  /** How the interval was computed, in words (its level, paired or not, adjusted for looks or not). */
  method: string;
}

/** The sequential test of a level's gating metric (CPU ms per successful request). */
/**
 * The sequential test of a level's gating metric (CPU ms per successful request) on epoch means:
 * every verdict is read off one interval, the one shown (analysis's epoch-test.ts).
 */
export interface LevelDecision {
  outcome: 'regression' | 'no change' | 'improvement' | 'continue';
  /** Epochs (process pairs) with a block at this level, and the blocks in them. */
  epochs: number;
  blocks: number;
  /** exp(mean of the epochs' log ratios) − 1: candidate over baseline. */
  relativeChange: number;
  /**
   * mean ± boundary · sd/√epochs, as relative changes: under no change it lies wholly above 0 at any
   * look with probability ≤ alpha. null before the first look.
   */
  interval: { low: number; high: number } | null;
  /** The false-regression rate of this level's test (α split across levels), spent over looks up to maxEpochs. */
  alpha: number;
  maxEpochs: number;
  reason: string;
  /** Epochs left out of the test: by instructions, those far from the others on both sides at once. */
  setAsideEpochs?: number[];
}

/** One block of a level: the gating metric's change in it, candidate over baseline (geometric means). */
export interface BlockChange {
  block: number;
  epoch: number;
  relativeChange: number;
}

/**
 * Whether a bucket's or a function's cost moved more than its own noise: the epochs' paired
 * differences (candidate − baseline, ms per successful request), their t interval at a level that
 * holds for all the items tested together, and `moved` when it excludes 0. null with fewer than two
 * epochs, or for a comparison of finished runs.
 */
export interface MoveNoise {
  interval: [number, number];
  /** The interval's confidence for each item; the family of `familySize` items tested holds at `familyConfidence`. */
  confidence: number;
  familyConfidence: number;
  familySize: number;
  moved: boolean;
}

/** A CPU bucket of one level: milliseconds per successful request on each side. */
export interface BucketDelta {
  bucket: string;
  baselineMsPerOkRequest: number;
  candidateMsPerOkRequest: number;
  deltaMsPerOkRequest: number;
  noise: MoveNoise | null;
}

/** A function whose self time per successful request moved between the sides. */
export interface FunctionMove {
  functionName: string;
  url: string;
  line: number;
  bucket: string;
  baselineMsPerOkRequest: number;
  candidateMsPerOkRequest: number;
  deltaMsPerOkRequest: number;
  noise: MoveNoise | null;
}

/** A function whose allocation per successful request moved between the sides. */
export interface AllocationMove {
  functionName: string;
  url: string;
  line: number;
  bucket: string;
  baselineBytesPerOkRequest: number;
  candidateBytesPerOkRequest: number;
  deltaBytesPerOkRequest: number;
  noise: MoveNoise | null;
}

/** A bucket's allocation per successful request on each side. */
export interface AllocationBucketMove {
  bucket: string;
  baselineBytesPerOkRequest: number;
  candidateBytesPerOkRequest: number;
  deltaBytesPerOkRequest: number;
  noise: MoveNoise | null;
}

/** What each side allocated per successful request at a level, all its windows together. */
export interface AllocationComparison {
  baselineBytesPerOkRequest: number;
  candidateBytesPerOkRequest: number;
  deltaBytesPerOkRequest: number;
  /** The change's noise from the epochs, alone (a family of one). */
  noise: MoveNoise | null;
  /** Node's GC pause ms per successful request on each side (null without Node's account). */
  gcMsPerOkRequest: { baseline: number | null; candidate: number | null };
  /** Every bucket that allocated, largest move first (the CPU rules applied to allocation stacks). */
  buckets: AllocationBucketMove[];
  /** The functions whose allocation moved most, largest move first. */
  functions: AllocationMove[];
  /** Allocation flame graph pages of each side (all its windows), relative to the run folder. */
  flamegraphs: { baseline: string; candidate: string } | null;
  /**
   * Whose frames the buckets and functions name: a comparison's windows take no inlining-off
   * profile, so a function V8 inlined is charged to its caller (AllocationSummary.frames). Absent in older files: physical.
   */
  frames?: 'physical';
}

export interface CompareLevel {
  /** Connections, or requests per second for an open-loop comparison (config.load). */
  level: number;
  /** "c=20" or "300 req/s". */
  label: string;
  /** null for a comparison of finished runs (one value per side: deltas only). */
  decision: LevelDecision | null;
  /** The gating metric (design.measure: CPU ms or instructions per successful request), summarised like the others. */
  gating: MetricComparison;
  /** The gating metric's change block by block; [] for a comparison of finished runs. */
  blocks: BlockChange[];
  metrics: MetricComparison[];
  /** Largest move first; [] without profiles. */
  buckets: BucketDelta[];
  /** The functions whose self time per request moved most; [] without profiles. */
  functions: FunctionMove[];
  /** A comparison by instructions: where they went, from its profile pair; absent or null without one. */
  instructionMoves?: InstructionMoves | null;
  /** Allocation per request of both sides; null without allocation profiles. */
  allocation: AllocationComparison | null;
  /**
   * pprof profiles of each side (all its windows, CPU per successful request) for
   * `pprof -diff_base`, and a flame graph page of each; paths relative to the run folder.
   */
  pprof: { baseline: string; candidate: string; command: string; flamegraphs: { baseline: string; candidate: string } } | null;
}

/** One measured window of a comparison: a short step on one side, at its place in a block of windows in random order. */
export interface CompareWindow {
  /** The pair of processes it ran on; both sides are restarted between epochs. */
  epoch: number;
  /** Blocks are numbered across the comparison; a block holds windowsPerSide windows of each side at one level. */
  block: number;
  /** The window's place in its block, from 0: the sides' order is drawn at random for each block. */
  position: number;
  side: 'baseline' | 'candidate';
  step: StepRecord;
  /** With design.gcBeforeWindow: the full GC forced on this side just before the window (absent otherwise). */
  forcedGc?: { ms: number; heapAfterBytes: number } | null;
}

/** A side's warm-up after its start: load until its CPU per request stopped falling (not part of the statistics). */
export interface WarmupRecord {
  startedAt: string;
  /** Waiting for the gateways to be quiet before it, s. */
  settleSec: number;
  seconds: number;
  /** False when it reached the longest warm-up still falling. */
  steady: boolean;
  note: string;
  /** The gateway's CPU ms per successful response, second by second (null: no response that second). */
  cpuMsPerRequest: Array<number | null>;
}

/** One side's start in an epoch: where the time went. */
export interface EpochSide {
  pid: number;
  /** 1 for the side started first (launched first, when the sides start together). Each side is warmed up at once after its own start. */
  order: number;
  /** ms: the adapter's preparation (a build, only the first time), until it listened, until it answered. */
  startup: { prepareMs: number; listenMs: number; readyMs: number };
  warmup: WarmupRecord | null;
}

export interface CompareEpoch {
  epoch: number;
  startedAt: string;
  /** When its last window ended (the look after it happens then); null while it runs. */
  finishedAt: string | null;
  /** How long stopping the previous epoch's processes took, ms. */
  stopMs: number;
  /** The seed both sides' V8 got this epoch (--hash-seed, --random-seed); null when seeds are not set. */
  seed: number | null;
  /** Both sides were launched and warmed up at the same time (a simultaneous comparison); absent in older files: one after the other. */
  warmedTogether?: boolean;
  sides: { baseline: EpochSide; candidate: EpochSide };
}

/** An epoch of a comparison by instructions: a fresh pair of processes under callgrind. */
export interface InstructionEpoch {
  epoch: number;
  startedAt: string;
  finishedAt: string | null;
  sides: { baseline: InstructionSide; candidate: InstructionSide };
}

/** How many looks the comparison's error spending is spread over, fixed before the first look. */
export interface EpochPlan {
  maxEpochs: number;
  /** The pace it was fixed from: seconds per epoch, measured on the epochs before the first look (the first excluded when there are others). */
  epochSeconds: number;
  fixedAfterEpoch: number;
  /**
   * A plan re-fixed from the pace after every epoch, before that epoch's look (by instructions): the
   * last look as planned at each look from the first on; maxEpochs is the latest. Absent: fixed once.
   */
  lastLooks?: number[];
}

/** What the budget fits at the epochs' pace against the fewest epochs a verdict needs, as known after `afterEpoch`. */
export interface BudgetFit {
  afterEpoch: number;
  epochsThatFit: number;
  epochsNeeded: number;
  /** The pace: seconds per epoch (the first epoch's, builds and all, until there are others). */
  epochSeconds: number;
  /** The smallest whole --budget that would fit the epochs needed at that pace; null when the budget does. */
  budgetMinutesNeeded: number | null;
}

export interface CompareConfig extends RequestSourceRecord {
  baseline: string;
  candidate: string;
  /**
   * The goldens the candidate's answers were checked against when they are its own (a PR that
   * changes answers on purpose, --candidate-goldens); null or absent: the baseline's (`expect`).
   */
  candidateExpect?: string | null;
  /** The demo's subgraphs both sides shared: Node or native; absent in older results (node). */
  subgraphs?: 'node' | 'native';
  baselineEnv: Record<string, string>;
  candidateEnv: Record<string, string>;
  /** closed: levels are connections; open: levels are requests per second, at these arrivals and cap. */
  load: { kind: 'closed' } | { kind: 'open'; arrivals: 'poisson' | 'uniform'; maxInFlight: number };
  /** Load levels; every epoch measures a block at each level still open. */
  levels: number[];
  profile: boolean;
  /** Mean bytes between allocation samples; null when allocations were not sampled. */
  heapSamplingBytes: number | null;
  /** The Node.js each side ran on (process.version of the binary); null for a comparison of finished runs. */
  nodes: { baseline: string; candidate: string } | null;
  /** How the windows were measured and judged; null for a comparison of two finished runs (nothing measured). */
  design: CompareDesign | null;
}

/** The measurement and the sequential test of a comparison that measured both sides. */
export interface CompareDesign {
  /** `no change` means the interval lies within ±threshold. */
  threshold: number;
  /** False regression rate of the whole comparison (split across levels); the same for improvement. */
  alpha: number;
  /** No verdict before this many epochs. */
  minEpochs: number;
  /** Error spending α · (n / maxEpochs)^ρ over the looks. */
  spendingPower: number;
  /**
   * A regression or an improvement must also hold with the epoch that pulls most its way left out;
   * otherwise the comparison goes on, and ends inconclusive at its last look. Absent in older results (false).
   */
  holdWithoutFarthest?: boolean;
  /** Measured seconds per window, after a lead-in of leadInSec on the same connections. */
  windowSec: number;
  leadInSec: number;
  /** Longest warm-up of each side after its start, s; it ends once CPU per request stops falling. */
  warmupSec: number;
  /** Blocks at each level before both sides are restarted (a new epoch). */
  blocksPerEpoch: number;
  /** Windows of each side in a block, in random order. */
  windowsPerSide: number;
  /**
   * Both sides loaded at the same time in every window, each at the level, sharing the gateway
   * core, instead of in turn: the machine's drift then moves both alike. Absent in older results (false).
   */
  simultaneous?: boolean;
  /**
   * A full GC forced on each side just before each of its windows, so that every window starts
   * from the same point of the collector's cycle. Absent in older results (false).
   */
  gcBeforeWindow?: boolean;
  /**
   * Both sides launched and warmed up at the same time at the start of each epoch (always so when
   * simultaneous), then measured as the design says. Absent in older results (false).
   */
  warmTogether?: boolean;
  budgetMinutes: number;
  /**
   * What the verdict is decided on: the gateway's CPU time per successful request in timed
   * windows, or its instructions per successful request counted under callgrind. Absent in older
   * results: time.
   */
  measure?: 'time' | 'instructions';
  /** How instructions are counted; present when measure is instructions. */
  instructions?: InstructionDesign;
  /** V8 flags on both sides' node command lines. */
  v8Flags: string[];
  /** A fresh --hash-seed and --random-seed every epoch, the same for both sides. */
  seedPerEpoch: boolean;
}

/** Everything derived from the windows (or the two finished runs) by the publish pass. */
export interface CompareAnalysis {
  levels: CompareLevel[];
  /** `error`: the comparison did not run to its end; `invalid`: a response failed validation. */
  verdict: 'regression' | 'no change' | 'improvement' | 'inconclusive' | 'invalid' | 'error' | 'deltas only';
  verdictReasons: string[];
  /** What fixes an invalid comparison, a command each (--candidate-goldens, gwprof goldens …); absent when none does. */
  fixes?: string[];
  /** The process's exit code (EXIT, analysis's exit-code.ts): 0 no change or improvement, 1 regression, 2 error, 3 inconclusive, 4 invalid, 130 interrupted. */
  exitCode: ExitCode;
  /** Profile analysis of each window that has a profile. */
  windows: StepAnalysis[];
  /** What the verdict measured, and what that measure cannot see; absent in files published before it was stated. */
  measure?: MeasureStatement;
}

/** The gating measure in words, for the verdict, the comment and compare.json. */
export interface MeasureStatement {
  kind: 'time' | 'instructions';
  /** One line: what was measured, per what, and how. */
  measured: string;
  /** What this measure cannot see, one item each. */
  cannotSee: string[];
  /** Remarks on this run's sides (a gateway counted without V8 flags, …). */
  notes: string[];
}

export interface CompareResult extends RecordHeader<'compare'> {
  /** 'windows': both builds measured here; 'runs': two finished sweeps' tables (deltas only). */
  mode: 'windows' | 'runs';
  config: CompareConfig;
  environment: RunEnvironment | null;
  /** mode 'runs': the two run folders compared. */
  runs: { baseline: string; candidate: string } | null;
  epochs: CompareEpoch[];
  windows: CompareWindow[];
  /** A comparison by instructions: its counted batches, and each epoch's sides; absent otherwise. */
  batches?: InstructionBatch[];
  instructionEpochs?: InstructionEpoch[];
  /** A comparison by instructions: the pair that shows where they went; absent without one. */
  instructionProfile?: InstructionProfileRecord | null;
  /** The looks' plan, fixed before the first look; null until then, and for a comparison of finished runs. */
  plan: EpochPlan | null;
  /** The budget against the epochs a verdict needs, checked after each epoch before the first look; absent in older results. */
  budgetFit?: BudgetFit | null;
  /** Why measuring stopped: every level decided, the budget, a failure, an interruption. */
  stopReason: string;
  /** Written by the publish pass; null until then. */
  analysis: CompareAnalysis | null;
}

/** A comparison after the publish pass: what every compare renderer takes. */
export type PublishedCompare = CompareResult & { analysis: CompareAnalysis };
