/**
 * End to end, the long tier (`pnpm test:long`): a function V8 inlined is named as the allocator of
 * its own bytes, from the inlining-off allocation profile taken after the window, against the bytes
 * Node's own heap accounting measures (fixtures/audit-trail.cjs).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '@gwprof/results';
import { profiledSweep, stepFilesNamedInDocs } from './alloc-sweep.js';
import { repoRoot } from './cli.js';

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
    // The flame graph the docs name for this case (docs/allocations.md).
    expect(stepFilesNamedInDocs()).toContain('.alloc.html');
    expect(existsSync(path.join(physical.dir, `step-${physical.run.steps[0]!.id}.alloc.html`))).toBe(true);
  }, 180_000);
});
