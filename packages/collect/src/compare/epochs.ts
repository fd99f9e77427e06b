/**
 * An epoch is one pair of gateway processes: both sides restarted, each warmed up at once after its
 * own start (a side left idle after its start gets other JIT decisions: docs/history.md, the side
 * bias), one after the other in an order drawn at random, or both together when the comparison
 * loads both at once. What each process's luck does to its speed (JIT decisions, heap layout, hash
 * seeds) is then noise between epochs, which the test counts as such.
 */
import { writeCompareResult, type EpochSide, type WarmupRecord } from '@gwprof/results';
import { settleBefore, warmUpUntilCpuSettles, type StepSettings } from '../step/measure-step.js';
import type { Settled } from '../step/settle.js';
import type { GatewayUnderTest } from '../gateway-under-test.js';
import { commonSettings, sharedProgress, stepContext } from './blocks.js';
import type { ComparisonContext } from './context.js';
import type { Side } from './gateway-pair.js';

/** Restarts both sides for epoch `epoch`, warm at `level`; null when interrupted. */
export async function startEpoch(ctx: ComparisonContext, epoch: number, level: number): Promise<Record<Side, GatewayUnderTest> | null> {
  const startedAt = new Date().toISOString();
  ctx.options.onProgress(`epoch ${epoch}: restarting both gateways…`, false);
  const stopMs = await ctx.pair.restart();
  const { design } = ctx.options;
  const seed = design.seedPerEpoch ? 1 + Math.floor(ctx.random() * 0x7ffffffe) : null;
  const v8Flags = [...design.v8Flags, ...(seed === null ? [] : [`--hash-seed=${seed}`, `--random-seed=${seed}`])];
  const order: Side[] = ctx.random() < 0.5 ? ['baseline', 'candidate'] : ['candidate', 'baseline'];
  const together = design.simultaneous || design.warmTogether === true;
  const started = together ? await startTogether(ctx, epoch, level, order, v8Flags) : await startInTurn(ctx, epoch, level, order, v8Flags);
  if (started === null) return null;
  ctx.compare.epochs.push({ epoch, startedAt, finishedAt: null, stopMs, seed, warmedTogether: together, sides: started.sides });
  writeCompareResult(ctx.session.runDir, ctx.compare);
  return started.gateways;
}

interface StartedSides {
  gateways: Record<Side, GatewayUnderTest>;
  sides: Record<Side, EpochSide>;
}

/** One side after the other, each warmed up at once after its own start. */
async function startInTurn(ctx: ComparisonContext, epoch: number, level: number, order: Side[], v8Flags: string[]): Promise<StartedSides | null> {
  const gateways: Partial<Record<Side, GatewayUnderTest>> = {};
  const sides: Partial<Record<Side, EpochSide>> = {};
  for (const [index, side] of order.entries()) {
    const gateway = await ctx.pair.startSide(side, epoch, v8Flags);
    gateways[side] = gateway;
    const warmup = await warmUp(ctx, gateway, epoch, side, level);
    if (warmup === null) return null;
    sides[side] = { pid: gateway.step.pid ?? 0, order: index + 1, startup: gateway.process!.startup, warmup };
  }
  return { gateways: gateways as Record<Side, GatewayUnderTest>, sides: sides as Record<Side, EpochSide> };
}

/**
 * Both sides launched at once, settled once, then warmed up at the same time on the shared core:
 * neither waits idle after its start, and the pair is warm in about one warm-up instead of two.
 */
async function startTogether(ctx: ComparisonContext, epoch: number, level: number, order: Side[], v8Flags: string[]): Promise<StartedSides | null> {
  // Both launches end, one way or the other, before a failure is thrown: the pair then stops whichever started.
  const launched = await Promise.allSettled(order.map((side) => ctx.pair.startSide(side, epoch, v8Flags)));
  for (const launch of launched) if (launch.status === 'rejected') throw launch.reason;
  const gateways = Object.fromEntries(order.map((side, i) => [side, (launched[i] as PromiseFulfilledResult<GatewayUnderTest>).value])) as Record<
    Side,
    GatewayUnderTest
  >;
  const settled = await settleBefore({ ...stepContext(ctx, gateways.baseline, level), settings: warmupSettings(ctx) });
  if (ctx.options.signal.aborted) return null;
  const onProgress = sharedProgress(ctx.options.onProgress);
  const warmups = await Promise.all(order.map((side) => warmUp(ctx, gateways[side], epoch, side, level, { settled, onProgress: onProgress[side] })));
  if (warmups.some((w) => w === null)) return null;
  const sides = Object.fromEntries(
    order.map((side, i) => [side, { pid: gateways[side].step.pid ?? 0, order: i + 1, startup: gateways[side].process!.startup, warmup: warmups[i]! }]),
  ) as Record<Side, EpochSide>;
  return { gateways, sides };
}

function warmUp(
  ctx: ComparisonContext,
  gateway: GatewayUnderTest,
  epoch: number,
  side: Side,
  level: number,
  together?: { settled: Settled; onProgress: (line: string) => void },
): Promise<WarmupRecord | null> {
  const settings = warmupSettings(ctx);
  return warmUpUntilCpuSettles({
    ...stepContext(ctx, gateway, level),
    id: `e${epoch}-warmup-${side}`,
    settings: together ? { ...settings, onProgress: together.onProgress } : settings,
    label: `epoch ${epoch} warm-up ${side}`,
    ...(together ? { settled: together.settled } : {}),
  });
}

/** A warm-up: no window, at most design.warmupSec of load. */
function warmupSettings(ctx: ComparisonContext): StepSettings {
  return { ...commonSettings(ctx), durationSec: 0, maxDurationSec: 0, warmupSec: ctx.options.design.warmupSec };
}

/** Marks the epoch's end, and fixes the looks' plan once the epoch before the first look is done. */
export function finishEpoch(ctx: ComparisonContext, epoch: number): void {
  const record = ctx.compare.epochs.find((e) => e.epoch === epoch);
  if (record) record.finishedAt = new Date().toISOString();
  const { minEpochs, budgetMinutes } = ctx.options.design;
  if (ctx.compare.plan === null && epoch >= minEpochs - 1) {
    const epochSeconds = paceSeconds(ctx);
    const remaining = budgetMinutes * 60 - (performance.now() - ctx.started) / 1000;
    const maxEpochs = Math.max(minEpochs, epoch + Math.floor(remaining / epochSeconds));
    ctx.compare.plan = { maxEpochs, epochSeconds: Math.round(epochSeconds * 10) / 10, fixedAfterEpoch: epoch };
  }
  writeCompareResult(ctx.session.runDir, ctx.compare);
}

/** Seconds per epoch so far: the first epoch left out when there are others (it holds the builds). */
export function paceSeconds(ctx: ComparisonContext): number {
  const seconds = ctx.compare.epochs.filter((e) => e.finishedAt !== null).map((e) => (Date.parse(e.finishedAt!) - Date.parse(e.startedAt)) / 1000);
  const usable = seconds.length > 1 ? seconds.slice(1) : seconds;
  return usable.length > 0 ? usable.reduce((a, b) => a + b, 0) / usable.length : Infinity;
}

/** Would another epoch, at the pace so far, run past the budget? */
export function budgetExceeded(ctx: ComparisonContext): boolean {
  const pace = paceSeconds(ctx);
  if (!Number.isFinite(pace)) return false;
  return (performance.now() - ctx.started) / 1000 + pace > ctx.options.design.budgetMinutes * 60;
}
