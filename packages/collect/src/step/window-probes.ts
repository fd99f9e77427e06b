/**
 * Everything measured over exactly the step's window besides the responses: the gateway's CPU
 * profile, CPU and peak memory, the subgraphs' CPU and request counts (for fan-out) and the
 * load generator's own CPU. Opened at the window's first second, closed at its end.
 */
import path from 'node:path';
import type { CoreUse, StepProfile } from '@gwprof/results';
import { meterCores } from '../processes/core-busy.js';
import { TreeUsageMeter } from '../processes/proc-stats.js';
import type { GatewayProfiler } from '../profiler/gateway-profiler.js';
import type { RunningSubgraphs } from '../services/subgraphs.js';

type Usage = ReturnType<TreeUsageMeter['stop']>;

export interface WindowMeasurements {
  gateway: Usage | null;
  /** null: a subgraph whose process is not known. */
  subgraphs: Record<string, Usage | null>;
  /** The harness's other processes beside the subgraphs (the counting proxy), by name. */
  helpers: Record<string, Usage>;
  /** How busy the gateway's and the harness's CPUs were, by anything; null where unknown. */
  cores: { gateway: CoreUse | null; harness: CoreUse | null };
  /** Subgraph requests served during the window; null when they could not be counted. */
  subgraphRequests: Record<string, number> | null;
  loadgenCpuSeconds: number;
  profile: StepProfile | null;
  /** Caveats (no profile, no counts), one line each. */
  warnings: string[];
}

export interface ProbeTargets {
  /** The gateway's root pid; null for a gateway we cannot see (a URL). */
  gatewayPid: number | null;
  gatewayAlive: () => boolean;
  subgraphs: RunningSubgraphs;
  profiler: GatewayProfiler | null;
  /** Why there is no profiler although profiling was asked for. */
  profilerUnavailable: string | null;
  samplingIntervalUs: number;
  /** Mean bytes between allocation samples; null: allocations are not sampled. */
  heapSamplingBytes: number | null;
  runDir: string;
  /** The CPU profile's path relative to the run folder; the allocation profile goes beside it. */
  profileFile: string;
  /** Load generators in processes of their own (k6), metered with the harness as the load generator. */
  loadgenPids?: number[];
}

export interface WindowProbes {
  close(): Promise<WindowMeasurements>;
}

export async function openWindowProbes(targets: ProbeTargets): Promise<WindowProbes> {
  const warnings: string[] = [];
  let profileError = targets.profilerUnavailable;
  if (targets.profiler && targets.gatewayAlive()) {
    try {
      await targets.profiler.start({ intervalUs: targets.samplingIntervalUs, heapSamplingBytes: targets.heapSamplingBytes });
    } catch (error) {
      profileError = (error as Error).message;
    }
  }
  const countsBefore = await readCounts(targets.subgraphs, warnings);
  // Every process metered is found first, then metered.
  const helperPids = harnessHelpers(targets, profileError);
  const subgraphPids = Object.keys(targets.subgraphs.urls).map((n) => [n, targets.subgraphs.pidOf(n)] as const);
  const gatewayPid = targets.gatewayPid;
  const gatewayMeter = gatewayPid === null ? null : new TreeUsageMeter(() => [gatewayPid]);
  // Subgraphs and helpers: CPU only, no periodic /proc scans competing with the load generator.
  const cpuMeter = (pid: number) => new TreeUsageMeter(() => [pid], null);
  const subgraphMeters = Object.fromEntries(subgraphPids.map(([n, pid]) => [n, pid === null ? null : cpuMeter(pid)]));
  const helperMeters = Object.fromEntries(Object.entries(helperPids).map(([n, pid]) => [n, cpuMeter(pid)]));
  const externalLoadgen = targets.loadgenPids?.length ? new TreeUsageMeter(() => targets.loadgenPids!, null) : null;
  const coreMeters = meterCores(gatewayPid);
  gatewayMeter?.start();
  for (const meter of [...Object.values(subgraphMeters), ...Object.values(helperMeters)]) meter?.start();
  const loadgenBefore = process.cpuUsage();
  externalLoadgen?.start();

  return {
    async close() {
      const loadgen = process.cpuUsage(loadgenBefore);
      const externalSeconds = externalLoadgen?.stop().cpuSeconds ?? 0;
      const gateway = gatewayMeter?.stop() ?? null;
      const subgraphs = Object.fromEntries(Object.entries(subgraphMeters).map(([n, m]) => [n, m?.stop() ?? null]));
      const helpers = Object.fromEntries(Object.entries(helperMeters).map(([n, m]) => [n, m.stop()]));
      const cores = coreMeters.stop();
      const profile = await stopProfile(targets, profileError, warnings);
      const countsAfter = await readCounts(targets.subgraphs, warnings);
      const subgraphRequests =
        countsBefore && countsAfter ? Object.fromEntries(Object.keys(countsAfter).map((n) => [n, countsAfter[n]! - (countsBefore[n] ?? 0)])) : null;
      const loadgenCpuSeconds = (loadgen.user + loadgen.system) / 1e6 + externalSeconds;
      return { gateway, subgraphs, helpers, cores, subgraphRequests, loadgenCpuSeconds, profile, warnings };
    },
  };
}

/** The harness's processes beside the subgraphs: the counting proxy, and perf while it samples the gateway. */
function harnessHelpers(targets: ProbeTargets, profileError: string | null): Record<string, number> {
  const helpers = { ...(targets.subgraphs.helperPids?.() ?? {}) };
  const sampler = profileError ? null : (targets.profiler?.samplerPid?.() ?? null);
  if (sampler !== null) helpers.perf = sampler;
  return helpers;
}

async function stopProfile(targets: ProbeTargets, startError: string | null, warnings: string[]): Promise<StepProfile | null> {
  let error = startError;
  let profile: StepProfile | null = null;
  if (targets.profiler && !error && !targets.gatewayAlive()) error = 'the gateway exited before its profile could be written';
  if (targets.profiler && !error) {
    try {
      const heapprofile = targets.heapSamplingBytes ? `${targets.profileFile.replace(/\.cpuprofile$/, '')}.heapprofile` : null;
      const written = await targets.profiler.stop({
        cpuprofile: path.join(targets.runDir, targets.profileFile),
        heapprofile: heapprofile && path.join(targets.runDir, heapprofile),
      });
      const heap =
        heapprofile && written.heapSamples !== null ? { heapprofile, samplingIntervalBytes: targets.heapSamplingBytes!, samples: written.heapSamples } : null;
      profile = {
        cpuprofile: targets.profileFile,
        samples: written.samples,
        requestedIntervalUs: targets.samplingIntervalUs,
        nodeGc: written.nodeGc,
        threadCpuMs: written.threadCpuMs,
        heap,
      };
    } catch (caught) {
      error = (caught as Error).message;
    }
  }
  if (error) warnings.push(`no CPU profile: ${error}`);
  return profile;
}

async function readCounts(subgraphs: RunningSubgraphs, warnings: string[]): Promise<Record<string, number> | null> {
  // Subgraphs gwprof cannot count: the run's notes say so once, not every step.
  if (!subgraphs.requestCounts) return null;
  try {
    return await subgraphs.requestCounts();
  } catch (error) {
    warnings.push(`subgraph request counts unavailable: ${(error as Error).message}`);
    return null;
  }
}
