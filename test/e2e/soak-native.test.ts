/**
 * End to end: `gwprof soak` of a native gateway, the compiled stub (fixtures/native-stub/stub-gateway.c)
 * as a `cmd:` gateway with no preload. Its memory is read from /proc after each calm: a planted leak of
 * 20,000 bytes per request at 200 req/s (16 MB per interval against a stub whose RssAnon is under
 * 1 MB and does not move) must be called `leak` at that size, the same stub without it `no leak`, and
 * a stub that exits mid-soak a crash. The three soaks run side by side, each on its own ports. After the
 * leak verdict the stub runs twice more under valgrind's DHAT (a few seconds), which names the leaking
 * function (leak_request) and its bytes live per request. A fourth soak names the stub's allocator
 * metric (--allocator-metric): it grows 5,000 bytes per request while RssAnon grows by the 20,000
 * planted, and the verdict must read the metric's 5,000.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SoakResult } from '@gwprof/results';
import { portArgs, portIsFree, repoRoot, runCli, stubScenario, tempDir } from './cli.js';

const BASE_PORT = 4920;
const dir = tempDir('soak-native');
const binary = path.join(dir, 'stub-gateway');

/** Six intervals of 5 s, each calm (1 s) after the 3 s warm-up: the six calms the verdict needs at the least. */
async function soak(ports: number, runId: string, env: string[], extra: string[] = []): Promise<{ code: number | null; stdout: string; soak: SoakResult }> {
  const gatewayEnv = env.flatMap((e) => ['--gateway-env', e]);
  const result = await runCli([
    'soak',
    '--gateway',
    `cmd:${binary}`,
    ...stubScenario,
    ...gatewayEnv,
    '--rate',
    '200',
    '-d',
    '30s',
    '--interval',
    '5s',
    '--calm',
    '1s',
    '--warmup',
    '3s',
    '--no-color',
    ...portArgs(ports),
    '--out',
    dir,
    '--run-id',
    runId,
    ...extra,
  ]);
  expect(result.stderr).not.toMatch(/Error:/);
  const record = JSON.parse(readFileSync(path.join(dir, runId, 'results.json'), 'utf8')) as SoakResult;
  for (let port = ports; port <= ports + 4; port++) expect(await portIsFree(port)).toBe(true);
  return { code: result.code, stdout: result.stdout, soak: record };
}

