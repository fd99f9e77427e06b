/**
 * The comparison by instructions as an epoch measure: every epoch starts a fresh pair of processes
 * under callgrind and counts batchesPerEpoch batches on both sides; the epochs go into
 * compare.instructionEpochs, the batches into compare.batches. After the verdict, the profile pair
 * shows where the instructions went.
 */
import { writeCompareResult, type InstructionBatch, type InstructionDesign } from '@gwprof/results';
import type { ComparisonContext } from '../epochs/context.js';
import { signedPercent, type EpochMeasure } from '../epochs/epoch-loop.js';
import { SIDES } from '../epochs/gateway-pair.js';
import { NO_EXTRAS, countBatch, startPair } from './counted-pair.js';
import { profilePair } from './profile-pair.js';

export function countedEpochs(ctx: ComparisonContext, design: InstructionDesign): EpochMeasure {
  ctx.compare.batches ??= [];
  ctx.compare.instructionEpochs ??= [];
  return {
    epochs: () => ctx.compare.instructionEpochs!,
    measureEpoch: (epoch) => countEpoch(ctx, epoch, design),
    describe: (verdict) => {
      const d = [...verdict.decisions.values()][0]!;
      const interval = d.interval ? ` [${signedPercent(d.interval.low, 2)}, ${signedPercent(d.interval.high, 2)}]` : '';
      return `instructions/req ${signedPercent(d.relativeChange, 2)}${interval}: ${d.outcome}`;
    },
    // Where the instructions went: one more pair, unless a response failed validation.
    afterVerdict: async (verdict) => {
      if ((design.profileCallers ?? 0) > 0 && verdict.verdict !== 'invalid') await profilePair(ctx, design);
    },
  };
}

/** One epoch: a fresh pair, then its batches on both sides at once; false when interrupted. */
async function countEpoch(ctx: ComparisonContext, epoch: number, design: InstructionDesign): Promise<boolean> {
  const started = await startPair(ctx, `${epoch}`, design, NO_EXTRAS);
  if (!started) return false;
  ctx.compare.instructionEpochs!.push({ epoch, startedAt: started.startedAt, finishedAt: null, sides: started.records });
  writeCompareResult(ctx.session.runDir, ctx.compare);
  for (let batch = 1; batch <= design.batchesPerEpoch; batch++) {
    const counted = await Promise.all(SIDES.map((side) => countBatch(ctx, started.sides[side], side, { epoch, batch }, design)));
    if (counted.some((b) => b === null)) return false;
    ctx.compare.batches!.push(...(counted as InstructionBatch[]));
    writeCompareResult(ctx.session.runDir, ctx.compare);
  }
  return true;
}
