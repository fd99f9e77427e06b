/**
 * The results.json contract between collecting and reporting.
 * Every table and page is rendered from these types; collectors only write them.
 * Bump RESULTS_SCHEMA_VERSION on any incompatible change.
 */
export const RESULTS_SCHEMA_VERSION = 1;

export type StepStatus = 'ok' | 'failed';

export interface RequestCounts {
  /** Every response or error observed in the measurement window. */
  total: number;
  /** Responses that passed validation (2xx, JSON, no errors, data as expected). */
  ok: number;
  failed: number;
}

export interface FailureCounts {
  non2xx: number;
  /** 2xx responses whose body was not JSON or had no `data`. */
  badBody: number;
  graphqlErrors: number;
  /** `data` differs from the golden response. */
  mismatch: number;
  timeouts: number;
  socketErrors: number;
}

export interface LatencyMs {
  mean: number;
  p50: number;
  p75: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
}

export interface FailureSample {
  kind: keyof FailureCounts;
  /** Untrusted text from the gateway (status line, error message, body excerpt). Escape when rendering. */
  message: string;
  count: number;
}

export interface TopFunction {
  functionName: string;
  url: string;
  line: number;
  /** Share of all samples where this function was the leaf. */
  selfShare: number;
  bucket: string;
}

export interface StepProfile {
  /** Paths relative to the run folder. */
  cpuprofile: string;
  flamegraph?: string;
  samples: number;
  samplingIntervalUs: number;
}

export interface StepResult {
  concurrency: number;
  status: StepStatus;
  /** Why the step failed, one line each (success rate below threshold, gateway died, ...). */
  statusReasons: string[];
  startedAt: string;
  durationSec: number;
  warmupSec: number;
  requests: RequestCounts;
  failures: FailureCounts;
  failureSamples: FailureSample[];
  /** Responses whose key order differs from the query's selection order (a warning, not a failure). */
  orderWarnings: number;
  successRate: number;
  /** Successful responses per second. */
  rps: number;
  /** Latency of successful responses; null when there were none. */
  latencyMs: LatencyMs | null;
  bytesPerResponse: number;
  gateway: { cpuPercent: number; cpuMsPerOkRequest: number | null; rssMaxMB: number; pids: number[] };
  subgraphs: { cpuPercent: number; perSubgraph: Record<string, { cpuPercent: number; requests: number }> };
  /** Subgraph requests per gateway response; null when no responses. */
  fanout: number | null;
  loadgen: { cpuPercent: number };
  profile?: StepProfile;
  /** CPU bucket -> share of all samples; shares sum to 1. */
  buckets?: Record<string, number>;
  topFunctions?: TopFunction[];
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
  fdLimit: { soft: number; hard: number };
  gatewayPackages: Record<string, string>;
  gitCommit: string | null;
  commandLine: string[];
  hostname: string;
}

export interface RunConfig {
  gateway: string;
  gatewayEnv: Record<string, string>;
  concurrency: number[];
  durationSec: number;
  warmupSec: number;
  query: string;
  variables: string | null;
  expect: string | null;
  minSuccess: number;
  timeoutSec: number;
  subgraphDelayMs: number;
  subgraphPorts: Record<string, number>;
  gatewayPort: number;
  profile: boolean;
  profiler: 'inspector' | 'clinic' | '0x' | 'none';
  samplingIntervalUs: number;
  quick: boolean;
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

export interface RunResult {
  schemaVersion: number;
  tool: { name: 'gwprof'; version: string };
  kind: 'sweep';
  runId: string;
  startedAt: string;
  finishedAt: string | null;
  /** running: still being written; complete; interrupted (signal); failed (harness error). */
  state: 'running' | 'complete' | 'interrupted' | 'failed';
  error: string | null;
  config: RunConfig;
  environment: RunEnvironment;
  steps: StepResult[];
  /** Extra artifacts relative to the run folder (clinic/0x HTML, logs). */
  artifacts: Record<string, string>;
  capacity?: CapacityAnalysis;
}

export type Verdict = 'regression' | 'improvement' | 'no change' | 'inconclusive';

export interface SampleSummary {
  n: number;
  median: number;
  mean: number;
  values: number[];
}

export interface MetricComparison {
  /** e.g. rps, cpuMsPerOkRequest, p50, p99, rssMaxMB, fanout */
  metric: string;
  unit: string;
  higherIsBetter: boolean;
  baseline: SampleSummary;
  candidate: SampleSummary;
  /** candidate / baseline − 1 (point estimate); null when undefined. */
  relativeChange: number | null;
  /** 95% confidence interval of the relative change. */
  ci95: [number, number] | null;
  verdict: Verdict;
  method: string;
}

export interface BucketDelta {
  bucket: string;
  baseline: number;
  candidate: number;
  /** candidate − baseline, in percentage points of all samples. */
  deltaPoints: number;
}

export interface CompareLevel {
  concurrency: number;
  metrics: MetricComparison[];
  buckets: BucketDelta[];
}

export interface TrialResult {
  side: 'baseline' | 'candidate';
  index: number;
  concurrency: number;
  step: StepResult;
}

export interface CompareResult {
  schemaVersion: number;
  tool: { name: 'gwprof'; version: string };
  kind: 'compare';
  runId: string;
  startedAt: string;
  finishedAt: string | null;
  state: 'running' | 'complete' | 'interrupted' | 'failed';
  /** 'runs' compares two finished sweeps' tables: deltas only, no verdict. */
  mode: 'trials' | 'runs';
  config: {
    baseline: string;
    candidate: string;
    baselineEnv: Record<string, string>;
    candidateEnv: Record<string, string>;
    concurrency: number[];
    threshold: number;
    minTrials: number;
    maxTrials: number;
    budgetMinutes: number | null;
    durationSec: number;
    warmupSec: number;
    query: string;
  };
  environment: RunEnvironment | null;
  trials: TrialResult[];
  levels: CompareLevel[];
  verdict: 'regression' | 'no regression' | 'inconclusive' | 'invalid' | 'deltas only';
  verdictReasons: string[];
  /** Why trials stopped: all metrics decided, max trials, budget. */
  stopReason: string;
  exitCode: 0 | 1 | 2;
}
