/** A step's record from what was measured: counts, rates and latency of the window, verdict, caveats. */
import type { HarnessUse, LoadShape, RateFacts, StepRecord, SeriesPoint } from '@gwprof/results';
import { harnessBoundReason, neighbourWarning, stepFailures, stepStatus, type WindowSteadiness } from '@gwprof/analysis';
import type { WindowStats } from '../load/recorder.js';
import type { Settled } from './settle.js';
import type { WarmupResult, WindowResult } from './step-types.js';

const round = (value: number, digits = 2): number => Number(value.toFixed(digits));

export interface StepParts {
  id: string;
  load: LoadShape;
  startedAt: string;
  settle: Settled;
  warmup: WarmupResult;
  window: WindowResult;
  stats: WindowStats;
  series: SeriesPoint[];
  steadiness: WindowSteadiness;
  minSuccess: number;
  /** Why the gateway is gone, when it died during the step. */
  gatewayExit: string | null;
  /** Connections gwprof's engine opened over the step's load; null when another engine (k6) sent it. */
  connectionsOpened: number | null;
}

export function buildStepRecord(parts: StepParts): StepRecord {
  const { stats, window } = parts;
  const rate = rateFacts(parts);
  const { measurements } = window;
  const used = resources(parts);
  const harness = harnessUse(used, measurements);
  const verdictInput = {
    requests: stats.requests,
    minSuccess: parts.minSuccess,
    gatewayExit: parts.gatewayExit,
    rate,
    steady: parts.steadiness.steady,
    harnessBound: harness.boundReason,
  };
  const failures = stepFailures(verdictInput);
  const successRate = stats.requests.total > 0 ? stats.requests.ok / stats.requests.total : 0;
  const steady = parts.steadiness;
  return {
    id: parts.id,
    load: parts.load,
    rate,
    status: stepStatus(verdictInput),
    failures,
    warnings: [
      ...overloadReasons(rate, parts.load.kind === 'open' ? parts.load.maxInFlight : 0),
      ...[connectionChurn(parts)].filter((w): w is string => w !== null),
      ...warnings(parts),
      ...[neighbourWarning(used.gateway.cpuPercent, harness.gatewayCores)].filter((w): w is string => w !== null),
    ],
    ...(parts.connectionsOpened === null ? {} : { connectionsOpened: { step: parts.connectionsOpened, window: stats.connectionsOpened } }),
    startedAt: parts.startedAt,
    durationSec: window.seconds,
    timing: {
      settleSec: parts.settle.seconds,
      settled: parts.settle.settled,
      warmupSec: parts.warmup.seconds,
      warmupSteady: parts.warmup.steady,
      warmupNote: parts.warmup.note,
      windowStartSec: window.start,
      windowSec: window.seconds,
      windowLimitedBy: window.limitedBy,
    },
    requests: { ...stats.requests, inFlightAtEnd: window.inFlightAtEnd },
    failureCounts: stats.failureCounts,
    failureSamples: stats.failureSamples,
    orderWarnings: stats.orderWarnings,
    successRate: round(successRate, 6),
    rps: round(stats.requests.ok / Math.max(1, window.seconds)),
    latencyMs: stats.latencyMs,
    bytesPerResponse: stats.bytesPerResponse,
    ...used,
    harness,
    ...(measurements.profile ? { profile: measurements.profile } : {}),
    series: parts.series,
    steadiness: {
      steady: steady.steady,
      reasons: steady.reasons,
      trendPercent: round(steady.trend.relativeChange * 100, 1),
      cvPercent: round(steady.cv * 100, 1),
    },
  };
}

/** A send later than this at p99 means the load generator, not the gateway, set the pace. */
const MAX_P99_LAG_MS = 10;

function rateFacts({ load, stats, window }: StepParts): RateFacts | null {
  if (load.kind !== 'open') return null;
  const lagged = stats.lagMs !== null && stats.lagMs.p99 > MAX_P99_LAG_MS;
  return {
    targetRps: load.targetRps,
    sentRps: round(stats.sent / Math.max(1, window.seconds)),
    dropped: stats.dropped,
    lagMs: stats.lagMs && { p50: round(stats.lagMs.p50, 3), p99: round(stats.lagMs.p99, 3), max: round(stats.lagMs.max, 3) },
    scheduleKept: stats.dropped === 0 && !lagged,
  };
}

/** Why an open-loop step's latency is not the gateway's at that rate. */
function overloadReasons(rate: RateFacts | null, maxInFlight: number): string[] {
  if (!rate || rate.scheduleKept) return [];
  const reasons: string[] = [];
  if (rate.dropped > 0) reasons.push(`the gateway fell behind: ${rate.dropped} sends refused at the in-flight cap of ${maxInFlight}`);
  if (rate.lagMs && rate.lagMs.p99 > MAX_P99_LAG_MS)
    reasons.push(`the load generator fell behind its schedule: sends left up to ${rate.lagMs.p99} ms late (p99)`);
  return reasons;
}

