/**
 * Where the instructions went, from the verdict's own last epoch: each side's last counted batch,
 * its dump read as a call graph (no callers were kept while counting) whose stacks are guessed from
 * its call edges, JIT code named through that process's perf map. No process is started: on a Node gateway a pair with callers kept cost
 * four minutes more than the verdict. A failure here is recorded and logged: it never changes the verdict.
 */
import type { InstructionProfileSide } from '@gwprof/results';
import type { ComparisonContext } from '../epochs/context.js';
import { SIDES, type Side } from '../epochs/gateway-pair.js';
import { PERF_MAP_V8_FLAGS } from './perf-map-files.js';
import { readByCallEdges, reduceDump } from './profile-pair.js';
import { recordWhereFailure } from './where-failure.js';
import { GUESSED_STACK_FRAMES } from '@gwprof/analysis';

export async function whereFromEpochs(ctx: ComparisonContext, epoch: number): Promise<void> {
  const startedAt = new Date().toISOString();
  const record = ctx.compare.instructionEpochs!.find((e) => e.epoch === epoch)!;
  try {
    ctx.options.onProgress(`where the instructions went: reading epoch ${epoch}'s batches…`, false);
    const sides = {} as Record<Side, InstructionProfileSide>;
    for (const side of SIDES) {
      const batch = ctx.compare.batches!.filter((b) => b.epoch === epoch && b.side === side).pop();
      if (!batch) throw new Error(`epoch ${epoch} has no batch of the ${side}`);
      const perfMapFile = `callgrind/${side}-e${epoch}.perf.map`;
      // The verdict's dumps stay: they are its record.
      const profileFile = await reduceDump(ctx, batch.dumpFile, perfMapFile, side, readByCallEdges, false);
      sides[side] = { pid: record.sides[side].pid, node: true, batch, perfMapFile, profileFile };
    }
    ctx.compare.instructionProfile = {
      startedAt,
      finishedAt: new Date().toISOString(),
      separateCallers: GUESSED_STACK_FRAMES,
      callEdges: true,
      v8Flags: PERF_MAP_V8_FLAGS,
      sides,
    };
  } catch (error) {
    if (ctx.options.signal.aborted) return;
    recordWhereFailure(
      ctx,
      error,
      { startedAt, separateCallers: GUESSED_STACK_FRAMES, callEdges: true },
      "the last epoch's batches gave no breakdown of the instructions",
    );
  }
  ctx.journal.save();
}
