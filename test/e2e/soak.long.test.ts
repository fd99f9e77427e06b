/**
 * End to end, the long tier (`pnpm test:long`): `gwprof soak` against a stub gateway with a planted leak as large as certainty needs
 * (20 KB per request at 200 req/s: the heap grows by about 4 MB per second of load, 12 MB per interval
 * against a stub heap that moves by kilobytes).
 * The detection times at 1 KB and 100 bytes per request belong to the benchmark (docs/validation/soak.md).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SoakResult } from '@gwprof/results';
import { portArgs, repoRoot, runCli, stubGateway, stubScenario, tempDir } from './cli.js';

const BASE_PORT = 4600;
const leak = (name: string, bytes: number) => [
  '--gateway-env',
  `NODE_OPTIONS=--require ${path.join(repoRoot, 'fixtures', 'leaks', `${name}.cjs`)}`,
  '--gateway-env',
  `LEAK_BYTES=${bytes}`,
];
const stub = ['--gateway', stubGateway, ...stubScenario, '--gateway-env', 'STUB_SERVICE_MS=1', '--rate', '200', '--no-color', ...portArgs(BASE_PORT)];
const readSoak = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')) as SoakResult;

describe('gwprof soak', () => {
  it('calls a planted leak a leak, at the bytes per request it leaks, and names its class (exit 1)', async () => {
    const out = tempDir('soak');
    // Six intervals of 6 s (3 s of load, 12 MB leaked, then the 3 s calm), the first calm (at about
    // 5 s) after the 2 s warm-up: the six calms the verdict needs at the least.
    const result = await runCli([
      'soak',
      ...stub,
      ...leak('js-class', 20_000),
      '-d',
      '36s',
      '--interval',
      '6s',
      '--warmup',
      '2s',
      '--snapshot-every',
      '2',
      '--out',
      out,
      '--run-id',
      's',
    ]);
    const dir = path.join(out, 's');
    const soak = readSoak(dir);
    expect(result.code, result.stderr).toBe(1);
    expect(soak.state).toBe('complete');
    expect(soak.crash).toBeNull();
    expect(soak.intervals).toHaveLength(6);
    // The harness's own heap after its own GC, at every calm: what it holds, under its RSS.
    for (const interval of soak.intervals) expect(interval.harnessHeapAfterGcBytes).toBeGreaterThan(1e6);
    for (const interval of soak.intervals) expect(interval.harnessHeapAfterGcBytes).toBeLessThan(interval.harnessRssBytes);
    expect(soak.analysis!.harnessHeapMbPerHour).toEqual(expect.any(Number));
    expect(soak.analysis!.verdict).toBe('leak');
    const heap = soak.analysis!.trends.find((t) => t.series === 'heapAfterGc')!;
    expect(heap.verdict).toBe('leak');
    // 20,000 bytes retained per request, plus the record itself; the rest of the stub does not grow.
    expect(heap.bytesPerRequest!.slope).toBeGreaterThan(15_000);
    expect(heap.bytesPerRequest!.slope).toBeLessThan(25_000);
    const [named] = soak.analysis!.growingClasses;
    expect(named!.name).toBe('LeakedRequestRecord');
    expect(named!.retainerPath!.join(' ')).toMatch(/leakedRecords/);
    expect(soak.snapshots.length).toBeGreaterThanOrEqual(3);
    expect(existsSync(path.join(dir, soak.snapshots[0]!.file!))).toBe(true);
    expect(readFileSync(path.join(dir, 'summary.md'), 'utf8')).toMatch(/LeakedRequestRecord/);
    expect(readFileSync(path.join(dir, 'index.html'), 'utf8')).toMatch(/<svg id="memory"/);
    expect(result.stdout).toMatch(/Verdict: LEAK/);
    // `gwprof report` re-publishes a soak's folder as the live soak did, and exits as it did.
    const summary = readFileSync(path.join(dir, 'summary.md'), 'utf8');
    const report = await runCli(['report', dir, '--no-color']);
    expect(report.code, report.stderr).toBe(1);
    expect(readFileSync(path.join(dir, 'summary.md'), 'utf8')).toBe(summary);
  }, 240_000);
});
