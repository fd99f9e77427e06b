/**
 * `gwprof soak`: one gateway process under steady load for minutes to days. Interval by interval
 * it records throughput, latency, failures and the gateway's state, forces a full GC in a calm and
 * records the heap after it, takes heap snapshots now and then, and rewrites results.json, so an
 * interrupted soak keeps every finished interval. The verdict is the publish pass's, from the file.
 */
import path from 'node:path';
import {
  GwprofError,
  writeSoakResult,
  type RequestSourceRecord,
  type SoakAllocatorReading,
  type SoakAllocatorSource,
  type SoakConfig,
  type SoakInterval,
  type SoakResult,
} from '@gwprof/results';
import type { GatewayAdapter } from '../gateways/types.js';
import type { Scenario } from '../scenario/scenario.js';
import type { RunRequest, Session } from '../run/session.js';
import type { LaunchedGateway, ServiceOptions } from '../services/test-bed.js';
import type { RunningGateway } from '../services/gateway-process.js';
import { ProfilerClient } from '../profiler/controller.js';
import type { RunningSubgraphs } from '../services/subgraphs.js';
import { stepGatewayOf } from '../services/gateway-process.js';
import { measureStep } from '../step/measure-step.js';
import { RequestStream } from '../load/request-stream.js';
import { wireRequests } from '../load/http1-request.js';
import { DEFAULTS } from '../defaults.js';
import type { ScenarioSource } from '../run/scenario-source.js';
import { recordHeader, servicesRecord } from '../run/record-header.js';
import { runInterval, type IntervalContext } from './soak-interval.js';
import { SnapshotKeeper } from './snapshots.js';
import { leakDesignOf, rssNetOfHeapUnderLoad, snapshotDue } from '@gwprof/analysis';
import { openRun } from '../run/run-opening.js';
import { openReloadSwitch, type ReloadSwitch, type SoakReloadOptions } from './reload-switch.js';
import { ReloadDriver } from './reload-driver.js';
import { countAllocationSites, type SitesWhen } from './allocation-sites.js';
import { soakGateway } from './allocator-stats.js';

export interface SoakOptions extends ServiceOptions, RunRequest {
  gateway: string;
  gatewayEnv: Record<string, string>;
  /** Where a cmd: gateway runs: the user's folder unless given (a scenario file's own gateway runs from the file's folder). */
  gatewayCwd?: string;
  scenarioName: string;
  scenario: ScenarioSource;
  /** `rate: null`: a fraction of the closed-loop peak, probed first. */
  load: { kind: 'open'; rate: number | null; arrivals: 'poisson' | 'uniform' } | { kind: 'closed'; concurrency: number };
  rateFraction: number;
  durationSec: number;
  intervalSec: number;
  calmSec: number;
  snapshotEvery: number;
  /** Snapshot files kept on disk besides the first and the last; older ones keep only their summary. */
  snapshotsKept: number;
  warmupSec: number;
  leakThresholdBytesPerRequest: number;
  timeoutSec: number;
  /** Swap the supergraph while serving (--reload-every); null: never. */
  reload: SoakReloadOptions | null;
  /** A native gateway's allocation sites under valgrind's DHAT after the soak: after a `leak` verdict (the default), always, or never. */
  sites?: SitesWhen;
  /** A `cmd:` gateway's allocator statistics on a Prometheus endpoint (--allocator-metric); null: none. */
  allocatorMetric?: SoakAllocatorSource | null;
}

export interface SoakOutcome {
  soak: SoakResult;
  runDir: string;
  failure: Error | null;
}

export async function runSoak(options: SoakOptions): Promise<SoakOutcome> {
  if (options.gateway.startsWith('url:'))
    throw new GwprofError(
      "soak starts the gateway itself (it reads its memory from /proc, and a Node gateway's heap through its preload): give a built-in gateway or cmd:…",
    );
  const gateway = await soakGateway(options.gateway, options.gatewayCwd, options.allocatorMetric ?? null);
  const opened = await openRun({
    options,
    scenario: options.scenario,
    specs: [options.gateway],
    install: [options.gateway],
    adapters: () => [soakAdapter(gateway.adapter, options.reload)],
    session: ([adapter]) => ({
      label: `soak-${adapter!.spec.replace(/^cmd:.*/, 'cmd')}`,
      maxConcurrency: options.load.kind === 'closed' ? options.load.concurrency : 1000,
      gatewayPackages: adapter!.packageVersions(),
      profiler: 'inspector',
    }),
    newRecord: ({ session, recorded, nativeSubgraphs }) => newSoak(options, session, recorded, nativeSubgraphs, gateway.allocator),
  });
  const { session, journal, scenario } = opened;
  const soak = journal.record;
  const adapter = opened.adapters[0]!;
  session.logs.harness.info({ config: soak.config }, 'soak starting');
  const failure = await opened.live({ label: 'soak' }, async () => {
    const bed = await session.startBed();
    const launched = await bed.launchGateway({ adapter, gatewayEnv: options.gatewayEnv, processName: 'gateway' });
    const preload = soakPreload(launched, soak.config.allocator ?? null);
    if (!preload) options.onProgress(nativeReadingLine(soak.config.allocator ?? null), true);
    if (soak.config.load.kind === 'open' && options.load.kind === 'open' && options.load.rate === null) {
      const peak = await probePeak(options, scenario, launched.gateway, bed.subgraphs, session);
      soak.config.load.rate = Math.max(1, Math.round(peak * options.rateFraction));
      soak.config.rateFrom = { probedPeakRps: peak, fraction: options.rateFraction };
      journal.save();
    }
    const reloads = options.reload ? await openReloadSwitch(options.reload, adapter, launched.gateway) : null;
    if (reloads) soak.config.reload = reloads.config;
    await soakIntervals(options, soak, session, scenario, launched.gateway, preload, reloads);
    preload?.close();
    if (!preload) {
      const sitesRequest = { ...options, when: options.sites ?? 'leak', soak, leakDesign: leakDesignOf(soak), bed, adapter, scenario, runDir: session.runDir };
      soak.allocationSites = await countAllocationSites(sitesRequest, launched.gateway);
      journal.save();
    }
  });
  return { soak, runDir: session.runDir, failure };
}