/**
 * A keep-alive load holds its connections: a closed loop one per connection, an open loop one per
 * request in flight at most. More openings in the window than twice that, plus 10 (a few reopened
 * after an idle close or a failure), mean connections were closed as requests were answered (or
 * failed): requests then paid a connect on both sides, and the load measured is not the load asked
 * for. Refused connects open nothing and are not counted.
 */
const CHURN_FACTOR = 2;
const CHURN_SLACK = 10;

function connectionChurn({ load, stats, window, connectionsOpened }: StepParts): string | null {
  if (connectionsOpened === null) return null;
  const held = load.kind === 'closed' ? load.concurrency : stats.peakInFlight;
  if (stats.connectionsOpened <= CHURN_FACTOR * held + CHURN_SLACK) return null;
  const what = load.kind === 'closed' ? `${held} connections` : `at most ${held} requests in flight`;
  return `the load's shape changed: ${stats.connectionsOpened} connections opened in the ${window.seconds} s window for ${what} (connections were closed and opened again; each reconnect costs the gateway and the load generator)`;
}

function warnings({ settle, warmup, window }: StepParts): string[] {
  const lines = [...window.measurements.warnings];
  if (!settle.settled)
    lines.push(`started on a busy gateway: still at ${settle.cpuPercent ?? '?'}% CPU after waiting ${settle.seconds} s for it to work off the previous step`);
  if (!warmup.steady && warmup.note !== 'no warm-up asked for') lines.push(warmup.note);
  if (window.note) lines.push(window.note);
  return lines;
}

/** The harness's processes and both sides' cores, and whether the harness set the step's limit. */
function harnessUse(used: Pick<StepRecord, 'gateway' | 'subgraphs' | 'loadgen'>, measurements: WindowResult['measurements']): HarnessUse {
  const processes: Record<string, number | null> = {
    'load engine': used.loadgen.cpuPercent,
    ...Object.fromEntries(Object.entries(used.subgraphs.perSubgraph).map(([name, s]) => [name, s.cpuPercent])),
    ...Object.fromEntries(Object.entries(measurements.helpers).map(([name, u]) => [name, round(u.cpuPercent, 1)])),
  };
  const values = Object.values(processes);
  const cpuPercent = values.every((v) => v !== null)
    ? round(
        values.reduce((a: number, b) => a + b!, 0),
        1,
      )
    : null;
  const { gateway: gatewayCores, harness: cores } = measurements.cores;
  const boundReason = harnessBoundReason({ gatewayCpuPercent: used.gateway.cpuPercent, gatewayCores, harnessCores: cores, processes });
  return { processes, cpuPercent, cores, gatewayCores, boundReason };
}

function resources({ stats, window }: StepParts): Pick<StepRecord, 'gateway' | 'subgraphs' | 'fanout' | 'loadgen'> {
  const { gateway, subgraphs, subgraphRequests, loadgenCpuSeconds } = window.measurements;
  const ok = stats.requests.ok;
  const totalSubgraphRequests = subgraphRequests ? Object.values(subgraphRequests).reduce((a, b) => a + b, 0) : 0;
  const known = Object.values(subgraphs).filter((u) => u !== null);
  return {
    gateway: {
      cpuPercent: gateway ? round(gateway.cpuPercent, 1) : null,
      cpuMsPerOkRequest: gateway && ok > 0 ? round((gateway.cpuSeconds * 1000) / ok, 3) : null,
      rssMaxMB: gateway ? round(gateway.rssMaxMB, 1) : null,
      pids: gateway?.pids ?? [],
      threads: gateway?.threads ?? null,
    },
    subgraphs: {
      cpuPercent:
        known.length === Object.keys(subgraphs).length && known.length > 0
          ? round(
              known.reduce((a, u) => a + u.cpuPercent, 0),
              1,
            )
          : null,
      perSubgraph: Object.fromEntries(
        Object.entries(subgraphs).map(([n, u]) => [n, { cpuPercent: u ? round(u.cpuPercent, 1) : null, requests: subgraphRequests?.[n] ?? 0 }]),
      ),
    },
    fanout: subgraphRequests && stats.requests.total > 0 ? round(totalSubgraphRequests / stats.requests.total, 3) : null,
    loadgen: { cpuPercent: round((loadgenCpuSeconds / Math.max(1, window.seconds)) * 100, 1) },
  };
}