describe('gwprof soak of a native gateway (no preload)', () => {
  beforeAll(() => {
    execFileSync('cc', ['-O1', '-o', binary, path.join(repoRoot, 'fixtures', 'native-stub', 'stub-gateway.c')]);
  });

  it.concurrent('calls a planted leak of 20,000 bytes per request a leak at that size, from RssAnon after each calm (exit 1)', async () => {
    const { code, stdout, soak: s } = await soak(BASE_PORT, 'leak', ['STUB_LEAK_BYTES=20000']);
    expect(code).toBe(1);
    expect(s.state).toBe('complete');
    expect(s.intervals).toHaveLength(6);
    // No preload: no heap, no forced GC, no snapshot; memory from /proc after every calm.
    for (const interval of s.intervals) {
      expect(interval.calm).toBeNull();
      expect(interval.gateway).toBeNull();
      expect(interval.nativeCalm!.rssAnonBytes!).toBeLessThanOrEqual(interval.nativeCalm!.rssBytes);
    }
    expect(s.snapshots).toEqual([]);
    const analysis = s.analysis!;
    expect(analysis.memoryMeasure).toBe('native-rss');
    expect(analysis.verdict).toBe('leak');
    const [anon] = analysis.trends;
    expect(anon!.series).toBe('rssAnonAfterCalm');
    expect(anon!.bytesPerRequest!.slope).toBeGreaterThan(18_000);
    expect(anon!.bytesPerRequest!.slope).toBeLessThan(22_000);
    expect(stdout).toMatch(/stands on RssAnon/);
    expect(stdout).toMatch(/Verdict: LEAK/);
    const summary = readFileSync(path.join(dir, 'leak', 'summary.md'), 'utf8');
    expect(summary).toMatch(/no forced GC exists for it/);
    // What grows, named: after the leak verdict, two runs under valgrind's DHAT (20 and 220 requests).
    const sites = s.allocationSites!;
    expect(sites.error).toBeNull();
    expect(sites.reason).toBe('leak');
    expect(sites.runs.map((r) => [r.ok, r.endedBy])).toEqual([
      [20, 'signal'],
      [220, 'signal'],
    ]);
    const [site] = sites.sites;
    expect(site!.name).toBe('leak_request');
    expect(site!.bytesLivePerRequest).toBeGreaterThan(20_000 * 0.85);
    expect(site!.bytesLivePerRequest).toBeLessThan(20_000 * 1.15);
    expect(sites.unseen).toEqual([]);
    expect(stdout).toMatch(/Allocation sites of the bytes still live \(valgrind-[\d.]+ DHAT, after the leak verdict/);
    expect(stdout).toMatch(/20000\.0\s+1\.00\s+20000\.0\s+leak_request \(in .*stub-gateway\)/);
    expect(summary).toMatch(/\| `leak_request \(in .*stub-gateway\)` \|/);
  }, 60_000);

  it.concurrent('calls the same stub without the leak no leak (exit 0)', async () => {
    const { code, stdout, soak: s } = await soak(BASE_PORT + 10, 'clean', []);
    expect(code).toBe(0);
    expect(s.analysis!.verdict).toBe('no leak');
    expect(s.analysis!.trends[0]!.bytesPerRequest!.high!).toBeLessThan(30);
    // No leak: no allocation sites counted.
    expect(s.allocationSites).toBeNull();
    expect(s.intervals.every((i) => i.requests.ok > 0 && i.requests.failed === 0)).toBe(true);
    expect(stdout).toMatch(/Verdict: NO LEAK — RssAnon after the calm/);
  }, 60_000);

  it.concurrent("judges the allocator's live bytes from --allocator-metric, not RssAnon, when the gateway publishes them (exit 1)", async () => {
    const port = BASE_PORT + 30;
    const metric = `http://127.0.0.1:${port}/metrics#stub_allocated_bytes`;
    const {
      code,
      stdout,
      soak: s,
    } = await soak(port, 'allocator', ['STUB_LEAK_BYTES=20000', 'STUB_METRIC_BYTES=5000'], ['--allocator-metric', metric, '--sites', 'never']);
    expect(code).toBe(1);
    expect(s.config.allocator!.description).toBe(`stub_allocated_bytes at http://127.0.0.1:${port}/metrics (--allocator-metric)`);
    for (const interval of s.intervals) {
      const reading = interval.nativeCalm!.allocator!;
      expect(reading.error).toBeNull();
      // 1,000,000 + 5,000 a request answered, read after the calm: every request counted ok was answered.
      expect(reading.allocatedBytes!).toBeGreaterThanOrEqual(1e6 + 5_000 * interval.nativeCalm!.okRequestsSoFar);
      expect(reading.residentBytes).toBeNull();
    }
    const analysis = s.analysis!;
    expect(analysis.memoryMeasure).toBe('native-allocator');
    expect(analysis.verdict).toBe('leak');
    const [allocated] = analysis.trends;
    expect(allocated!.series).toBe('allocatedAfterCalm');
    expect(allocated!.bytesPerRequest!.slope).toBeGreaterThan(4_900);
    expect(allocated!.bytesPerRequest!.slope).toBeLessThan(5_100);
    const [anon] = analysis.besideTrends!;
    expect(anon!.series).toBe('rssAnonAfterCalm');
    expect(anon!.bytesPerRequest!.slope).toBeGreaterThan(18_000);
    expect(stdout).toMatch(/stands on the allocator's live bytes \(stub_allocated_bytes at http:\/\/127\.0\.0\.1:\d+\/metrics \(--allocator-metric\)\)/);
    expect(stdout).toMatch(/RssAnon after the calm \(beside, not judged\)/);
    expect(stdout).toMatch(/Verdict: LEAK — memory kept growing after the warm-up: allocatedAfterCalm/);
  }, 60_000);

  it.concurrent('records a native gateway that dies mid-soak: its exit code and last log lines (exit 1)', async () => {
    // About 5 s of load at 200 req/s, then the stub exits with code 3.
    const { code, stdout, soak: s } = await soak(BASE_PORT + 20, 'crash', ['STUB_EXIT_AFTER=1000']);
    expect(code).toBe(1);
    expect(s.crash!.exitCode).toBe(3);
    expect(s.crash!.logTail.join('\n')).toMatch(/exiting after 1000 requests/);
    expect(s.analysis!.verdict).toBe('crash');
    expect(stdout).toMatch(/The gateway died at .* \(exit code 3\)/);
  }, 60_000);
});
