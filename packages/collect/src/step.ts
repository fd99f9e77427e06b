/**
 * One measured step at one concurrency: warm-up (discarded), then a window in which every
 * response is validated, the gateway is CPU-profiled, and CPU, memory, fan-out and the load
 * generator's own CPU are measured. Shared by sweep and compare, so both measure alike.
 */
import path from 'node:path';
import type { StepRecord } from '@gwprof/results';
import type { Scenario } from './fixtures.js';
import { SUBGRAPH_NAMES, type SubgraphName } from './gateways/types.js';
import type { RunLogs } from './log.js';
import type { RunningSubgraphs } from './subgraphs.js';
import type { RunningGateway } from './gateway-process.js';
import { runLoad, type LoadOutcome } from './driver.js';
import { TreeUsageMeter } from './proc-stats.js';
import type { ProfilerClient } from './profiler/controller.js';

const round = (value: number, digits = 2): number => Number(value.toFixed(digits));

/** What a step needs to know: the load and validation settings shared by sweep and compare. */
export interface StepSettings {
  durationSec: number;
  warmupSec: number;
  timeoutSec: number;
  /** 0..1: a step with a lower success rate is failed. */
  minSuccess: number;
  samplingIntervalUs: number;
  /** Aborted on Ctrl-C / SIGTERM. */
  signal: AbortSignal;
  /** One-line progress updates; `final` ends the line. */
  onProgress: (line: string, final: boolean) => void;
}

export interface StepContext {
  /** The step's id in its file; its profile is written as `step-<id>.cpuprofile`. */
  id: string;
  concurrency: number;
  settings: StepSettings;
  scenario: Scenario;
  gateway: RunningGateway;
  subgraphs: RunningSubgraphs;
  profiler: ProfilerClient | null;
  /** Why there is no profiler although profiling was asked for; recorded on the step. */
  profilerUnavailable?: string | null;
  runDir: string;
  logs: RunLogs;
  /** Prefix of progress lines, e.g. "baseline #2". */
  label?: string;
}

