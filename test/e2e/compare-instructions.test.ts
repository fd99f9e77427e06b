/**
 * End to end: `gwprof compare --measure instructions`, each side's gateway under callgrind, with
 * an answer so wrong that the verdict is certain: a candidate that answers wrongly is invalid, and
 * load levels are refused; allocations planted in a compiled stub are read by the allocation verdict. The same stub on both sides (no change), a compiled (non-Node) stub
 * counted without V8 flags, and a stub that runs several times its own instructions in a planted
 * loop (a regression, found where it is) are compare-instructions.long.test.ts's (`pnpm test:long`). Error rates on small changes belong to
 * the benchmark (docs/validation/compare-instructions.md).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { PublishedCompare } from '@gwprof/results';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli, stubGateway, stubScenario, tempDir } from './cli.js';
import { compare, ports } from './compare-instructions-run.js';

describe('gwprof compare --measure instructions', () => {
  it('calls a comparison whose candidate answers wrongly invalid, exit 4, apart from bad input (exit 2)', async () => {
    // The stub answers its 100 warm-up requests right and every later one wrongly.
    const { code, compare: c } = await compare(
      ['--baseline', stubGateway, '--candidate', stubGateway, ...stubScenario, '--candidate-env', 'STUB_WRONG_AFTER=100', '--no-profile'],
      'wrong',
    );
    expect(code).toBe(4);
    expect(c.analysis.verdict).toBe('invalid');
    expect(c.analysis.verdictReasons[0]).toMatch(/candidate batch 1\.1: 20 of 20 responses failed validation/);
    // Node sides: V8's heap bytes read through the preload around each batch, no allocator calls.
    for (const batch of c.batches!) expect(batch).toMatchObject({ allocationCalls: null, allocatedBytes: expect.any(Number) });
    expect(c.batches!.every((b) => b.allocatedBytes! > 0)).toBe(true);
  }, 300_000);

  it('reads allocations planted in a native gateway within 5%: an allocation regression, exit 1, and the function that made them', async () => {
    const dir = tempDir('instr-alloc');
    const binary = path.join(dir, 'stub-gateway');
    const library = path.join(dir, 'libwork-per-response.so');
    execFileSync('cc', ['-O1', '-o', binary, path.join(repoRoot, 'fixtures', 'native-stub', 'stub-gateway.c')]);
    execFileSync('cc', ['-O2', '-shared', '-fPIC', '-o', library, path.join(repoRoot, 'fixtures', 'native-work', 'work-per-response.c'), '-ldl']);
    const planted = (n: number) => [`LD_PRELOAD=${library}`, `GWPROF_ALLOCATIONS_PER_RESPONSE=${n}`];
    const out = tempDir('instr-alloc-run');
    // 20 allocations a response against 21: +5%, Apollo Router's dhat budget. The compiled stub needs no long warm-up.
    const result = await runCli([
      'compare',
      '--measure',
      'instructions',
      '--baseline',
      `cmd:${binary}`,
      '--candidate',
      `cmd:${binary}`,
      ...planted(20).flatMap((e) => ['--baseline-env', e]),
      ...planted(21).flatMap((e) => ['--candidate-env', e]),
      ...stubScenario,
      ...['--warmup-requests', '10', '--batch-requests', '10', '--min-epochs', '3', '--budget', '3', '--no-profile', '--no-color'],
      ...['--out', out, '--run-id', 'alloc', ...ports],
    ]);
    expect(result.code).toBe(1);
    const c = JSON.parse(readFileSync(path.join(out, 'alloc', 'compare.json'), 'utf8')) as PublishedCompare;
    const verdict = c.analysis.allocationVerdict!;
    expect(verdict).toMatchObject({ kind: 'allocator calls', decision: { outcome: 'regression' } });
    expect(Math.abs(verdict.decision.relativeChange / 0.05 - 1)).toBeLessThan(0.05);
    expect(verdict.functions[0]!.functionName).toBe('gwprof_planted_allocations');
    expect(Math.abs(verdict.functions[0]!.deltaPerOkRequest - 1)).toBeLessThan(0.05);
    expect(result.stdout).toMatch(/Allocations per ok request \(allocator calls\): REGRESSION/);
    expect(readFileSync(path.join(out, 'alloc', 'comment.md'), 'utf8')).toMatch(/`gwprof_planted_allocations`/);
  }, 120_000);

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
