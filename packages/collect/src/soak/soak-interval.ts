/**
 * One soak interval: load for its load seconds with a fresh recorder (so memory stays bounded
 * however long the soak), the gateway's state sampled every few seconds through the preload, then a
 * calm without load that ends in a forced full GC and, when due, a heap snapshot. A native gateway
 * has no preload and no collector to force: its calm ends in a reading of its memory from /proc.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { SoakAllocatorSource, SoakCalm, SoakConfig, SoakGatewaySample, SoakInterval, SoakProcessMemory } from '@gwprof/results';
import type { ProcessStats, ProfilerClient } from '../profiler/controller.js';
import { startClosedLoop } from '../load/closed-loop.js';
import type { WireRequests } from '../load/http1-request.js';
import type { LoadEngine } from '../load/load-engine.js';
import { startOpenLoop } from '../load/open-loop.js';
import { LoadRecorder } from '../load/recorder.js';
import type { RequestStream } from '../load/request-stream.js';
import { TreeUsageMeter } from '../processes/proc-stats.js';
import { harnessHeapAfterGc } from './harness-gc.js';
import { processMemory } from './process-memory.js';
import { readAllocatorStats } from './allocator-stats.js';
import type { ReloadDriver } from './reload-driver.js';

/** How often the gateway's state is read during the load. */
export const SOAK_SAMPLE_MS = 5_000;

export interface IntervalContext {
  /** The stream's requests encoded for the gateway, once for every interval. */
  wire: WireRequests;
  config: SoakConfig;
  stream: RequestStream;
  /** gwprof's preload in a Node gateway; null for a native one. */
  profiler: ProfilerClient | null;
  gatewayPids: () => number[];
  isRunning: () => boolean;
  /** Aborted when the soak is to stop early (Ctrl-C, the gateway died). */
  stopSignal: AbortSignal;
  isStopped: () => boolean;
  /** Seconds from the soak's start, now. */
  clock: () => number;
  /** A reload soak's swaps (--reload-every); null without. */
  reloads: ReloadDriver | null;
  /** Where a native gateway's allocator statistics are read at each calm; null: none. */
  allocator: SoakAllocatorSource | null;
}

export interface IntervalPlan {
  index: number;
  loadSec: number;
  calmSec: number;
  okRequestsBefore: number;
}

const SAMPLE_FIELDS: ReadonlyArray<keyof SoakGatewaySample> = [
  'rssBytes',
  'heapUsedBytes',
  'heapTotalBytes',
  'externalBytes',
  'arrayBuffersBytes',
  'openFds',
  'activeResources',
  'eventLoopDelayP99Ms',
];

function startEngine(context: IntervalContext, recorder: LoadRecorder): LoadEngine {
  const { load, timeoutSec } = context.config;
  const common = { wire: context.wire, timeoutMs: timeoutSec * 1000, stream: context.stream, recorder };
  return load.kind === 'open'
    ? startOpenLoop({ ...common, rate: load.rate, arrivals: load.arrivals, maxInFlight: 1000 })
    : startClosedLoop({ ...common, connections: load.concurrency });
}

/** Mean and max of each field over the samples; null without any. */
export function summarizeSamples(samples: readonly ProcessStats[]): { mean: SoakGatewaySample; max: SoakGatewaySample } | null {
  if (samples.length === 0) return null;
  const pick = (reduce: (values: number[]) => number) =>
    Object.fromEntries(
      SAMPLE_FIELDS.map((field) => {
        const values = samples.map((s) => s[field]).filter((v): v is number => typeof v === 'number');
        return [field, values.length > 0 ? reduce(values) : null];
      }),
    ) as unknown as SoakGatewaySample;
  return { mean: pick((v) => v.reduce((a, b) => a + b, 0) / v.length), max: pick((v) => Math.max(...v)) };
}

/**
 * `ms`, or less once the soak is stopped. Each sleep's abort listener goes when it ends: a race
 * against a promise that stays pending would keep every sleep's reaction (315 bytes) for the whole soak.
 */
export const soakSleep = (ms: number, stop: AbortSignal): Promise<void> => delay(ms, undefined, { signal: stop, ref: false }).catch(() => undefined);

