/**
 * `gwprof import k6`: the samples of one or more k6 processes (`k6 run --out json=FILE` of an
 * exported script, one file per load generator) merged into one step of a run folder, so the
 * report, capacity and markdown work on a distributed run. Only gwprof's own metrics count:
 * gwprof_ok and gwprof_ok_duration (validated responses and their latency), gwprof_failed (by kind),
 * and k6's dropped_iterations and iterations. Files are read line by line: a long run's samples
 * are never held as text.
 */
import { createReadStream } from 'node:fs';
import readline from 'node:readline';
import * as hdr from 'hdr-histogram-js';
import { judgeWindowSteadiness } from '@gwprof/analysis';
import {
  GwprofError,
  writeRunResult,
  type FailureCounts,
  type LoadShape,
  type RunConfig,
  type RunResult,
  type SeriesPoint,
  type StepRecord,
} from '@gwprof/results';
import { describeEnvironment } from '../run/environment.js';
import { makeRunId, openRunFolder } from '../run/run-folder.js';
import { recordHeader } from '../run/record-header.js';
import { emptyFailureCounts, sumFailures } from '../load/failure-log.js';
import { summarizeLatency } from '../load/recorder.js';

interface Second {
  ok: number;
  failed: number;
  dropped: number;
  iterations: number;
  latencies: number[];
  failures: FailureCounts;
}

interface K6Sample {
  metric: string;
  type: string;
  data?: { time?: string; value?: number; tags?: Record<string, string> };
}

const IMPORTED_METRICS = ['gwprof_ok', 'gwprof_ok_duration', 'gwprof_failed', 'dropped_iterations', 'iterations'].map((name) => `{"metric":"${name}"`);
const FAILURE_KINDS = new Set(Object.keys(emptyFailureCounts()));

/** Samples binned by the second they were taken in, across every file. */
export class K6Samples {
  private readonly seconds = new Map<number, Second>();
  private loadTags = new Set<string>();
  lines = 0;

  add(line: string): void {
    if (!line.trim()) return;
    this.lines++;
    // A dozen samples per request, most of them k6's own: only the metrics read here are parsed.
    if (line.startsWith('{"metric":"') && !IMPORTED_METRICS.some((prefix) => line.startsWith(prefix))) return;
    let sample: K6Sample;
    try {
      sample = JSON.parse(line) as K6Sample;
    } catch {
      throw new GwprofError(`not k6 JSON output (k6 run --out json=FILE): ${line.slice(0, 80)}`);
    }
    if (sample.type !== 'Point' || !sample.data?.time) return;
    const second = Math.floor(Date.parse(sample.data.time) / 1000);
    const value = sample.data.value ?? 0;
    const tags = sample.data.tags ?? {};
    if (tags.gwprof_load) this.loadTags.add(tags.gwprof_load);
    const bin = () => {
      let s = this.seconds.get(second);
      if (!s) this.seconds.set(second, (s = { ok: 0, failed: 0, dropped: 0, iterations: 0, latencies: [], failures: emptyFailureCounts() }));
      return s;
    };
    switch (sample.metric) {
      case 'gwprof_ok':
        bin().ok += value;
        break;
      case 'gwprof_ok_duration':
        bin().latencies.push(value);
        break;
      case 'gwprof_failed': {
        const kind = FAILURE_KINDS.has(tags.kind ?? '') ? (tags.kind as keyof FailureCounts) : 'socketErrors';
        bin().failed += value;
        bin().failures[kind] += value;
        break;
      }
      case 'dropped_iterations':
        bin().dropped += value;
        break;
      case 'iterations':
        bin().iterations += value;
        break;
      default:
    }
  }

  /** The load the script was exported for, from the tag on its samples. */
  load(): LoadShape {
    if (this.loadTags.size !== 1)
      throw new GwprofError(
        `the files hold ${this.loadTags.size === 0 ? 'no gwprof_load tag: were they made by a script from gwprof export k6?' : `several loads (${[...this.loadTags].join(', ')}): import one test at a time`}`,
      );
    const [kind, a, b] = [...this.loadTags][0]!.split(':');
    if (kind === 'closed') return { kind: 'closed', concurrency: Number(a) };
    return { kind: 'open', targetRps: Number(a), arrivals: 'uniform', maxInFlight: Number(b) };
  }

  /** Every second from the first sample to the last, empty ones included. */
  timeline(): Array<{ epochSec: number; second: Second }> {
    const keys = [...this.seconds.keys()];
    if (keys.length === 0) throw new GwprofError('no gwprof samples in the files: were they written with k6 run --out json=FILE?');
    const first = Math.min(...keys);
    const last = Math.max(...keys);
    const empty = (): Second => ({ ok: 0, failed: 0, dropped: 0, iterations: 0, latencies: [], failures: emptyFailureCounts() });
    return Array.from({ length: last - first + 1 }, (_, i) => ({ epochSec: first + i, second: this.seconds.get(first + i) ?? empty() }));
  }
}

export async function readK6Samples(files: readonly string[]): Promise<K6Samples> {
  const samples = new K6Samples();
  for (const file of files) {
    const lines = readline.createInterface({ input: createReadStream(file), crlfDelay: Infinity });
    try {
      for await (const line of lines) samples.add(line);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new GwprofError(`${file} does not exist`);
      throw error;
    }
  }
  return samples;
}

const percentileOf = (values: number[], p: number): number | null => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/**
 * One step from the samples: the window leaves out the first `skipSec` (k6 has no warm-up of its
 * own) and the last, partial second. Latency percentiles come from one histogram of every
 * validated response in the window, whichever load generator sent it.
 */
