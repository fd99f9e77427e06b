/**
 * An epoch is one pair of gateway processes: both sides restarted, each warmed up at once after its
 * own start (a side left idle after its start gets other JIT decisions: docs/validation/history.md, the side
 * bias), one after the other in an order drawn at random, or both together when the comparison
 * loads both at once. What each process's luck does to its speed (JIT decisions, heap layout, hash
 * seeds) is then noise between epochs, which the test counts as such.
 */
import type { EpochSide, WarmupRecord } from '@gwprof/results';
import { settleBefore, warmUpUntilCpuSettles } from '../step/measure-step.js';
import type { Settled } from '../step/settle.js';
import type { GatewayUnderTest } from '../gateway-under-test.js';
import { sharedProgress, stepContext, warmupSettings } from './side-steps.js';
import type { ComparisonContext } from '../epochs/context.js';
import type { Side } from '../epochs/gateway-pair.js';

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
  ctx.journal.save();
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
  const settled = await settleBefore({ ...stepContext(ctx, gateways.baseline, 'baseline', level), settings: warmupSettings(ctx) });
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
    ...stepContext(ctx, gateway, side, level),
    id: `e${epoch}-warmup-${side}`,
    settings: together ? { ...settings, onProgress: together.onProgress } : settings,
    label: `epoch ${epoch} warm-up ${side}`,
    ...(together ? { settled: together.settled } : {}),
  });
}
