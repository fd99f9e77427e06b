/** The plain-text pieces of "where the instructions went" in a comparison by instructions, shared by every renderer. */
import type { InstructionFunctionMove, InstructionMoves } from '@gwprof/results';
import { functionDisplayName, functionLocation } from '../function-names.js';

/** An instruction count as people read it: 57.42 M, 812.3 k, 950. */
export function instructionCount(n: number): string {
  const abs = Math.abs(n);
  if (abs >= 1e6) return `${(n / 1e6).toFixed(2)} M`;
  if (abs >= 1e3) return `${(n / 1e3).toFixed(1)} k`;
  return `${Math.round(n)}`;
}

export function signedInstructionCount(n: number): string {
  return `${n > 0 ? '+' : n < 0 ? '−' : '±'}${instructionCount(Math.abs(n))}`;
}

/** Moves of at least 0.1% of the baseline's instructions per request: smaller ones are below the count's noise. */
function counted<T extends { deltaPerOkRequest: number }>(moves: InstructionMoves, list: readonly T[], share = 0.001): T[] {
  const floor = share * moves.totalPerOkRequest.baseline;
  return list.filter((m) => Math.abs(m.deltaPerOkRequest) >= floor);
}

/**
 * Buckets from stacks guessed from call edges move between two processes of one gateway by more than
 * the count does (legacy Mesh A/A: up to 0.46% of the total): smaller bucket moves are not listed.
 */
export const GUESSED_BUCKET_FLOOR = 0.005;

/** One line: the buckets whose instructions per request moved, largest first. */
export function instructionBucketLine(moves: InstructionMoves): string {
  const moved = counted(moves, moves.buckets, moves.callEdges ? GUESSED_BUCKET_FLOOR : 0.001).slice(0, 6);
  const list =
    moved.length > 0
      ? moved
          .map(
            (b) =>
              `${b.bucket} ${signedInstructionCount(b.deltaPerOkRequest)} (${instructionCount(b.baselinePerOkRequest)} → ${instructionCount(b.candidatePerOkRequest)})`,
          )
          .join(', ')
      : `no bucket moved by ${moves.callEdges ? '0.5' : '0.1'}% of the baseline or more`;
  return `Instructions per ok request by bucket: ${list}.`;
}

export const INSTRUCTION_FUNCTION_HEADERS = ['change/req', 'baseline', 'candidate', 'bucket', 'function', 'location'];

export function instructionFunctionMoves(moves: InstructionMoves, n = 8): InstructionFunctionMove[] {
  return counted(moves, moves.functions).slice(0, n);
}

export function instructionFunctionCells(f: InstructionFunctionMove): string[] {
  return [
    signedInstructionCount(f.deltaPerOkRequest),
    instructionCount(f.baselinePerOkRequest),
    instructionCount(f.candidatePerOkRequest),
    f.bucket,
    functionDisplayName(f),
    f.url ? functionLocation(f) : '',
  ];
}

/** Where the figures come from and what they may miss. */
export function instructionMovesNote(moves: InstructionMoves): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const failed = moves.failedRequests;
  const failures =
    failed && failed.baseline + failed.candidate > 0
      ? ` ${failed.baseline} baseline and ${failed.candidate} candidate requests of that pair failed (a timeout under callgrind): their work is in its counts but not in the requests they are divided by, so its per-request figures read high; the verdict's batches are not affected.`
      : '';
  const cutOff = `${pct(moves.truncatedShare.baseline)} / ${pct(moves.truncatedShare.candidate)}`;
  const guesses = moves.guessedShare
    ? `Placed by a guess: ${pct(moves.guessedShare.baseline)} / ${pct(moves.guessedShare.candidate)} of the instructions (outer frames cut off before any frame that decides a bucket; cut off in all: ${cutOff})`
    : `Outer frames cut off: ${cutOff} of the instructions (their bucket may be wrong)`;
  const jit = `JIT code without a name: ${pct(moves.unnamedJitShare.baseline)} / ${pct(moves.unnamedJitShare.candidate)}`;
  if (moves.callEdges)
    return `From the verdict's own last epoch, each side's last batch (${instructionCount(moves.totalPerOkRequest.baseline)} → ${instructionCount(moves.totalPerOkRequest.candidate)} per request there). A JavaScript function's own instructions are as counted (a builtin's count for the function that called it); its bucket, and which function the runtime's work counts for, are a guess: no callers were kept while counting, so its stacks are guessed from callgrind's call edges, up to ${moves.separateCallers} frames, its instructions split among its callers as the calls each made to it cost (exact one call up; beyond, it assumes a function costs the same whoever called it). The guess misplaces a library's callbacks (graphql-js's visitor calls them for every caller alike) and calls that callgrind nested wrongly in JIT code, and it places the same functions a little differently in two processes: buckets that moved by less than 0.5% of the baseline are not listed. Without --where-from-epochs one more pair after the verdict keeps the callers. Cut off: ${cutOff} of the instructions; ${jit}.${failures}`;
  if (moves.separateCallers === 0)
    return `From the verdict's own last epoch, each side's last batch (${instructionCount(moves.totalPerOkRequest.baseline)} → ${instructionCount(moves.totalPerOkRequest.candidate)} per request there): each function's own instructions, no callers kept. V8's builtins count for the JavaScript function that called them; the runtime's, the collector's and Node's native code are listed under their own names, not under the JavaScript that called them. Every function is placed by its own frame only: one that no bucket rule recognises by itself (most of a library's functions, which a CPU profile places by their callers) is in other. JIT code without a name: ${pct(moves.unnamedJitShare.baseline)} / ${pct(moves.unnamedJitShare.candidate)}.${failures}`;
  const pair = `From one more pair of processes after the verdict, one batch a side, ${moves.separateCallers} callers kept per count (${instructionCount(moves.totalPerOkRequest.baseline)} → ${instructionCount(moves.totalPerOkRequest.candidate)} per request there)`;
  if (moves.native)
    return `${pair}; functions are the binaries' own symbols, and what the compiler inlined counts for the function it was inlined into. ${guesses}.${failures}`;
  return `${pair}; a builtin's or the runtime's instructions count for the JavaScript function that called them. ${guesses}; ${jit}.${failures}`;
}
