/**
 * An epoch is one pair of gateway processes: both sides restarted, each warmed up at once after its
 * own start (a side left idle after its start gets other JIT decisions: docs/history.md, the side
 * bias), in an order drawn at random. What each process's luck does to its speed (JIT decisions,
 * heap layout, hash seeds) is then noise between epochs, which the test counts as such.
 */
import { writeCompareResult, type EpochSide, type WarmupRecord } from '@gwprof/results';
import { warmUpUntilCpuSettles } from '../step/measure-step.js';
import type { GatewayUnderTest } from '../gateway-under-test.js';
import { commonSettings, stepContext } from './blocks.js';
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
  const gateways: Partial<Record<Side, GatewayUnderTest>> = {};
  const sides: Partial<Record<Side, EpochSide>> = {};
  for (const [index, side] of order.entries()) {
    const gateway = await ctx.pair.startSide(side, epoch, v8Flags);
    gateways[side] = gateway;
    const warmup = await warmUp(ctx, gateway, epoch, side, level);
    if (warmup === null) return null;
    sides[side] = { pid: gateway.step.pid ?? 0, order: index + 1, startup: gateway.process!.startup, warmup };
  }
  ctx.compare.epochs.push({ epoch, startedAt, finishedAt: null, stopMs, seed, sides: sides as Record<Side, EpochSide> });
  writeCompareResult(ctx.session.runDir, ctx.compare);
  return gateways as Record<Side, GatewayUnderTest>;
}

function warmUp(ctx: ComparisonContext, gateway: GatewayUnderTest, epoch: number, side: Side, level: number): Promise<WarmupRecord | null> {
  return warmUpUntilCpuSettles({
    ...stepContext(ctx, gateway, level),
    id: `e${epoch}-warmup-${side}`,
    settings: { ...commonSettings(ctx), durationSec: 0, maxDurationSec: 0, warmupSec: ctx.options.design.warmupSec },
    label: `epoch ${epoch} warm-up ${side}`,
  });
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
  const seconds = ctx.compare.epochs
    .filter((e) => e.finishedAt !== null)
    .map((e) => (Date.parse(e.finishedAt!) - Date.parse(e.startedAt)) / 1000);
  const usable = seconds.length > 1 ? seconds.slice(1) : seconds;
  return usable.length > 0 ? usable.reduce((a, b) => a + b, 0) / usable.length : Infinity;
}

/** Would another epoch, at the pace so far, run past the budget? */
export function budgetExceeded(ctx: ComparisonContext): boolean {
  const pace = paceSeconds(ctx);
  if (!Number.isFinite(pace)) return false;
  return (performance.now() - ctx.started) / 1000 + pace > ctx.options.design.budgetMinutes * 60;
}