/** Warm-up (discarded), then one measured window; null when interrupted. */
export async function measureStep(ctx: StepContext): Promise<StepRecord | null> {
  const { concurrency, settings: options, gateway, subgraphs, runDir } = ctx;
  const profileFile = `step-${ctx.id}.cpuprofile`;
  const startedAt = new Date().toISOString();
  // Reasons that fail the step, and caveats that do not.
  const failReasons: string[] = [];
  const warnings: string[] = [];
  let gatewayExit: string | null = null;
  void gateway.process.exited.then((info) => {
    gatewayExit = `gateway exited (${info.signal ?? `code ${info.code}`}) during the step`;
  });

  const load = (durationSec: number, phase: string): Promise<LoadOutcome> => {
    const run = runLoad({
      url: gateway.url,
      scenario: ctx.scenario,
      connections: concurrency,
      durationSec,
      timeoutSec: options.timeoutSec,
      onProgress: ({ elapsedSec, ok, failed }) =>
        options.onProgress(
          `${ctx.label ? `${ctx.label} ` : ''}c=${concurrency} ${phase} ${Math.min(durationSec, Math.round(elapsedSec))}/${durationSec} s · ok ${ok} · failed ${failed} · ${Math.round(ok / Math.max(elapsedSec, 0.001))} req/s`,
          false,
        ),
    });
    const onAbort = (): void => run.stop();
    options.signal.addEventListener('abort', onAbort, { once: true });
    const deathWatch = setInterval(() => {
      if (!gateway.process.isRunning()) run.stop();
    }, 200);
    return run.done.finally(() => {
      clearInterval(deathWatch);
      options.signal.removeEventListener('abort', onAbort);
    });
  };

  if (options.warmupSec > 0) {
    await load(options.warmupSec, 'warm-up');
    if (options.signal.aborted) return null;
  }

  const gatewayMeter = new TreeUsageMeter(() => [gateway.process.pid]);
  // Subgraphs: CPU only, no periodic /proc scans competing with the load generator.
  const subgraphMeters = Object.fromEntries(SUBGRAPH_NAMES.map((n) => [n, new TreeUsageMeter(() => [subgraphs.processes[n].pid], null)]));
  const countsBefore = await subgraphs.requestCounts();
  let profileError: string | null = ctx.profilerUnavailable ?? null;
  if (ctx.profiler && gateway.process.isRunning()) {
    try {
      await ctx.profiler.start(options.samplingIntervalUs);
    } catch (error) {
      profileError = (error as Error).message;
    }
  }
  gatewayMeter.start();
  for (const meter of Object.values(subgraphMeters)) meter.start();
  const loadgenBefore = process.cpuUsage();
  const outcome = await load(options.durationSec, 'measuring');
  const loadgenCpu = process.cpuUsage(loadgenBefore);
  const gatewayUsage = gatewayMeter.stop();
  const subgraphUsage = Object.fromEntries(Object.entries(subgraphMeters).map(([n, m]) => [n, m.stop()]));

  if (options.signal.aborted) return null;

  // Buckets and flame graphs are derived from the .cpuprofile later, by analysis and rendering.
  let profile: StepRecord['profile'];
  if (ctx.profiler && !profileError && !gateway.process.isRunning()) {
    profileError = 'the gateway exited before its profile could be written';
  }
  if (ctx.profiler && !profileError) {
    try {
      const samples = await ctx.profiler.stop(path.join(runDir, profileFile));
      profile = { cpuprofile: profileFile, samples, requestedIntervalUs: options.samplingIntervalUs };
    } catch (error) {
      profileError = (error as Error).message;
    }
  }
  if (profileError) {
    ctx.logs.harness.warn({ concurrency, err: profileError }, 'no CPU profile for this step');
    warnings.push(`no CPU profile: ${profileError}`);
  }

  let countsAfter: Record<SubgraphName, number> | null = null;
  try {
    countsAfter = await subgraphs.requestCounts();
  } catch (error) {
    warnings.push(`subgraph request counts unavailable: ${(error as Error).message}`);
  }

  const { requests } = outcome;
  const successRate = requests.total > 0 ? requests.ok / requests.total : 0;
  if (requests.total === 0) failReasons.push('no response at all in the measured window');
  else if (successRate < options.minSuccess) {
    failReasons.push(`success rate ${(successRate * 100).toFixed(2)}% is below the required ${(options.minSuccess * 100).toFixed(2)}%`);
  }
  if (gatewayExit) {
    const tail = gateway.process.tail().slice(-5).join(' | ');
    failReasons.push(`${gatewayExit}${tail ? `; last log lines: ${tail}` : ''}`);
  }

  const subgraphRequests = countsAfter
    ? Object.fromEntries(SUBGRAPH_NAMES.map((n) => [n, countsAfter![n] - countsBefore[n]]))
    : Object.fromEntries(SUBGRAPH_NAMES.map((n) => [n, 0]));
  const totalSubgraphRequests = Object.values(subgraphRequests).reduce((a, b) => a + b, 0);
  const wall = outcome.durationSec;

  return {
    id: ctx.id,
    concurrency,
    status: failReasons.length > 0 ? 'failed' : 'ok',
    failures: failReasons,
    warnings,
    startedAt,
    durationSec: round(wall, 3),
    warmupSec: options.warmupSec,
    requests,
    failureCounts: outcome.failures,
    failureSamples: outcome.failureSamples,
    orderWarnings: outcome.orderWarnings,
    successRate: round(successRate, 6),
    rps: round(requests.ok / wall),
    latencyMs: outcome.latencyMs,
    bytesPerResponse: outcome.bytesPerResponse,
    gateway: {
      cpuPercent: round(gatewayUsage.cpuPercent, 1),
      cpuMsPerOkRequest: requests.ok > 0 ? round((gatewayUsage.cpuSeconds * 1000) / requests.ok, 3) : null,
      rssMaxMB: round(gatewayUsage.rssMaxMB, 1),
      pids: gatewayUsage.pids,
    },
    subgraphs: {
      cpuPercent: round(Object.values(subgraphUsage).reduce((a, u) => a + u.cpuPercent, 0), 1),
      perSubgraph: Object.fromEntries(
        SUBGRAPH_NAMES.map((n) => [n, { cpuPercent: round(subgraphUsage[n]!.cpuPercent, 1), requests: subgraphRequests[n]! }]),
      ),
    },
    fanout: countsAfter && requests.total > 0 ? round(totalSubgraphRequests / requests.total, 3) : null,
    loadgen: { cpuPercent: round(((loadgenCpu.user + loadgenCpu.system) / 1e6 / wall) * 100, 1) },
    ...(profile ? { profile } : {}),
  };
}

