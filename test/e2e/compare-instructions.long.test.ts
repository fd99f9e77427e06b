/**
 * End to end, the long tier (`pnpm test:long`): `gwprof compare --measure instructions` with effects
 * so large that the verdict is certain: the same stub on both sides is no change, counted in
 * batches after a GC; a stub that runs several times its own instructions in a planted loop is a
 * regression, the loop found where it is (from a pair with callers kept, and from the verdict's own
 * last epoch); a compiled (non-Node) stub is counted without V8 flags and says so.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { portIsFree, repoRoot, stubGateway, stubScenario, tempDir } from './cli.js';
import { BASE_PORT, compare, v8EventLogs, workPreload } from './compare-instructions-run.js';

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

  it('says no change for the same Node gateway on both sides, counted in batches after a GC, and names what it measured', async () => {
    // ±20%: the stub's epochs scatter by about 1% (it runs only 0.4 M instructions a request, so one
    // scavenge more or less shows); at the first look the interval's half-width is at most about
    // 10·sd/√3, far inside ±20%.
    const {
      code,
      stdout,
      compare: c,
    } = await compare(['--baseline', stubGateway, '--candidate', stubGateway, ...stubScenario, '--threshold', '20', '--no-profile'], 'aa');
    expect(code).toBe(0);
    expect(c.analysis.verdict).toBe('no change');
    expect(c.analysis.measure!.kind).toBe('instructions');
    // The one note is what a Node gateway's allocation count is: nothing was set aside or unusual.
    expect(c.analysis.measure!.notes).toEqual([expect.stringMatching(/^a Node gateway's allocations per request are the bytes allocated on V8's heap/)]);
    expect(c.batches!.length).toBeGreaterThanOrEqual(6);
    for (const batch of c.batches!) {
      expect(batch.ok).toBe(20);
      expect(batch.forcedGcMs).not.toBeNull();
      expect(batch.instructionsPerOkRequest!).toBeGreaterThan(50_000);
    }
    for (const epoch of c.instructionEpochs!) expect(epoch.sides.baseline.node && epoch.sides.candidate.node).toBe(true);
    // --no-profile: no pair to show where the instructions went, and no such section.
    expect(c.instructionProfile ?? null).toBeNull();
    expect(c.analysis.levels[0]!.instructionMoves).toBeNull();
    expect(stdout).toMatch(/Verdict: NO CHANGE \(exit 0\)/);
    expect(stdout).toMatch(/Measured: user-space instructions executed by the gateway process/);
    expect(stdout).toMatch(/It cannot see: kernel and system-call time/);
    for (const port of [0, 1, 2, 3, 4, 5].map((i) => BASE_PORT + i)) expect(await portIsFree(port)).toBe(true);
  }, 300_000);

  it('counts a compiled gateway that is not Node, without V8 flags, and says so', async () => {
    const dir = tempDir('native');
    const binary = path.join(dir, 'stub-gateway');
    execFileSync('cc', ['-O1', '-o', binary, path.join(repoRoot, 'fixtures', 'native-stub', 'stub-gateway.c')]);
    const { code, compare: c } = await compare(
      ['--baseline', `cmd:${binary}`, '--candidate', `cmd:${binary}`, '--candidate-env', 'STUB_WORK_ITERATIONS=200000', ...stubScenario, '--no-profile'],
      'native',
    );
    expect(code).toBe(1);
    expect(c.analysis.verdict).toBe('regression');
    expect(c.analysis.levels[0]!.decision!.relativeChange).toBeGreaterThan(3);
    for (const epoch of c.instructionEpochs!) expect(epoch.sides.baseline.node || epoch.sides.candidate.node).toBe(false);
    // The binary under valgrind is named from valgrind's command line: a native gateway, with its build and no V8 words.
    expect(c.analysis.measure!.notes.join(' ')).toMatch(/the baseline is a native gateway \(stub-gateway unknown, as built by its owner\)/);
    expect(c.environment?.gatewayBuilds?.[`baseline:cmd:${binary}`]?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect([c.analysis.measure!.measured, ...c.analysis.measure!.notes].join(' ')).not.toMatch(/V8|JIT/);
    for (const batch of c.batches!) expect(batch.forcedGcMs).toBeNull();
  }, 300_000);
});