/** Load for `loadSec`, reading the gateway's state every SOAK_SAMPLE_MS; what came back and what was read. */
async function loadPhase(context: IntervalContext, plan: IntervalPlan) {
  const recorder = new LoadRecorder(performance.now());
  const meter = new TreeUsageMeter(context.gatewayPids, null);
  const samples: ProcessStats[] = [];
  const { profiler } = context;
  await profiler?.stats(); // resets the event-loop delay and GC accounts to this interval
  meter.start();
  const loadStartSec = context.clock();
  const engine = startEngine(context, recorder);
  const endAt = performance.now() + plan.loadSec * 1000;
  const { reloads } = context;
  let sampleAt = performance.now() + SOAK_SAMPLE_MS;
  while (performance.now() < endAt && context.isRunning() && !context.isStopped()) {
    const wakeAt = Math.min(sampleAt, endAt, performance.now() + (reloads?.wakeInMs(recorder, endAt) ?? Number.POSITIVE_INFINITY));
    await soakSleep(Math.max(0, wakeAt - performance.now()), context.stopSignal);
    if (!context.isRunning() || context.isStopped()) break;
    await reloads?.tick(recorder, endAt);
    if (performance.now() < sampleAt) continue;
    sampleAt += SOAK_SAMPLE_MS;
    if (profiler) samples.push(await profiler.stats());
  }
  await engine.stop();
  const usage = meter.stop();
  const seconds = Math.max(1, Math.ceil((performance.now() - recorder.startedAt) / 1000));
  const reloaded = reloads ? await reloads.endInterval(recorder, loadStartSec, seconds) : null;
  return { stats: recorder.window(0, seconds), samples, usage, reloaded };
}

/** The calm: no load, then a full GC; the heap as it stands after it. */
async function calmPhase(context: IntervalContext, profiler: ProfilerClient, plan: IntervalPlan, okRequestsSoFar: number): Promise<SoakCalm | null> {
  // Let what was in flight drain and the gateway's own timers run before collecting.
  await soakSleep(Math.min(2_000, plan.calmSec * 1000), context.stopSignal);
  if (!context.isRunning()) return null;
  const memory = await profiler.collectGarbage();
  return { atSec: context.clock(), okRequestsSoFar, ...memory };
}

/**
 * A native gateway's calm: the whole calm without load (what was in flight drains, the gateway's
 * own timers and its allocator's deferred frees run), then its memory as /proc shows it and, where
 * it publishes them, its allocator's statistics (read after /proc: answering the read allocates).
 */
async function nativeCalmPhase(context: IntervalContext, plan: IntervalPlan, okRequestsSoFar: number): Promise<SoakProcessMemory | null> {
  await soakSleep(plan.calmSec * 1000, context.stopSignal);
  if (!context.isRunning() || context.isStopped()) return null;
  const memory: SoakProcessMemory = { atSec: context.clock(), okRequestsSoFar, ...processMemory(context.gatewayPids()) };
  return context.allocator ? { ...memory, allocator: await readAllocatorStats(context.allocator) } : memory;
}

export async function runInterval(context: IntervalContext, plan: IntervalPlan): Promise<SoakInterval> {
  const startSec = context.clock();
  const { stats, samples, usage, reloaded } = await loadPhase(context, plan);
  const loadSec = context.clock() - startSec;
  const calmDue = context.isRunning() && !context.isStopped();
  const okSoFar = plan.okRequestsBefore + stats.requests.ok;
  const calm = calmDue && context.profiler ? await calmPhase(context, context.profiler, plan, okSoFar) : null;
  const nativeCalm = calmDue && !context.profiler ? await nativeCalmPhase(context, plan, okSoFar) : null;
  // The harness's own collection runs in the calm too, with no request of the gateway's in flight to delay.
  const harnessHeapAfterGcBytes = calm || nativeCalm ? harnessHeapAfterGc() : null;
  const gcMs = samples.reduce((sum, s) => sum + s.gcMs, 0);
  return {
    index: plan.index,
    startSec,
    endSec: context.clock(),
    loadSec,
    requests: { sent: stats.sent, ok: stats.requests.ok, failed: stats.requests.failed, dropped: stats.dropped },
    failureCounts: stats.failureCounts,
    okRps: loadSec > 0 ? stats.requests.ok / loadSec : 0,
    latencyMs: stats.latencyMs,
    gateway: summarizeSamples(samples),
    gatewayCpuPercent: usage.wallSeconds > 0 ? usage.cpuPercent : null,
    gcShare: samples.length > 0 && loadSec > 0 ? gcMs / (loadSec * 1000) : null,
    calm,
    ...(context.profiler ? {} : { nativeCalm }),
    harnessRssBytes: process.memoryUsage().rss,
    harnessHeapAfterGcBytes,
    ...(reloaded ? { reloads: reloaded } : {}),
  };
}
