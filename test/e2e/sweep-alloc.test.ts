/**
 * Allocation profiles against a ground truth gwprof did not compute: the stub gateway allocates a
 * known amount per request in one named function (fixtures/known-allocation.mjs), and Node's own
 * heap accounting says how many bytes that is. The step's allocation profile must find the same
 * bytes per request, charged to that function. The inlining-off profile after the window naming an
 * inlined allocator is sweep-alloc.long.test.ts's (`pnpm test:long`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REQUESTED, profiledSweep, stepFilesNamedInDocs } from './alloc-sweep.js';
import { repoRoot } from './cli.js';

/** Bytes per call by heapUsed growth, in a process whose young generation never collects between readings. */
function trueBytesPerCall(inlinable: boolean): number {
  const args = ['--min-semi-space-size=256', '--max-semi-space-size=256', path.join(repoRoot, 'fixtures', 'known-allocation.mjs'), String(REQUESTED)];
  const out = execFileSync(process.execPath, inlinable ? [...args, 'inlinable'] : args, { encoding: 'utf8' });
  return (JSON.parse(out) as { bytesPerCall: number }).bytesPerCall;
}

describe('allocation profiles against a known allocation', () => {
  it('finds the bytes per request Node measures, in the function that allocates them', async () => {
    const truth = trueBytesPerCall(false);
    expect(truth).toBeGreaterThan(REQUESTED * 0.9);
    const { dir, run } = await profiledSweep(false);
    const allocation = run.analysis!.steps[0]!.allocation!;
    const top = allocation.topAllocators[0]!;
    // fill makes the objects; in the window V8 inlined it into allocateKnownBytes, and the
    // inlining-off profile names it.
    expect(top.functionName).toBe('fill');
    expect(top.bytesPerOkRequest / truth).toBeGreaterThan(0.85);
    expect(top.bytesPerOkRequest / truth).toBeLessThan(1.15);
    // The rest of the stub (HTTP parsing, the response) allocates a few kB, not tens.
    expect(allocation.bytesPerOkRequest! - top.bytesPerOkRequest).toBeLessThan(truth * 0.15);
    // The default interval, as the run recorded it.
    expect(allocation.samplingIntervalBytes).toBe(run.config.heapSamplingBytes);
    expect(allocation.samplingIntervalBytes).toBeGreaterThan(0);
    expect(existsSync(path.join(dir, 'step-4.heapprofile'))).toBe(true);
    // Each step file the docs name is written (.perf.txt is a native gateway's; .alloc.html is written without the inlining-off profile, sweep-alloc.long's).
    const named = stepFilesNamedInDocs();
    expect(named).toEqual(expect.arrayContaining(['.cpuprofile', '.flame.html', '.heapprofile', '.attribution.heapprofile', '.attribution.alloc.html']));
    for (const suffix of named.filter((s) => s !== '.perf.txt' && s !== '.alloc.html'))
      expect(existsSync(path.join(dir, `step-4${suffix}`)), suffix).toBe(true);
    expect(existsSync(path.join(dir, allocation.flamegraph!))).toBe(true);
    expect(readFileSync(path.join(dir, 'summary.md'), 'utf8')).toMatch(/`[\d.]+ kB\/req \(\d+%\) {2}fill /);
  }, 120_000);

  it('counts the bytes of a function V8 inlines, under a frame that was not inlined', async () => {
    const truth = trueBytesPerCall(true);
    const { run } = await profiledSweep(true);
    const allocation = run.analysis!.steps[0]!.allocation!;
    const top = allocation.topAllocators[0]!;
    expect(top.url).toMatch(/known-allocation\.mjs$/);
    expect(top.bytesPerOkRequest / truth).toBeGreaterThan(0.85);
    expect(top.bytesPerOkRequest / truth).toBeLessThan(1.15);
  }, 120_000);
});
