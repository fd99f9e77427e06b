/**
 * The slow tier (`pnpm test:slow`): allocations planted in a compiled stub (fixtures/native-work's
 * preload, 20 against 21 allocations a response: +5%) read by `gwprof compare --measure
 * instructions`'s allocation verdict within 5%, with the function that made them. About 40 s of
 * callgrind, over README's 20 s for an e2e file.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { PublishedCompare } from '@gwprof/results';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli, stubScenario, tempDir } from './cli.js';
import { ports } from './compare-instructions-run.js';

describe('gwprof compare --measure instructions: allocations', () => {
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
});
