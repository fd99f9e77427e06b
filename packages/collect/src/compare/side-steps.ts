/**
 * How a side of a comparison is measured at a level: the step context (its gateway, the load, both
 * gateways settling before each step), and the settings of a warm-up and of a window; and one
 * progress line for two sides measured at once.
 */
import type { StepSettings } from '../step/measure-step.js';
import type { GatewayUnderTest } from '../gateway-under-test.js';
import type { ComparisonContext } from '../epochs/context.js';
import { SIDES, type Side } from '../epochs/gateway-pair.js';

/** Longest wait, before a window, for both gateways to be quiet. */
const WINDOW_SETTLE_SEC = 10;

/** Where a window stands: its epoch, block and level. */
export interface BlockPlace {
  epoch: number;
  block: number;
  level: number;
}

/** Two windows measured at once report into one progress line, each side's latest side by side, so neither overwrites the other. */
export function sharedProgress(onProgress: (line: string, final: boolean) => void): Record<Side, (line: string) => void> {
  const latest: Record<Side, string> = { baseline: '', candidate: '' };
  const report = (side: Side) => (line: string) => {
    latest[side] = line;
    onProgress(
      SIDES.map((s) => latest[s])
        .filter(Boolean)
        .join('  |  '),
      false,
    );
  };
  return { baseline: report('baseline'), candidate: report('candidate') };
}

/** A window of a side at its place in a block: its step context, id and settings. */
export function windowContext(ctx: ComparisonContext, gateway: GatewayUnderTest, { epoch, block, level }: BlockPlace, position: number, side: Side) {
  return {
    ...stepContext(ctx, gateway, side, level),
    id: `e${epoch}-b${block}-${position}-${side}-${ctx.options.load.kind === 'closed' ? 'c' : 'r'}${level}`,
    settings: windowSettings(ctx),
  };
}

/** What measuring a side at a level needs: its gateway and the load, both gateways settling before each window. */
export function stepContext(ctx: ComparisonContext, target: GatewayUnderTest, side: Side, level: number) {
  return {
    load: ctx.loadAt(level),
    scenario: ctx.scenarios[side],
    gateway: target.step,
    subgraphs: target.subgraphs,
    profiler: target.profiler,
    profilerUnavailable: target.profilerUnavailable,
    runDir: ctx.session.runDir,
    logs: ctx.session.logs,
    settlePids: ctx.pair.pids(),
    settlePorts: [ctx.options.gatewayPort, ctx.options.candidatePort],
  };
}

/** A warm-up: no window, at most design.warmupSec of load. */
export function warmupSettings(ctx: ComparisonContext): StepSettings {
  return { ...commonSettings(ctx), durationSec: 0, maxDurationSec: 0, warmupSec: ctx.options.design.warmupSec };
}

/** A window: a fixed lead-in on fresh connections, then exactly windowSec measured. */
function windowSettings(ctx: ComparisonContext): StepSettings {
  const { design } = ctx.options;
  return {
    ...commonSettings(ctx),
    durationSec: design.windowSec,
    maxDurationSec: design.windowSec,
    warmupSec: design.leadInSec,
    fixedWarmup: true,
  };
}

/** What every step of a comparison shares, warm-ups included. */
function commonSettings(ctx: ComparisonContext): Omit<StepSettings, 'durationSec' | 'maxDurationSec' | 'warmupSec' | 'fixedWarmup'> {
  return {
    timeoutSec: ctx.options.timeoutSec,
    minSuccess: 1,
    samplingIntervalUs: ctx.options.samplingIntervalUs,
    heapSamplingBytes: ctx.options.profile ? ctx.options.heapSamplingBytes : null,
    settleSec: WINDOW_SETTLE_SEC,
    signal: ctx.options.signal,
    onProgress: ctx.options.onProgress,
  };
}
