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
import type { RunResult } from '@gwprof/results';
import { portArgs, repoRoot, runCli, stubGateway, stubScenario, tempDir } from './cli.js';

const BASE_PORT = 4590;
const REQUESTED = 200_000;

/** Bytes per call by heapUsed growth, in a process whose young generation never collects between readings. */
function trueBytesPerCall(inlinable: boolean): number {
  const args = ['--min-semi-space-size=256', '--max-semi-space-size=256', path.join(repoRoot, 'fixtures', 'known-allocation.mjs'), String(REQUESTED)];
  const out = execFileSync(process.execPath, inlinable ? [...args, 'inlinable'] : args, { encoding: 'utf8' });
  return (JSON.parse(out) as { bytesPerCall: number }).bytesPerCall;
}

async function profiledSweep(inlinable: boolean, extra: string[] = []): Promise<{ dir: string; run: RunResult }> {
  const out = tempDir('alloc');
  const env = ['STUB_SERVICE_MS=0', `STUB_ALLOC_BYTES=${extra.length > 0 ? 0 : REQUESTED}`, `STUB_ALLOC_INLINABLE=${inlinable ? 1 : 0}`];
  const result = await runCli([
    'sweep',
    '--gateway',
    stubGateway,
    ...stubScenario,
    ...env.flatMap((e) => ['--gateway-env', e]),
    '-c',
    '4',
    '-d',
    '4',
    '-w',
    '2',
    '--out',
    out,
    '--run-id',
    'a',
    '--no-color',
    ...portArgs(BASE_PORT),
    ...extra,
  ]);
  expect(result.code, result.stderr).toBe(0);
  const dir = path.join(out, 'a');
  return { dir, run: JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')) as RunResult };
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
