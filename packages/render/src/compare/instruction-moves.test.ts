import { describe, expect, it } from 'vitest';
import type { InstructionMoves } from '@gwprof/results';
import { instructionBucketLine, instructionMovesNote } from './instruction-moves.js';

const moves: InstructionMoves = {
  separateCallers: 160,
  totalPerOkRequest: { baseline: 26_000_000, candidate: 28_000_000 },
  truncatedShare: { baseline: 0.288, candidate: 0.301 },
  guessedShare: { baseline: 0.004, candidate: 0.012 },
  unnamedJitShare: { baseline: 0.006, candidate: 0.005 },
  failedRequests: { baseline: 0, candidate: 0 },
  buckets: [{ bucket: 'ownCode', baselinePerOkRequest: 0, candidatePerOkRequest: 1_900_000, deltaPerOkRequest: 1_900_000 }],
  functions: [],
};

describe('where the instructions went', () => {
  it('says how many instructions were placed by a guess, beside how many had their outer frames cut off', () => {
    const note = instructionMovesNote(moves);
    expect(note).toContain('Placed by a guess: 0.4% / 1.2% of the instructions');
    expect(note).toContain('cut off in all: 28.8% / 30.1%');
    expect(note).not.toContain('may be wrong');
    expect(instructionBucketLine(moves)).toBe('Instructions per ok request by bucket: ownCode +1.90 M (0 → 1.90 M).');
  });

  it('says only what was cut off for a comparison recorded before guesses were told apart', () => {
    const { guessedShare: _absent, ...older } = moves;
    const note = instructionMovesNote(older);
    expect(note).toContain('Outer frames cut off: 28.8% / 30.1% of the instructions (their bucket may be wrong)');
    expect(note).not.toContain('guess');
  });

  it('speaks of symbols and inlining for two native gateways, with no JavaScript or JIT words', () => {
    const note = instructionMovesNote({ ...moves, native: true });
    expect(note).toContain("functions are the binaries' own symbols, and what the compiler inlined counts for the function it was inlined into");
    expect(note).toContain('Placed by a guess: 0.4% / 1.2%');
    expect(note).not.toMatch(/JavaScript|JIT|builtin/);
  });

  it("says the buckets were guessed from the call edges of the verdict's own batches, what the guess assumes and where it fails", () => {
    const { guessedShare: _none, ...guessed } = moves;
    const note = instructionMovesNote({ ...guessed, callEdges: true });
    expect(note).toContain("From the verdict's own last epoch");
    expect(note).toContain("are a guess: no callers were kept while counting, so its stacks are guessed from callgrind's call edges, up to 160 frames");
    expect(note).toContain('it assumes a function costs the same whoever called it');
    expect(note).toContain("misplaces a library's callbacks");
    expect(note).toContain('Cut off: 28.8% / 30.1% of the instructions');
    expect(note).not.toContain('Placed by a guess');
    expect(note).toContain('buckets that moved by less than 0.5% of the baseline are not listed');
  });

  it('lists a guessed bucket only when it moved by half a percent of the baseline', () => {
    const buckets = [
      { bucket: 'fetch', baselinePerOkRequest: 8e6, candidatePerOkRequest: 8.09e6, deltaPerOkRequest: 90_000 },
      { bucket: 'ownCode', baselinePerOkRequest: 0, candidatePerOkRequest: 200_000, deltaPerOkRequest: 200_000 },
    ];
    const base = { ...moves, buckets, totalPerOkRequest: { baseline: 20_000_000, candidate: 20_300_000 } };
    expect(instructionBucketLine(base)).toContain('fetch +90.0 k');
    expect(instructionBucketLine({ ...base, callEdges: true })).toBe('Instructions per ok request by bucket: ownCode +200.0 k (0 → 200.0 k).');
  });
});