function nativeReadingLine(allocator: SoakAllocatorSource | null): string {
  const read = allocator ? `, and its allocator's live bytes from ${allocator.description}` : '';
  return `a native gateway: no forced GC exists for it; its memory (RssAnon) is read from /proc after each calm${read}`;
}

/** The soak's gateway, set to reload its supergraph when the soak swaps it (--reload-every). */
function soakAdapter(adapter: GatewayAdapter, reload: SoakReloadOptions | null): GatewayAdapter {
  return reload ? (adapter.reloading?.() ?? adapter) : adapter;
}

/**
 * The preload of a Node gateway, or null for a native one (a built-in's build, or a cmd: binary that
 * is not Node), whose memory is read from /proc. A Node gateway whose preload did not connect is refused:
 * its heap is what the verdict reads.
 */
function soakPreload(launched: LaunchedGateway, allocator: SoakAllocatorSource | null): ProfilerClient | null {
  if (launched.profiler instanceof ProfilerClient) {
    if (allocator) throw new GwprofError("--allocator-metric is for a native gateway: a Node gateway's heap is read through gwprof's preload; leave it out");
    return launched.profiler;
  }
  if (launched.build) return null;
  throw new GwprofError(`soak needs gwprof's preload in a Node gateway: ${launched.profilerUnavailable ?? 'it did not connect'}`);
}

/** Intervals until the duration is over, Ctrl-C, or the gateway dies (recorded as a crash). */
async function soakIntervals(
  options: SoakOptions,
  soak: SoakResult,
  session: Session,
  scenario: Scenario,
  gateway: RunningGateway,
  profiler: ProfilerClient | null,
  reloads: ReloadSwitch | null,
): Promise<void> {
  const started = performance.now();
  const clock = () => (performance.now() - started) / 1000;
  const crashed = new AbortController();
  // Aborted by Ctrl-C (even one that came before this point) or by a crash.
  const stopSignal = AbortSignal.any([options.signal, crashed.signal]);
  let finished = false;
  void gateway.process.exited.then((info) => {
    // gwprof stops the gateway itself once the soak is over or interrupted: only an exit before that is a crash.
    if (finished || options.signal.aborted) return;
    soak.crash = { atSec: clock(), exitCode: info.code, signal: info.signal, logTail: gateway.process.tail().slice(-20) };
    crashed.abort();
  });
  const stream = new RequestStream(scenario);
  const context: IntervalContext = {
    wire: wireRequests(gateway.url, stream.bodies),
    config: soak.config,
    stream,
    profiler,
    gatewayPids: () => gateway.pids(),
    isRunning: () => gateway.process.isRunning(),
    stopSignal,
    isStopped: () => stopSignal.aborted,
    clock,
    // Reloads begin after the warm-up: its calms are the memory without them.
    reloads: reloads ? new ReloadDriver(reloads, options.warmupSec, clock) : null,
    allocator: soak.config.allocator ?? null,
  };
  // Heap snapshots are a Node gateway's: a native one's memory has no classes gwprof can read.
  const keeper = profiler ? new SnapshotKeeper(session.runDir, profiler, options.snapshotsKept, session.logs.harness) : null;
  const count = Math.max(1, Math.round(options.durationSec / options.intervalSec));
  const leakDesign = { warmupSec: options.warmupSec, thresholdBytesPerRequest: options.leakThresholdBytesPerRequest };
  let okSoFar = 0;
  for (let index = 0; index < count && !context.isStopped(); index++) {
    const interval = await runInterval(context, { index, loadSec: options.intervalSec - options.calmSec, calmSec: options.calmSec, okRequestsBefore: okSoFar });
    // Ctrl-C cuts an interval short: it is not a finished one, and its rate and trend would mislead. A crash's is kept, as the crash's context.
    if (options.signal.aborted && soak.crash === null) break;
    okSoFar += interval.requests.ok;
    soak.intervals.push(interval);
    const due = keeper !== null && snapshotDue(soak.intervals, soak.snapshots, leakDesign, { count, every: options.snapshotEvery });
    if (due && interval.calm && !context.isStopped()) soak.snapshots = await keeper.take(interval.calm.atSec, soak.snapshots);
    writeSoakResult(session.runDir, soak);
    options.onProgress(progressLine(interval, count), true);
  }
  finished = true;
}