export function k6Step(samples: K6Samples, options: { skipSec: number; minSuccess: number }): StepRecord {
  const load = samples.load();
  const timeline = samples.timeline();
  const start = Math.min(options.skipSec, Math.max(0, timeline.length - 2));
  const window = timeline.slice(start, Math.max(start + 1, timeline.length - 1));
  const histogram = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 });
  const failureCounts = emptyFailureCounts();
  let ok = 0;
  let dropped = 0;
  let iterations = 0;
  for (const { second } of window) {
    ok += second.ok;
    dropped += second.dropped;
    iterations += second.iterations;
    for (const ms of second.latencies) histogram.recordValue(Math.max(1, Math.round(ms * 1000)));
    for (const kind of Object.keys(failureCounts) as Array<keyof FailureCounts>) failureCounts[kind] += second.failures[kind];
  }
  const failed = sumFailures(failureCounts);
  const seconds = window.length;
  const series: SeriesPoint[] = timeline.map(({ second }, t) => ({
    t,
    phase: t < start ? 'warmup' : 'window',
    ok: second.ok,
    failed: second.failed,
    p50Ms: percentileOf(second.latencies, 50),
    p99Ms: percentileOf(second.latencies, 99),
    gatewayCpuPercent: null,
  }));
  const successRate = ok + failed > 0 ? ok / (ok + failed) : 0;
  const failures =
    successRate < options.minSuccess ? [`success rate ${(successRate * 100).toFixed(2)}% is below the required ${(options.minSuccess * 100).toFixed(2)}%`] : [];
  const judged = judgeWindowSteadiness(window.map(({ second }) => second.ok));
  const steadiness = {
    steady: judged.steady,
    reasons: judged.reasons,
    trendPercent: Math.round(judged.trend.relativeChange * 1000) / 10,
    cvPercent: Math.round(judged.cv * 1000) / 10,
  };
  return {
    id: load.kind === 'closed' ? `k6-c${load.concurrency}` : `k6-r${load.targetRps}`,
    load,
    rate: load.kind === 'open' ? { targetRps: load.targetRps, sentRps: iterations / seconds, dropped, lagMs: null, scheduleKept: dropped === 0 } : null,
    status: failures.length > 0 ? 'failed' : steadiness.steady ? 'ok' : 'unsteady',
    failures,
    warnings: ['imported from k6: no gateway CPU, memory, subgraph counts or profile unless measured separately'],
    startedAt: new Date(timeline[0]!.epochSec * 1000).toISOString(),
    durationSec: seconds,
    timing: {
      settleSec: 0,
      settled: true,
      warmupSec: start,
      warmupSteady: true,
      warmupNote: `the first ${start} s of the k6 run, left out`,
      windowStartSec: start,
      windowSec: seconds,
      windowLimitedBy: 'duration',
    },
    requests: { total: ok + failed, ok, failed, inFlightAtEnd: 0 },
    failureCounts,
    failureSamples: [],
    orderWarnings: 0,
    successRate,
    rps: ok / seconds,
    latencyMs: summarizeLatency(histogram),
    bytesPerResponse: 0,
    gateway: { cpuPercent: null, cpuMsPerOkRequest: null, rssMaxMB: null, pids: [] },
    subgraphs: { cpuPercent: null, perSubgraph: {} },
    fanout: null,
    loadgen: { cpuPercent: 0 },
    series,
    steadiness,
  };
}

export interface K6ImportRequest {
  files: string[];
  outDir: string;
  runId?: string;
  /** Seconds at the start of the k6 run left out of the window (its warm-up). */
  skipSec: number;
  minSuccess: number;
  /** The gateway the k6 run loaded, for the record. */
  gateway: string;
  commandLine: string[];
}

/** A run folder holding one step made from the k6 files; publish renders it as any sweep. */
export async function importK6Run(request: K6ImportRequest): Promise<{ runDir: string; run: RunResult }> {
  const samples = await readK6Samples(request.files);
  const step = k6Step(samples, { skipSec: request.skipSec, minSuccess: request.minSuccess });
  const folder = openRunFolder(request.outDir, request.runId ?? makeRunId('k6-import'));
  const run: RunResult = {
    ...recordHeader('sweep', folder.runId),
    startedAt: step.startedAt,
    finishedAt: new Date().toISOString(),
    state: 'complete',
    config: importConfig(request, step),
    environment: describeEnvironment({
      cpuPlan: { gateway: null, others: null },
      memoryLimitMB: null,
      memoryLimitMethod: null,
      fdLimit: { soft: 0, hard: 0 },
      gatewayPackages: {},
      commandLine: request.commandLine,
    }),
    fanoutAlone: null,
    probe: null,
    steps: [step],
    artifacts: { 'k6 samples': request.files.join(', ') },
    analysis: null,
  };
  writeRunResult(folder.runDir, run);
  folder.logs.flush();
  return { runDir: folder.runDir, run };
}

function importConfig(request: K6ImportRequest, step: StepRecord): RunConfig {
  const { load } = step;
  return {
    gateway: request.gateway,
    gatewayEnv: {},
    scenario: 'k6 import',
    concurrency: load.kind === 'closed' ? [load.concurrency] : [],
    rates: load.kind === 'open' ? [load.targetRps] : [],
    arrivals: load.kind === 'open' ? load.arrivals : null,
    autoRate: false,
    slo: null,
    durationSec: step.durationSec,
    maxDurationSec: step.durationSec,
    warmupSec: request.skipSec,
    windowMinimums: null,
    query: '(the exported script)',
    variables: null,
    expect: null,
    minSuccess: request.minSuccess,
    timeoutSec: 0,
    subgraphDelayMs: 0,
    subgraphPorts: {},
    gatewayPort: 0,
    profile: false,
    profiler: 'none',
    samplingIntervalUs: 0,
    heapSamplingBytes: null,
    quick: false,
    engine: 'k6',
  };
}
