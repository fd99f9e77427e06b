/**
 * A sweep's results.json: the raw record (steps: what was measured), written by collect after every
 * step and never changed afterwards, and `analysis` (capacity, verdict), written by the publish pass.
 */
import type { RecordHeader, RequestSourceRecord, RunEnvironment, ServicesRecord } from './record-types.js';
import type { StepAnalysis, StepRecord } from './step-types.js';
import type { StepTraceSplit } from './trace-types.js';

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
