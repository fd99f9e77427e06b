/**
 * End to end, the long tier (`pnpm test:long`): `gwprof compare --measure instructions` with a stub
 * that runs several times its own instructions in a planted loop: a regression, and the loop found
 * where it is, from a pair with callers kept and from the verdict's own last epoch.
 */
import { describe, expect, it } from 'vitest';
import { repoRoot, stubGateway, stubScenario } from './cli.js';
import { compare, v8EventLogs, workPreload } from './compare-instructions-run.js';

describe('gwprof compare --measure instructions', () => {
  it.each([
    { where: 'one more pair with callers kept', flags: [], callEdges: false },
    { where: "the verdict's own last epoch, stacks guessed from its call edges (--where-from-epochs)", flags: ['--where-from-epochs'], callEdges: true },
  ])(
    "calls a planted loop of several times the request's own instructions a regression, exit 1, and finds it from $where",
    async ({ flags, callEdges }) => {
      const v8LogsBefore = v8EventLogs(repoRoot);
      // About 200 instructions an iteration at V8's baseline tiers: 10,000 iterations add some 2 M to the stub's 0.4 M.
      const { code, compare: c } = await compare(
        [
          '--baseline',
          stubGateway,
          '--candidate',
          stubGateway,
          ...stubScenario,
          '--candidate-env',
          `NODE_OPTIONS=--require ${workPreload}`,
          '--candidate-env',
          'GWPROF_WORK_ITERATIONS=10000',
          ...flags,
        ],
        callEdges ? 'work-epochs' : 'work',
      );
      expect(code).toBe(1);
      expect(c.analysis.verdict).toBe('regression');
      expect(c.analysis.levels[0]!.decision!.relativeChange).toBeGreaterThan(2);
      // Where the instructions went: the planted loop on top, by about what it
      // costs (133 instructions an iteration, measured apart: docs/validation/compare-instructions.md),
      // in the bucket the CPU profile gives it (preloaded into the gateway: its own code); with callers kept, none of it by a guess.
      const moves = c.analysis.levels[0]!.instructionMoves!;
      expect(moves.callEdges ?? false).toBe(callEdges);
      expect(c.instructionProfile!.sides!.baseline.batch.epoch).toBe(callEdges ? c.instructionEpochs!.at(-1)!.epoch : 0);
      const top = moves.functions[0]!;
      expect(top.functionName).toBe('plantedWork');
      expect(top.deltaPerOkRequest).toBeGreaterThan(10_000 * 133 * 0.85);
      expect(top.deltaPerOkRequest).toBeLessThan(10_000 * 133 * 1.15);
      expect(top.bucket).toBe('ownCode');
      expect(moves.buckets[0]!.bucket).toBe('ownCode');
      expect(moves.truncatedShare.candidate).toBeLessThan(0.25);
      if (callEdges) expect(moves).not.toHaveProperty('guessedShare');
      else expect(moves.guessedShare!.candidate).toBeLessThan(0.05);
      // The perf map's flag also opens V8's event log: it must not land in the user's working folder.
      expect(v8EventLogs(repoRoot)).toEqual(v8LogsBefore);
    },
    300_000,
  );
});
