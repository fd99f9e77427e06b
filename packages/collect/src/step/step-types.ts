/** What one step is given and what its phases return: shared by the step's files, sweep and compare. */
import type { LoadShape, StepTiming, TraceSample } from '@gwprof/results';
import type { Scenario } from '../scenario/scenario.js';
import type { RunLogs } from '../processes/log.js';
import type { GatewayProfiler } from '../profiler/gateway-profiler.js';
import type { RunningSubgraphs } from '../services/subgraphs.js';
import type { StepGateway } from '../services/gateway-process.js';

export type { StepGateway } from '../services/gateway-process.js';
import type { Settled } from './settle.js';
import type { TraceSampling } from '../load/request-traces.js';
import type { OtlpReceiver } from '../services/otlp-receiver.js';
import type { WindowMeasurements } from './window-probes.js';

/** What a step needs to know: the load and validation settings shared by sweep and compare. */
export interface StepSettings {
  /** Shortest measured window, s; it grows to hold enough round trips and responses. */
  durationSec: number;
  /** Longest measured window, s. */
  maxDurationSec: number;
  /** Longest warm-up, s; it ends earlier once throughput stops trending (exactly this long when `fixedWarmup`). */
  warmupSec: number;
  /**
   * A warm-up of exactly warmupSec: for compare's short windows on gateways already warm, where
   * the lead-in only has to refill the connections after the other side's turn.
   */
  fixedWarmup?: boolean;
  timeoutSec: number;
  /** 0..1: a step with a lower success rate is failed. */
  minSuccess: number;
  samplingIntervalUs: number;
  /** Mean bytes between allocation samples; null: allocations are not sampled. */
  heapSamplingBytes: number | null;
  /** After the window, allocations sampled with inlining off (allocation-attribution.ts); absent or null: not taken. */
  allocationAttribution?: { rewarmSec: number; seconds: number } | null;
  /** Longest wait for the gateway to go quiet before the step, s. */
  settleSec: number;
  /**
   * `--trace`: a traceparent on every request, and how many of the window's are sampled for where
   * their time went (StepRecord.traces); absent or null: no traceparent is sent.
   */
  trace?: TraceSampling | null;
  /** Who sends the load: gwprof's own engines (default), or a local k6 running the exported script. */
  engine?: { kind: 'gwprof' } | { kind: 'k6'; k6: string };
  /** Aborted on Ctrl-C / SIGTERM. */
  signal: AbortSignal;
  /** One-line progress updates; `final` ends the line. */
  onProgress: (line: string, final: boolean) => void;
}

/** The gateway as a step sees it: where to send, and (when it is ours) which process to watch. */
export interface StepContext {
  /** The step's id in its file; its profile is written as `step-<id>.cpuprofile`. */
  id: string;
  load: LoadShape;
  settings: StepSettings;
  scenario: Scenario;
  gateway: StepGateway;
  subgraphs: RunningSubgraphs;
  /** `--trace` on a gateway told to export OTLP spans: gwprof's receiver of them. */
  otlp?: OtlpReceiver | null;
  profiler: GatewayProfiler | null;
  /** Why there is no profiler although profiling was asked for; recorded on the step. */
  profilerUnavailable?: string | null;
  runDir: string;
  logs: RunLogs;
  /** Prefix of progress lines, e.g. "baseline #2". */
  label?: string;
  /** Processes that must be quiet before the load starts; default: the gateway's. */
  settlePids?: number[];
  /** Already settled by the caller (steps that start together settle once, together): not settled again. */
  settled?: Settled;
  /** Ports whose accept queues must be empty before the load starts; default: the gateway's. */
  settlePorts?: number[];
}

export interface WarmupResult {
  seconds: number;
  steady: boolean;
  note: string;
}

export interface WindowResult {
  start: number;
  seconds: number;
  limitedBy: StepTiming['windowLimitedBy'];
  note: string | null;
  inFlightAtEnd: number;
  measurements: WindowMeasurements;
  /** `--trace`: the window's traced requests and their calls. */
  traces?: TraceSample;
}
