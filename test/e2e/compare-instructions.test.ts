/**
 * End to end: `gwprof compare --measure instructions`, each side's gateway under callgrind, with
 * effects so large that the verdict is certain: the same stub on both sides is no change, and a
 * compiled (non-Node) stub is counted without V8 flags and says so. A stub that runs several times
 * its own instructions in a planted loop, a regression found where it is, is
 * compare-instructions.long.test.ts's (`pnpm test:long`). Error rates on small changes belong to
 * the benchmark (docs/validation/compare-instructions.md).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { portIsFree, repoRoot, runCli, stubGateway, stubScenario, tempDir } from './cli.js';
import { BASE_PORT, compare, ports } from './compare-instructions-run.js';

describe('gwprof compare --measure instructions', () => {
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
    expect(c.analysis.measure!.notes).toEqual([]);
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

  it('calls a comparison whose candidate answers wrongly invalid, exit 4, apart from bad input (exit 2)', async () => {
    // The stub answers its 100 warm-up requests right and every later one wrongly.
    const { code, compare: c } = await compare(
      ['--baseline', stubGateway, '--candidate', stubGateway, ...stubScenario, '--candidate-env', 'STUB_WRONG_AFTER=100', '--no-profile'],
      'wrong',
    );
    expect(code).toBe(4);
    expect(c.analysis.verdict).toBe('invalid');
    expect(c.analysis.verdictReasons[0]).toMatch(/candidate batch 1\.1: 20 of 20 responses failed validation/);
  }, 300_000);

  it('refuses load levels with one line: counted requests go one at a time', async () => {
    const result = await runCli([
      'compare',
      '--measure',
      'instructions',
      '--baseline',
      'mesh',
      '--candidate',
      'mesh',
      '-c',
      '4',
      '--out',
      tempDir('instr-bad'),
      ...ports,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/--measure instructions sends requests one at a time: leave out --concurrency and --rate/);
  });
});
