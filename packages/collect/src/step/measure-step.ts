import { cpuWarmupDecision, judgeWindowSteadiness, warmupDecision, windowDecision, type WindowRule } from '@gwprof/analysis';
import { loadLabel, type StepRecord, type WarmupRecord } from '@gwprof/results';
import { DEFAULTS } from '../defaults.js';
import type { LoadEngine } from '../load/load-engine.js';
import { LoadRecorder } from '../load/recorder.js';
import { RequestTraces } from '../load/request-traces.js';
import { attributeAllocations } from './allocation-attribution.js';
import { CpuSampler } from './gateway-cpu.js';
import { settleGateway, type Settled } from './settle.js';
import { startEngine } from './step-engine.js';
import { buildStepRecord } from './step-record.js';
import type { StepContext, WarmupResult, WindowResult } from './step-types.js';
import { StepTimeline } from './timeline.js';
import { openTraceWindow } from './trace-window.js';
import { openWindowProbes } from './window-probes.js';

export type { StepContext, StepGateway, StepSettings, WarmupResult, WindowResult } from './step-types.js';

/** The step's record; null when interrupted. */
export async function measureStep(ctx: StepContext): Promise<StepRecord | null> {
  const { settings } = ctx;
  const started = await startLoad(ctx);
  if (!started) return null;
  const { startedAt, settle, recorder, engine, timeline, traces } = started;
  let warmup: WarmupResult;
  let window: WindowResult;
  try {
    warmup = await warmUp(ctx, timeline, recorder, engine);
    if (settings.signal.aborted) return null;
    window = await measureWindow(ctx, timeline, recorder, engine, traces);
    if (settings.signal.aborted) return null;
    const attribution = window.measurements.profile?.heap ? await attributeAllocations(ctx, timeline, recorder) : undefined;
    if (attribution) window.measurements.profile!.heap!.attribution = attribution;
  } finally {
    await engine.stop();
  }
  return finish(ctx, { startedAt, settle, warmup, window, recorder, timeline });
}

/** Settles the gateway, then starts the step's load and its timeline; null when interrupted while settling. */
async function startLoad(
  ctx: StepContext,
): Promise<{ startedAt: string; settle: Settled; recorder: LoadRecorder; engine: LoadEngine; timeline: StepTimeline; traces: RequestTraces | null } | null> {
  const settle = ctx.settled ?? (await settleBefore(ctx));
  if (ctx.settings.signal.aborted) return null;
  // A settle made before this call (a comparison's) is still the step's start: startedAt + settleSec is the load's.
  const { startedAt } = settle;
  const recorder = new LoadRecorder(performance.now());
  // k6 sends its own requests: no traceparent (the CLI refuses --trace with it).
  const traces = ctx.settings.trace && ctx.settings.engine?.kind !== 'k6' ? new RequestTraces(ctx.settings.trace) : null;
  const engine = startEngine(ctx, recorder, traces);
  const timeline = new StepTimeline(recorder, new CpuSampler(ctx.gateway.pid), ctx.settings.signal);
  return { startedAt, settle, recorder, engine, timeline, traces };
}

/** Waits for the gateway (and the other gateways of a comparison) to work off what came before. */
export function settleBefore(ctx: Pick<StepContext, 'gateway' | 'settings' | 'settlePids' | 'settlePorts'>): Promise<Settled> {
  return settleGateway(
    ctx.settlePids ?? (ctx.gateway.pid === null ? [] : [ctx.gateway.pid]),
    ctx.settings.settleSec,
    ctx.settings.signal,
    ctx.settlePorts ?? (ctx.gateway.pid === null ? [] : [Number(new URL(ctx.gateway.url).port)]),
  );
}

/**
 * A fresh process's warm-up and nothing else: load until the gateway's CPU per successful request
 * stops falling (its JIT has compiled the hot paths), or settings.warmupSec. Null when interrupted.
 */
export async function warmUpUntilCpuSettles(ctx: StepContext): Promise<WarmupRecord | null> {
  const { settings } = ctx;
  const started = await startLoad(ctx);
  if (!started) return null;
  const { startedAt, settle, engine, timeline } = started;
  try {
    for (;;) {
      const seconds = await timeline.tick('warmup');
      if (settings.signal.aborted) return null;
      const cpuMsPerRequest = timeline.series.map((point) =>
        point.gatewayCpuPercent !== null && point.ok > 0 ? (point.gatewayCpuPercent * 10) / point.ok : null,
      );
      const record = (steady: boolean, note: string): WarmupRecord => ({ startedAt, settleSec: settle.seconds, seconds, steady, note, cpuMsPerRequest });
      if (!ctx.gateway.isRunning()) return record(false, 'the gateway exited during the warm-up');
      const decision = cpuWarmupDecision(cpuMsPerRequest, settings.warmupSec);
      progress(ctx, `warm-up ${seconds} s (at most ${settings.warmupSec}) · ${cpuMsPerRequest.at(-1)?.toFixed(2) ?? '–'} CPU ms/req`);
      if (decision.done) return record(decision.steady, decision.reason);
    }
  } finally {
    await engine.stop();
  }
}

