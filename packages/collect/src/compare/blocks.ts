/**
 * One block of a comparison: windowsPerSide short windows of each side at one level, either in an
 * order drawn at random for the block (randomised multiple interleaved trials: no fixed alternation
 * can line up with the machine's own periodic noise, and a drift within a block averages out), or
 * with both sides loaded at the same time (--simultaneous: a drift then moves both alike).
 */
import { GwprofError, type CompareWindow } from '@gwprof/results';
import { measureStep, settleBefore } from '../step/measure-step.js';
import { sharedProgress, windowContext, type BlockPlace } from './side-steps.js';
import type { GatewayUnderTest } from '../gateway-under-test.js';
import type { ComparisonContext } from '../epochs/context.js';
import { SIDES, type Side } from '../epochs/gateway-pair.js';

/** The block's windows in a random order: windowsPerSide of each side, shuffled. */
export function blockOrder(windowsPerSide: number, random: () => number): Side[] {
  const order: Side[] = [...Array<Side>(windowsPerSide).fill('baseline'), ...Array<Side>(windowsPerSide).fill('candidate')];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/** Measures one block at `level`; false when interrupted. compare.json is rewritten after every window. */
export async function measureBlock(ctx: ComparisonContext, gateways: Record<Side, GatewayUnderTest>, epoch: number, level: number): Promise<boolean> {
  const block = 1 + Math.max(0, ...ctx.compare.windows.map((w) => w.block));
  return ctx.options.design.simultaneous
    ? measureSidesAtOnce(ctx, gateways, { epoch, block, level })
    : measureSidesInTurn(ctx, gateways, { epoch, block, level });
}

/** windowsPerSide windows of each side, one side at a time, in an order drawn for the block. */
async function measureSidesInTurn(ctx: ComparisonContext, gateways: Record<Side, GatewayUnderTest>, { epoch, block, level }: BlockPlace): Promise<boolean> {
  const order = blockOrder(ctx.options.design.windowsPerSide, ctx.random);
  for (const [position, side] of order.entries()) {
    const window = windowContext(ctx, gateways[side], { epoch, block, level }, position, side);
    const settled = await settleBefore(window);
    const forcedGc = await gcBeforeWindow(ctx, gateways[side]);
    if (ctx.options.signal.aborted) return false;
    const step = await measureStep({ ...window, settled, label: `epoch ${epoch} block ${block} ${side} ${position + 1}/${order.length}` });
    if (!step) return false;
    ctx.compare.windows.push({ epoch, block, position, side, step, ...forcedGc });
    ctx.journal.save();
  }
  return true;
}

/**
 * With design.gcBeforeWindow, a full GC on the side about to be measured, after the settle: a
 * 5-second window then starts from the same point of the collector's cycle, instead of holding a
 * major collection or not by chance (window CPU followed GC per request, r 0.37–0.73).
 */
async function gcBeforeWindow(ctx: ComparisonContext, gateway: GatewayUnderTest): Promise<Pick<CompareWindow, 'forcedGc'>> {
  if (!ctx.options.design.gcBeforeWindow) return {};
  if (!gateway.profiler?.collectGarbage)
    throw new GwprofError("--gc-before-window needs gwprof's preload connected in both gateways, and it is not (see the warning above): drop the flag");
  const started = performance.now();
  const { heapUsedBytes } = await gateway.profiler.collectGarbage();
  return { forcedGc: { ms: performance.now() - started, heapAfterBytes: heapUsedBytes } };
}

/** windowsPerSide windows in which both sides are loaded at the same time, after both have settled together. */
async function measureSidesAtOnce(ctx: ComparisonContext, gateways: Record<Side, GatewayUnderTest>, { epoch, block, level }: BlockPlace): Promise<boolean> {
  const count = ctx.options.design.windowsPerSide;
  for (let position = 0; position < count; position++) {
    const settled = await settleBefore(windowContext(ctx, gateways.baseline, { epoch, block, level }, position, 'baseline'));
    const forcedGc = await Promise.all(SIDES.map((side) => gcBeforeWindow(ctx, gateways[side])));
    if (ctx.options.signal.aborted) return false;
    const onProgress = sharedProgress(ctx.options.onProgress);
    const steps = await Promise.all(
      SIDES.map((side) => {
        const window = windowContext(ctx, gateways[side], { epoch, block, level }, position, side);
        const settings = { ...window.settings, onProgress: onProgress[side] };
        return measureStep({ ...window, settings, settled, label: `epoch ${epoch} block ${block} ${position + 1}/${count} ${side}` });
      }),
    );
    if (steps.some((step) => step === null)) return false;
    for (const [i, side] of SIDES.entries()) ctx.compare.windows.push({ epoch, block, position, side, step: steps[i]!, ...forcedGc[i] });
    ctx.journal.save();
  }
  return true;
}
