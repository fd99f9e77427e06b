/**
 * End to end: `gwprof compare --measure instructions`, each side's gateway under callgrind, with
 * an answer so wrong that the verdict is certain: a candidate that answers wrongly is invalid, and
 * load levels are refused; a Node side's batches carry V8's heap bytes. Allocations planted in a
 * compiled stub, read by the allocation verdict, are compare-allocations.slow.ts's (40 s). The same stub on both sides (no change), a compiled (non-Node) stub
 * counted without V8 flags, and a stub that runs several times its own instructions in a planted
 * loop (a regression, found where it is) are compare-instructions.long.test.ts's (`pnpm test:long`). Error rates on small changes belong to
 * the benchmark (docs/validation/compare-instructions.md).
 */
import { describe, expect, it } from 'vitest';
import { runCli, stubGateway, stubScenario, tempDir } from './cli.js';
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