function finish(
  ctx: StepContext,
  parts: { startedAt: string; settle: Settled; warmup: WarmupResult; window: WindowResult; recorder: LoadRecorder; timeline: StepTimeline },
): StepRecord {
  const { window, recorder } = parts;
  const okPerSecond = recorder.okPerSecond(window.start, window.start + window.seconds);
  const record = buildStepRecord({
    id: ctx.id,
    load: ctx.load,
    startedAt: parts.startedAt,
    settle: parts.settle,
    warmup: parts.warmup,
    window,
    stats: recorder.window(window.start, window.start + window.seconds),
    // k6 opens its own connections, unseen.
    connectionsOpened: ctx.settings.engine?.kind === 'k6' ? null : recorder.connectionsOpened,
    series: parts.timeline.finalSeries(),
    steadiness: judgeWindowSteadiness(okPerSecond),
    minSuccess: ctx.settings.minSuccess,
    gatewayExit: ctx.gateway.exitReason(),
  });
  if (record.warnings.length > 0) ctx.logs.harness.warn({ step: ctx.id, warnings: record.warnings }, 'step warnings');
  return window.traces ? { ...record, traces: window.traces } : record;
}

/** Load on, discarded, until throughput stops trending (or the maximum); the gateway's death ends it. */
async function warmUp(ctx: StepContext, timeline: StepTimeline, recorder: LoadRecorder, engine: LoadEngine): Promise<WarmupResult> {
  const { settings } = ctx;
  if (settings.warmupSec <= 0) return { seconds: 0, steady: false, note: 'no warm-up asked for' };
  for (;;) {
    const seconds = await timeline.tick('warmup');
    if (settings.signal.aborted) return { seconds, steady: false, note: 'interrupted' };
    if (!ctx.gateway.isRunning()) return { seconds, steady: false, note: 'the gateway exited during the warm-up' };
    if (settings.fixedWarmup) {
      if (seconds >= settings.warmupSec) return { seconds, steady: true, note: `fixed lead-in of ${settings.warmupSec} s` };
      continue;
    }
    const recent = recorder.tally(Math.max(0, seconds - 5), seconds);
    const answered = engine.answered();
    const decision = warmupDecision({
      okPerSecond: timeline.recentOk(seconds),
      meanLatencyMs: recent.meanLatencyMs,
      maxSeconds: settings.warmupSec,
      ...(answered === null || ctx.load.kind !== 'closed' ? {} : { connections: { answered, total: ctx.load.concurrency } }),
    });
    progress(ctx, `warm-up ${seconds} s (at most ${settings.warmupSec}) · ${timeline.recentOk(1)[0] ?? 0} ok/s`);
    if (decision.done) return { seconds, steady: decision.steady, note: decision.reason };
  }
}

/** The measured window: probes open at its first second and close at its last. */
async function measureWindow(
  ctx: StepContext,
  timeline: StepTimeline,
  recorder: LoadRecorder,
  engine: LoadEngine,
  traces: RequestTraces | null,
): Promise<WindowResult> {
  const { settings } = ctx;
  const start = timeline.seconds;
  const traceWindow =
    traces && settings.trace
      ? openTraceWindow(traces, settings.trace, ctx.subgraphs, ctx.otlp ?? null, ctx.load.kind === 'closed' && ctx.load.concurrency === 1)
      : null;
  const probes = await openWindowProbes({
    gatewayPid: ctx.gateway.pid,
    gatewayAlive: () => ctx.gateway.isRunning(),
    subgraphs: ctx.subgraphs,
    profiler: ctx.profiler,
    profilerUnavailable: ctx.profilerUnavailable ?? null,
    samplingIntervalUs: settings.samplingIntervalUs,
    heapSamplingBytes: settings.heapSamplingBytes,
    runDir: ctx.runDir,
    profileFile: `step-${ctx.id}.cpuprofile`,
    ...(engine.pids ? { loadgenPids: engine.pids() } : {}),
  });
  const rule: WindowRule = {
    minSeconds: settings.durationSec,
    maxSeconds: Math.max(settings.durationSec, settings.maxDurationSec),
    ...DEFAULTS.windowMinimums,
  };
  for (;;) {
    const end = await timeline.tick('window');
    const seconds = end - start;
    const tally = recorder.tally(start, end, settings.timeoutSec * 1000);
    progress(ctx, `measuring ${seconds}/${rule.minSeconds} s · ok ${tally.ok} · failed ${tally.failed} · ${Math.round(tally.ok / Math.max(1, seconds))} req/s`);
    const decision = windowDecision({ seconds, okResponses: tally.ok, failedResponses: tally.failed, meanRoundTripMs: tally.meanRoundTripMs }, rule);
    const stop = settings.signal.aborted || !ctx.gateway.isRunning();
    if (decision.done || stop) {
      const inFlightAtEnd = recorder.inFlight;
      // Sampling ends with the window, before the probes take their time to close.
      const traced = traceWindow ? await traceWindow.close() : null;
      const measurements = await probes.close();
      // The gateway's spans arrive after the window, in its batches: waited for once the probes are closed.
      const withSpans = traced && traceWindow ? await traceWindow.withSpans(traced) : null;
      return {
        ...(withSpans ? { traces: withSpans } : {}),
        start,
        seconds,
        limitedBy: decision.done ? decision.limitedBy : 'duration',
        note: decision.done ? decision.note : null,
        inFlightAtEnd,
        measurements,
      };
    }
  }
}

function progress(ctx: StepContext, text: string): void {
  ctx.settings.onProgress(`${ctx.label ? `${ctx.label} ` : ''}${loadLabel(ctx.load)} ${text}`, false);
}
