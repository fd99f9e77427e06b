/**
 * One more pair, after the verdict: callgrind keeps each count's callers and V8 names its JIT code,
 * so publish can place every instruction in a bucket and a function. One batch a side, reduced at
 * once to a profile of instructions (the raw dump of a large gateway runs to a gigabyte). A failure
 * here is recorded and logged: it never changes the verdict.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PerfMap, callGraphOfFile, instructionProfileOfCallGraph, instructionProfileOfFile, type InstructionProfile } from '@gwprof/analysis';
import type { InstructionDesign, InstructionProfileSide } from '@gwprof/results';
import type { ComparisonContext } from '../epochs/context.js';
import { SIDES, type Side } from '../epochs/gateway-pair.js';
import { countBatch, startPair, timeoutMs, type PairExtras } from './counted-pair.js';
import { recordWhereFailure } from './where-failure.js';
import { PERF_MAP_V8_FLAGS, keepPerfMap, removeV8Logs, v8LogFlags } from './perf-map-files.js';

/** The profile pair's requests, with callers kept, may take this many times longer. */
const PROFILE_TIMEOUT_FACTOR = 4;
/**
 * V8's builtins (call and construct stubs, the baseline prologue, lazy compilation) sit between every
 * two JavaScript frames and filled two thirds of the kept callers: left out of the chains, their
 * instructions count for their caller, as the profile charges them anyway, and the totals do not move
 * (docs/validation/buckets-own-code.md).
 */
const PROFILE_VALGRIND_ARGS = ['--fn-skip=Builtins_*'];

export async function profilePair(ctx: ComparisonContext, design: InstructionDesign): Promise<void> {
  const callers = design.profileCallers!;
  const startedAt = new Date().toISOString();
  try {
    const extras: PairExtras = {
      valgrindArgs: [`--separate-callers=${callers}`, ...PROFILE_VALGRIND_ARGS],
      v8Flags: [...PERF_MAP_V8_FLAGS, ...v8LogFlags(ctx.session.runDir)],
    };
    const started = await startPair(ctx, 'profile', design, extras);
    if (!started) return;
    const requests = design.profileRequests ?? design.batchRequests;
    // Keeping callers makes callgrind several times slower again: a request gets longer before it is a timeout.
    const timeout = PROFILE_TIMEOUT_FACTOR * timeoutMs(ctx);
    const batches = await Promise.all(SIDES.map((side) => countBatch(ctx, started.sides[side], side, { epoch: 0, batch: 1 }, design, requests, timeout)));
    if (batches.some((b) => b === null)) return;
    ctx.options.onProgress("reducing the profile pair's dumps…", false);
    const sides = {} as Record<Side, InstructionProfileSide>;
    for (const [i, name] of SIDES.entries()) {
      const pid = started.sides[name].gateway.process!.serverPid;
      const perfMapFile = keepPerfMap(ctx.session.runDir, pid, `${name}-profile`);
      const batch = batches[i]!;
      const native = !started.records[name].node;
      const profileFile = await reduceDump(ctx, batch.dumpFile, perfMapFile, name, (file, perfMap) => instructionProfileOfFile(file, perfMap, callers, native));
      sides[name] = { pid, node: started.records[name].node, batch, perfMapFile, profileFile };
    }
    ctx.compare.instructionProfile = { startedAt, finishedAt: new Date().toISOString(), separateCallers: callers, v8Flags: PERF_MAP_V8_FLAGS, sides };
    removeV8Logs(ctx.session.runDir);
  } catch (error) {
    if (ctx.options.signal.aborted) return;
    recordWhereFailure(ctx, error, { startedAt, separateCallers: callers }, 'the profile pair failed: no breakdown of the instructions');
  }
  ctx.journal.save();
}

/** How a dump becomes a profile: its kept callers, or stacks guessed from its call graph. */
export type DumpReading = (file: string, perfMap: PerfMap) => Promise<InstructionProfile>;

/** A dump without callers, read through its call graph (a Node side of the verdict's own epochs). */
export const readByCallEdges: DumpReading = async (file, perfMap) => instructionProfileOfCallGraph(await callGraphOfFile(file), perfMap);

/**
 * The dump as a profile of instructions (a Node side's frames named through the perf map, a native
 * side's by its symbols), written beside it; the dump is removed unless it is the verdict's record.
 */
export async function reduceDump(
  ctx: ComparisonContext,
  dumpFile: string,
  perfMapFile: string | null,
  side: Side,
  read: DumpReading,
  removeDump = true,
): Promise<string> {
  const runDir = ctx.session.runDir;
  const perfMap = new PerfMap(perfMapFile ? readFileSync(path.join(runDir, perfMapFile), 'utf8') : '');
  const profile = await read(path.join(runDir, dumpFile), perfMap);
  const target = path.join(runDir, 'callgrind', `${side}-profile.instructions.json`);
  writeFileSync(target, JSON.stringify(profile));
  if (removeDump) rmSync(path.join(runDir, dumpFile), { force: true });
  return path.relative(runDir, target);
}