function progressLine(interval: SoakInterval, count: number): string {
  const { calm, nativeCalm } = interval;
  const anon = nativeCalm?.rssAnonBytes;
  const heap = calm
    ? `heap after GC ${(calm.heapUsedBytes / 1e6).toFixed(1)} MB`
    : nativeCalm
      ? `RSS after the calm ${(nativeCalm.rssBytes / 1e6).toFixed(1)} MB, anonymous ${anon == null ? '–' : (anon / 1e6).toFixed(1)} MB${allocatorPart(nativeCalm.allocator)}`
      : 'no calm';
  const net = rssNetOfHeapUnderLoad(interval);
  const native = net === null ? '' : ` · RSS net of heap ${(net / 1e6).toFixed(1)} MB`;
  const failed = interval.requests.failed > 0 ? ` · ${interval.requests.failed} failed` : '';
  const reloads = interval.reloads ? ` · ${reloadsLine(interval.reloads)}` : '';
  return `interval ${interval.index + 1}/${count} · ${formatClock(interval.endSec)} · ${interval.okRps.toFixed(1)} ok req/s${failed} · ${heap}${native}${reloads}`;
}

function allocatorPart(reading: SoakAllocatorReading | null | undefined): string {
  if (!reading) return '';
  return reading.allocatedBytes === null ? ` · allocator not read: ${reading.error}` : ` · allocated ${(reading.allocatedBytes / 1e6).toFixed(1)} MB`;
}

function reloadsLine({ reloads, reloadsSoFar }: NonNullable<SoakInterval['reloads']>): string {
  const seen = reloads.filter((r) => r.seenAfterSec !== null).length;
  return `${reloads.length} reload(s), ${seen} seen (${reloadsSoFar} so far)`;
}

const formatClock = (sec: number): string => {
  const h = Math.floor(sec / 3600);
  const m = Math.floor((sec % 3600) / 60);
  const s = Math.floor(sec % 60);
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : `${m}m${String(s).padStart(2, '0')}s`;
};

/** Closed-loop steps at a few connection counts; the most successful responses per second any reached. */
async function probePeak(options: SoakOptions, scenario: Scenario, gateway: RunningGateway, subgraphs: RunningSubgraphs, session: Session): Promise<number> {
  let peak = 0;
  for (const concurrency of [8, 32]) {
    const step = await measureStep({
      id: `probe-c${concurrency}`,
      load: { kind: 'closed', concurrency },
      settings: {
        ...DEFAULTS.peakProbe,
        timeoutSec: options.timeoutSec,
        minSuccess: 1,
        samplingIntervalUs: DEFAULTS.samplingIntervalUs,
        heapSamplingBytes: null,
        settleSec: DEFAULTS.settleSec,
        signal: options.signal,
        onProgress: options.onProgress,
      },
      scenario,
      gateway: stepGatewayOf(gateway),
      subgraphs,
      profiler: null,
      runDir: session.runDir,
      logs: session.logs,
      label: 'peak probe',
    });
    if (step && step.status !== 'failed') peak = Math.max(peak, step.rps);
  }
  if (!(peak > 0)) throw new GwprofError('the peak probe got no successful response: give --rate');
  options.onProgress(
    `closed-loop peak ≈ ${peak.toFixed(0)} ok req/s: soaking at ${Math.round(peak * options.rateFraction)} req/s (${options.rateFraction * 100}%)`,
    true,
  );
  return peak;
}

function newSoak(
  options: SoakOptions,
  session: Session,
  recorded: RequestSourceRecord,
  nativeSubgraphs: string | null,
  allocator: SoakAllocatorSource | null,
): SoakResult {
  const config: SoakConfig = {
    gateway: options.gateway,
    gatewayEnv: options.gatewayEnv,
    scenario: options.scenarioName,
    ...absolutePaths(recorded),
    load: options.load.kind === 'open' ? { kind: 'open', rate: options.load.rate ?? 0, arrivals: options.load.arrivals } : options.load,
    rateFrom: null,
    durationSec: options.durationSec,
    intervalSec: options.intervalSec,
    calmSec: options.calmSec,
    snapshotEvery: options.snapshotEvery,
    warmupSec: options.warmupSec,
    leakThresholdBytesPerRequest: options.leakThresholdBytesPerRequest,
    allocator,
    ...servicesRecord(options, nativeSubgraphs),
  };
  return {
    ...recordHeader('soak', session.runId),
    config,
    environment: session.environment,
    intervals: [],
    snapshots: [],
    crash: null,
    analysis: null,
  };
}

function absolutePaths(source: RequestSourceRecord): RequestSourceRecord {
  const resolve = (file: string | null) => (file === null ? null : path.resolve(file));
  return { ...source, query: resolve(source.query), variables: resolve(source.variables), expect: resolve(source.expect) };
}
