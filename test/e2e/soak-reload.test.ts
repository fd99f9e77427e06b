/**
 * End to end: `gwprof soak --reload-every` on the cheapest gateway that reloads, the stub as a
 * `cmd:` gateway reloaded by SIGHUP. Each reload stalls it for 600 ms and keeps 4 MB more heap:
 * the reloads must be made after the warm-up, seen by the stub's log line, their windows' p99 far
 * above the windows without a reload, and the heap after GC 4 MB higher per reload.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SoakResult } from '@gwprof/results';
import { portArgs, portIsFree, runCli, stubGateway, stubScenario, tempDir } from './cli.js';

const BASE_PORT = 4960;

describe('gwprof soak --reload-every', () => {
  it('makes each reload after the warm-up, counts it once its log line is seen, and reports its window and the memory it kept', async () => {
    const out = tempDir('soak-reload');
    const result = await runCli([
      'soak',
      '--gateway',
      stubGateway,
      ...stubScenario,
      ...['--gateway-env', 'STUB_SERVICE_MS=1', '--gateway-env', 'STUB_RELOAD_STALL_MS=600', '--gateway-env', 'STUB_RELOAD_RETAIN_BYTES=4000000'],
      ...['--rate', '200', '-d', '15s', '--interval', '5s', '--calm', '1s', '--warmup', '4s'],
      ...['--reload-every', '4s', '--reload-window', '3s', '--reload-signal', 'HUP', '--reload-seen', 'stub gateway: reloaded'],
      ...['--snapshot-every', '0', '--no-color', ...portArgs(BASE_PORT), '--out', out, '--run-id', 's'],
    ]);
    expect(result.stderr).not.toMatch(/Error:/);
    const soak = JSON.parse(readFileSync(path.join(out, 's', 'results.json'), 'utf8')) as SoakResult;
    expect(soak.state).toBe('complete');
    expect(soak.config.reload).toMatchObject({ everySec: 4, how: 'signal', detail: ['SIGHUP'], seenBy: { kind: 'log' } });
    // The first interval is the warm-up: no reload; one in each of the two after it.
    const reloads = soak.intervals.map((i) => i.reloads?.reloads ?? []);
    expect(reloads.map((r) => r.length)).toEqual([0, 1, 1]);
    expect(reloads.flat().every((r) => r.atSec >= 4 && r.seenAfterSec !== null && r.seenAfterSec < 3 && r.error === null)).toBe(true);

    const analysis = soak.analysis!.reloads!;
    expect(analysis).toMatchObject({ made: 2, seen: 2, unseen: 0, swapFailed: 0 });
    // A 600 ms stall in a 3 s window at 200 req/s delays about 120 of its 600 requests by up to 600 ms.
    expect(analysis.aroundReloads.medianP99Ms!).toBeGreaterThan(300);
    expect(analysis.p99Ratio!).toBeGreaterThan(2);
    expect(analysis.memory!.bytesPerReload!).toBeGreaterThan(3.2e6);
    expect(analysis.memory!.bytesPerReload!).toBeLessThan(4.8e6);
    expect(result.stdout).toMatch(/Reloads: 2 swaps made, 2 seen/);
    expect(result.stdout).toMatch(/Around the 2 seen reload\(s\) \(windows of 3 s, 1 s before each\)/);
    expect(readFileSync(path.join(out, 's', 'summary.md'), 'utf8')).toMatch(/## Reloads under load/);
    for (let port = BASE_PORT; port <= BASE_PORT + 4; port++) expect(await portIsFree(port)).toBe(true);
  }, 60_000);
});
