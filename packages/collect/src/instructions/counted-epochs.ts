/**
 * The comparison by instructions as an epoch measure: every epoch starts a fresh pair of processes
 * under callgrind and counts batchesPerEpoch batches on both sides; the epochs go into
 * compare.instructionEpochs, the batches into compare.batches. Where the instructions went: one
 * more pair with callers kept (profile-pair.ts), or, when the design has V8's perf map in every
 * epoch (--where-from-epochs) and both sides are Node, the verdict's own last batches (where-from-epochs.ts).
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { InstructionBatch, InstructionDesign } from '@gwprof/results';
import type { ComparisonContext } from '../epochs/context.js';
import { signedPercent, type EpochMeasure } from '../epochs/epoch-loop.js';
import { SIDES } from '../epochs/gateway-pair.js';
import { countBatch, startPair, type PairExtras } from './counted-pair.js';
import { PERF_MAP_V8_FLAGS, keepPerfMap, removeV8Logs, v8LogFlags } from './perf-map-files.js';
import { profilePair } from './profile-pair.js';
import { whereFromEpochs } from './where-from-epochs.js';

/**
 * What counting adds for --where-from-epochs (the CLI puts them in the design): V8's perf map, and V8's builtins, which sit between every two JavaScript frames, left out
 * of callgrind's functions so that their instructions are their caller's (no total moves).
 */
export const WHERE_V8_FLAGS = PERF_MAP_V8_FLAGS;
export const WHERE_VALGRIND_ARGS = ['--fn-skip=Builtins_*'];

export function countedEpochs(ctx: ComparisonContext, design: InstructionDesign): EpochMeasure {
  ctx.compare.batches ??= [];
  ctx.compare.instructionEpochs ??= [];
  const where = (design.profileCallers ?? 0) > 0;
  // The perf map's flag also opens V8's event log: into the run folder, not the user's.
  const perfMaps = design.v8Flags.includes(PERF_MAP_V8_FLAGS[0]!);
  const extras: PairExtras = { valgrindArgs: [], v8Flags: perfMaps ? v8LogFlags(ctx.session.runDir) : [] };
  return {
    epochs: () => ctx.compare.instructionEpochs!,
    measureEpoch: (epoch) => countEpoch(ctx, epoch, design, extras),
    // Counts are quiet enough to decide at the fewest epochs: the last one the budget fits must be able to.
    replansEveryLook: true,
    describe: (verdict) => {
      const d = [...verdict.decisions.values()][0]!;
      const interval = d.interval ? ` [${signedPercent(d.interval.low, 2)}, ${signedPercent(d.interval.high, 2)}]` : '';
      return `instructions/req ${signedPercent(d.relativeChange, 2)}${interval}: ${d.outcome}`;
    },
    // Where the instructions went, unless a response failed validation.
    afterVerdict: async (verdict) => {
      if (!where || verdict.verdict === 'invalid') return;
      const last = ctx.compare.instructionEpochs![ctx.compare.instructionEpochs!.length - 1];
      if (perfMaps && last && SIDES.every((side) => last.sides[side].node)) await whereFromEpochs(ctx, last.epoch);
      else await profilePair(ctx, design);
    },
  };
}

/** One epoch: a fresh pair, then its batches on both sides at once; false when interrupted. */
async function countEpoch(ctx: ComparisonContext, epoch: number, design: InstructionDesign, extras: PairExtras): Promise<boolean> {
  const started = await startPair(ctx, `${epoch}`, design, extras);
  if (!started) return false;
  ctx.compare.instructionEpochs!.push({ epoch, startedAt: started.startedAt, finishedAt: null, sides: started.records });
  ctx.journal.save();
  for (let batch = 1; batch <= design.batchesPerEpoch; batch++) {
    const counted = await Promise.all(SIDES.map((side) => countBatch(ctx, started.sides[side], side, { epoch, batch }, design)));
    if (counted.some((b) => b === null)) return false;
    ctx.compare.batches!.push(...(counted as InstructionBatch[]));
    ctx.journal.save();
  }
  if (design.v8Flags.includes(PERF_MAP_V8_FLAGS[0]!)) keepEpochPerfMaps(ctx, epoch, started.records);
  return true;
}

/** The epoch's perf maps into the run folder, the previous epoch's removed: only the last one's batches are read for where. */
function keepEpochPerfMaps(ctx: ComparisonContext, epoch: number, records: Record<(typeof SIDES)[number], { pid: number; node: boolean }>): void {
  const runDir = ctx.session.runDir;
  for (const side of SIDES) {
    if (!records[side].node) continue;
    keepPerfMap(runDir, records[side].pid, `${side}-e${epoch}`);
    if (epoch > 1) rmSync(path.join(runDir, 'callgrind', `${side}-e${epoch - 1}.perf.map`), { force: true });
  }
  removeV8Logs(runDir);
}
