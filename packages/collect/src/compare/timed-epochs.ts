/**
 * The comparison by time as an epoch measure: each epoch restarts both sides, warms each up, and
 * measures a block at every level still open (short windows of each side in random order); the
 * epochs go into compare.epochs, the windows into compare.windows.
 */
import { loadLabel } from '@gwprof/results';
import type { ComparisonVerdict } from '@gwprof/analysis';
import type { ComparisonContext } from '../epochs/context.js';
import { signedPercent, type EpochMeasure } from '../epochs/epoch-loop.js';
import { measureBlock } from './blocks.js';
import { startEpoch } from './start-pair.js';

export function timedEpochs(ctx: ComparisonContext): EpochMeasure {
  return {
    epochs: () => ctx.compare.epochs,
    measureEpoch: (epoch, verdict) => measureTimedEpoch(ctx, epoch, verdict),
    replansEveryLook: false,
    describe: (verdict) =>
      [...verdict.decisions.entries()]
        .map(([level, d]) => {
          const interval = d.interval ? ` [${signedPercent(d.interval.low, 1)}, ${signedPercent(d.interval.high, 1)}]` : '';
          return `${loadLabel(ctx.loadAt(level))} ${signedPercent(d.relativeChange, 1)}${interval}: ${d.outcome}`;
        })
        .join(' · '),
  };
}

/** One epoch: a fresh, warm pair, then blocksPerEpoch blocks at each level still open; false when interrupted. */
async function measureTimedEpoch(ctx: ComparisonContext, epoch: number, verdict: ComparisonVerdict): Promise<boolean> {
  const decided = new Set([...verdict.decisions].filter(([, d]) => d.outcome !== 'continue').map(([level]) => level));
  const levels = openLevels(ctx, decided);
  const gateways = await startEpoch(ctx, epoch, levels[0]!);
  if (!gateways) return false;
  for (let block = 0; block < ctx.options.design.blocksPerEpoch; block++) {
    for (const level of levels) if (!(await measureBlock(ctx, gateways, epoch, level))) return false;
  }
  return true;
}

/** The levels that still need blocks: every level before the first look, then the undecided ones. */
export function openLevels(ctx: ComparisonContext, decided: ReadonlySet<number>): number[] {
  const open = ctx.options.levels.filter((level) => !decided.has(level));
  return open.length > 0 ? open : [...ctx.options.levels];
}
