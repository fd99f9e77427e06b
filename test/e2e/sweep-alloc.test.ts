/**
 * Allocation profiles against a ground truth gwprof did not compute: the stub gateway allocates a
 * known amount per request in one named function (fixtures/known-allocation.mjs), and Node's own
 * heap accounting says how many bytes that is. The step's allocation profile must find the same
 * bytes per request, charged to that function.
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

const auditTrail = path.join(repoRoot, 'fixtures', 'audit-trail.cjs');

/** buildAuditTrail's bytes per call, by heapUsed growth with no GC between the readings. */
function auditTrailTruth(): number {
  const out = execFileSync(process.execPath, ['--min-semi-space-size=256', '--max-semi-space-size=256', auditTrail], { encoding: 'utf8' });
  return (JSON.parse(out) as { bytesPerCall: number }).bytesPerCall;
}

describe('allocation profiles against a known allocation', () => {
  it('names a function V8 inlined as the allocator of its own bytes, from the inlining-off profile after the window', async () => {
    // The preload makes the inlining certain: buildAuditTrail inlined into auditRequest, 100 kB a request.
    const truth = auditTrailTruth();
    const preload = ['--gateway-env', `NODE_OPTIONS=--require ${auditTrail}`, '--gateway-env', 'GWPROF_AUDIT_FORCE_INLINE=1'];
    const named = (run: RunResult, name: string) =>
      run.analysis!.steps[0]!.allocation!.topAllocators.find((f) => f.functionName === name)?.bytesPerOkRequest ?? 0;

    const { dir, run } = await profiledSweep(false, preload);
    const allocation = run.analysis!.steps[0]!.allocation!;
    expect(allocation.frames).toBe('allocating');
    expect(named(run, 'buildAuditTrail') / truth).toBeGreaterThan(0.85);
    expect(named(run, 'buildAuditTrail') / truth).toBeLessThan(1.15);
    expect(named(run, 'auditRequest')).toBeLessThan(truth * 0.05);
    // The step's figures are the window's: the inlining-off part came after it, in its own phase.
    const step = run.steps[0]!;
    const attribution = step.profile!.heap!.attribution!;
    expect('heapprofile' in attribution && existsSync(path.join(dir, attribution.heapprofile))).toBe(true);
    expect(step.series.filter((p) => p.phase === 'attribution').length).toBeGreaterThanOrEqual(8);
    expect(step.series.filter((p) => p.phase === 'window').reduce((sum, p) => sum + p.ok, 0)).toBe(step.requests.ok + step.requests.failed);

    // Without it, V8's physical frames charge the same bytes to the caller, and the tables say so.
    const physical = await profiledSweep(false, [...preload, '--no-allocation-attribution']);
    expect(physical.run.analysis!.steps[0]!.allocation!.frames).toBe('physical');
    expect(named(physical.run, 'buildAuditTrail')).toBeLessThan(truth * 0.05);
    expect(named(physical.run, 'auditRequest') / truth).toBeGreaterThan(0.85);
    expect(readFileSync(path.join(physical.dir, 'summary.md'), 'utf8')).toMatch(/† by physical frames only/);
  }, 180_000);

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
