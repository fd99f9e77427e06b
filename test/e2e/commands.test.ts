/**
 * The commands that read files only: `buckets` on any .cpuprofile and `report` on a run folder.
 * No services are started.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESULTS_SCHEMA_VERSION, exitCodesHelp, type PublishedCompare, type RunResult, type StepRecord } from '@gwprof/results';
import { makeCompareFixture } from '../../packages/render/src/test-fixtures/compare-fixture.js';
import { cliBin, repoRoot, runCli, tempDir } from './cli.js';

/** A tiny V8 profile: root → parserOnHeadersComplete → graphql execute (3 samples), plus 1 GC sample. */
function profile(samples: number[] = [3, 3, 3, 4]): object {
  return {
    nodes: [
      { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1, columnNumber: -1, scriptId: '0' }, children: [2, 4] },
      {
        id: 2,
        callFrame: { functionName: 'parserOnHeadersComplete', url: 'node:_http_common', lineNumber: 71, columnNumber: 0, scriptId: '1' },
        children: [3],
      },
      {
        id: 3,
        callFrame: {
          functionName: 'executeField',
          url: 'file:///app/node_modules/graphql/execution/execute.js',
          lineNumber: 480,
          columnNumber: 0,
          scriptId: '2',
        },
      },
      { id: 4, callFrame: { functionName: '(garbage collector)', url: '', lineNumber: -1, columnNumber: -1, scriptId: '0' } },
    ],
    startTime: 0,
    endTime: samples.length * 1000,
    samples,
    timeDeltas: samples.map(() => 1000),
  };
}

describe('gwprof buckets', () => {
  it('prints the bucket table of a profile, GraphQL frames winning over the HTTP parser above them', async () => {
    const file = path.join(tempDir('buckets'), 'p.cpuprofile');
    writeFileSync(file, JSON.stringify(profile()));
    const table = await runCli(['buckets', file]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/4 samples/);
    expect(table.stdout).toMatch(/execute\s+75\.0%/);
    expect(table.stdout).toMatch(/gc\s+25\.0%/);
    const json = await runCli(['buckets', file, '--json']);
    const parsed = JSON.parse(json.stdout) as { samples: number; buckets: Record<string, number> };
    expect(parsed.samples).toBe(4);
    expect(parsed.buckets.execute).toBeCloseTo(0.75, 9);
    expect(parsed.buckets.httpParser).toBe(0);
  });

  it('names a truncated or non-profile file, and reports a profile without samples', async () => {
    const dir = tempDir('buckets-bad');
    const truncated = path.join(dir, 'truncated.cpuprofile');
    writeFileSync(truncated, JSON.stringify(profile()).slice(0, 80));
    const bad = await runCli(['buckets', truncated]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('truncated.cpuprofile');
    const notProfile = path.join(dir, 'package.json');
    writeFileSync(notProfile, '{"name": "x"}');
    const wrong = await runCli(['buckets', notProfile]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/package\.json.*not a V8 CPU profile|package\.json.*nodes/);
    const empty = path.join(dir, 'empty.cpuprofile');
    writeFileSync(empty, JSON.stringify(profile([])));
    const none = await runCli(['buckets', empty]);
    expect(none.code).toBe(0);
    expect(none.stdout).toMatch(/no samples/);
  });
});

describe('gwprof report', () => {
  it('re-renders a run folder: buckets from its profiles, flame graphs, summary.md and index.html', async () => {
    const runDir = path.join(tempDir('report'), 'run');
    mkdirSync(runDir, { recursive: true });
    writeFileSync(path.join(runDir, 'step-10.cpuprofile'), JSON.stringify(profile()));
    const step: StepRecord = {
      id: '10',
      load: { kind: 'closed', concurrency: 10 },
      rate: null,
      status: 'ok',
      failures: [],
      warnings: [],
      startedAt: '2026-01-01T00:00:00Z',
      durationSec: 5,
      timing: {
        settleSec: 1,
        settled: true,
        warmupSec: 1,
        warmupSteady: true,
        warmupNote: 'no trend',
        windowStartSec: 1,
        windowSec: 5,
        windowLimitedBy: 'duration',
      },
      requests: { total: 100, ok: 100, failed: 0, inFlightAtEnd: 10 },
      failureCounts: { non2xx: 0, badBody: 0, graphqlErrors: 0, mismatch: 0, timeouts: 0, socketErrors: 0, protocolErrors: 0 },
      failureSamples: [],
      orderWarnings: 0,
      successRate: 1,
      rps: 20,
      latencyMs: { mean: 500, p50: 480, p75: 520, p80: 540, p90: 600, p95: 650, p99: 700, max: 710 },
      bytesPerResponse: 8602,
      gateway: { cpuPercent: 95, cpuMsPerOkRequest: 47, rssMaxMB: 300, pids: [] },
      subgraphs: { cpuPercent: 5, perSubgraph: {} },
      fanout: 9,
      loadgen: { cpuPercent: 3 },
      profile: { cpuprofile: 'step-10.cpuprofile', samples: 4, requestedIntervalUs: 1000, nodeGc: null, threadCpuMs: null, heap: null },
      series: [{ t: 0, phase: 'warmup', ok: 20, failed: 0, p50Ms: 480, p99Ms: 700, gatewayCpuPercent: 95 }],
      steadiness: { steady: true, reasons: [], trendPercent: 0, cvPercent: 3 },
    };
    const run: RunResult = {
      schemaVersion: RESULTS_SCHEMA_VERSION,
      tool: { name: 'gwprof', version: '0' },
      kind: 'sweep',
      runId: 'run',
      startedAt: '2026-01-01T00:00:00Z',
      finishedAt: '2026-01-01T00:01:00Z',
      state: 'complete',
      error: null,
      config: {
        gateway: 'mesh',
        gatewayEnv: {},
        scenario: 'varied',
        concurrency: [10],
        rates: [],
        arrivals: null,
        autoRate: false,
        slo: null,
        durationSec: 5,
        maxDurationSec: 15,
        warmupSec: 1,
        windowMinimums: { minRoundTrips: 10, minResponses: 200 },
        query: 'q.graphql',
        variables: null,
        expect: null,
        minSuccess: 1,
        timeoutSec: 10,
        subgraphDelayMs: 0,
        subgraphPorts: {},
        gatewayPort: 4000,
        profile: true,
        profiler: 'inspector',
        samplingIntervalUs: 1000,
        heapSamplingBytes: null,
        quick: false,
        engine: 'gwprof',
      },
      environment: {
        node: 'v20',
        platform: 'linux',
        cpuModel: 'x',
        cpuCount: 2,
        totalMemMB: 1,
        cpuSets: { gateway: '1', others: '0' },
        gatewayMemoryLimitMB: null,
        memoryLimitMethod: null,
        fdLimit: { soft: 1, hard: 1 },
        gatewayPackages: {},
        gitCommit: null,
        commandLine: [],
        hostname: 'h',
      },
      fanoutAlone: null,
      probe: null,
      steps: [step],
      artifacts: {},
      analysis: null,
    };
    writeFileSync(path.join(runDir, 'results.json'), JSON.stringify(run));
    const result = await runCli(['report', runDir, '--no-color']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const rendered = JSON.parse(readFileSync(path.join(runDir, 'results.json'), 'utf8')) as RunResult;
    expect(rendered.steps[0]).toEqual(step);
    expect(rendered.analysis!.steps[0]!.buckets!.execute).toBeCloseTo(0.75, 9);
    expect(rendered.analysis!.steps[0]!.flamegraph).toBe('step-10.flame.html');
    // The capacity analysis of the one ok step: 20 req/s × 0.5 s mean latency = 10 in flight on 10 connections.
    expect(rendered.analysis!.capacity).toMatchObject({
      optimalConcurrency: 10,
      maxConcurrency: 10,
      littlesLaw: [{ concurrency: 10, impliedConcurrency: 10, ratio: 1, flag: 'ok' }],
    });
    for (const file of ['summary.md', 'index.html', 'step-10.flame.html']) expect(existsSync(path.join(runDir, file))).toBe(true);
    // The printed CPU table holds the profile's own shares: 3 of its 4 samples in execute, 1 in gc.
    const lines = result.stdout.split('\n');
    const header = lines.findIndex((line) => /^\s*conc\s+samples\s.*\bexecute\b/.test(line));
    expect(header, result.stdout).toBeGreaterThanOrEqual(0);
    const columns = lines[header]!.trim().split(/\s{2,}/);
    const row = lines[header + 2]!.trim().split(/\s+/);
    expect(Object.fromEntries(columns.map((name, i) => [name, row[i]]))).toMatchObject({
      conc: '10',
      samples: '4',
      execute: '75.0',
      gc: '25.0',
    });
    // Buckets nothing fell in are left to summary.md in a terminal.
    expect(columns).not.toContain('other');
  });

  it("re-publishes a comparison's folder and exits with its verdict", async () => {
    const runDir = path.join(tempDir('report-compare'), 'cmp');
    mkdirSync(runDir, { recursive: true });
    // The fixture's candidate uses 4.9 ms of CPU per request against the baseline's 4.4, in every window.
    writeFileSync(path.join(runDir, 'compare.json'), JSON.stringify({ ...makeCompareFixture('windows'), analysis: null }));
    const result = await runCli(['report', runDir, '--no-color']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/Verdict: REGRESSION \(exit 1\)/);
    const published = JSON.parse(readFileSync(path.join(runDir, 'compare.json'), 'utf8')) as PublishedCompare;
    expect(published.analysis.verdict).toBe('regression');
    expect(published.analysis.levels[0]!.gating.relativeChange).toBeCloseTo(4.9 / 4.4 - 1, 9);
    expect(readFileSync(path.join(runDir, 'comment.md'), 'utf8')).toMatch(/^## gwprof compare: REGRESSION/);
    expect(existsSync(path.join(runDir, 'index.html'))).toBe(true);
  });

  it('prints the stack of a bug, not one line', async () => {
    const runDir = tempDir('report-bug');
    // A results.json of the right kind and schema whose step is empty: publishing it is a bug's path.
    writeFileSync(path.join(runDir, 'results.json'), JSON.stringify({ kind: 'sweep', schemaVersion: RESULTS_SCHEMA_VERSION, config: {}, steps: [{}] }));
    const result = await runCli(['report', runDir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^gwprof: unexpected error \(a bug in gwprof\): TypeError/);
    expect(result.stderr).toMatch(/\n\s+at .*\.js:\d+/);
  });

  it('explains a folder that is not a run', async () => {
    const result = await runCli(['report', tempDir('not-a-run')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/holds neither results\.json nor compare\.json: is this a gwprof run folder\?/);
  });
});

describe('conventions a user already knows', () => {
  it('prints the version with -v, and each bad value in one line that says what to fix, exit 2', async () => {
    const version = await runCli(['-v']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const port = await runCli(['sweep', '--subgraph-ports', '70000,4002,4003,4004']);
    expect(port.code).toBe(2);
    expect(port.stderr).toMatch(
      /^gwprof: option '--subgraph-ports <list>' argument '70000,4002,4003,4004' is invalid\. --subgraph-ports must be a comma-separated list of port numbers 1-65535/,
    );
    const soak = await runCli(['soak', '-d', '20s']);
    expect(soak.code).toBe(2);
    expect(soak.stderr).toMatch(/^gwprof: --duration \(20 s\) is shorter than one interval/);
    expect(soak.stderr).not.toMatch(/--interval \(/);
    const open = await runCli(['open', '/nonexistent']);
    expect(open.code).toBe(2);
    expect(open.stderr).toMatch(/^gwprof: \/nonexistent does not exist/);
    expect(open.stderr).not.toMatch(/gwprof report/);
    const memory = await runCli(['sweep', '--gateway-memory', 'lots']);
    expect(memory.code).toBe(2);
    expect(memory.stderr).toMatch(/--gateway-memory must be a size like 512MB, 1GB or 768MiB/);
  });

  it('takes --json alike everywhere: no value or - is stdout instead of the table, a value a file', async () => {
    const profileFile = path.join(repoRoot, 'packages/analysis/fixtures/profiles/mesh-c10.cpuprofile');
    const dash = await runCli(['buckets', profileFile, '--json', '-']);
    expect(dash.code).toBe(0);
    expect((JSON.parse(dash.stdout) as { samples: number }).samples).toBeGreaterThan(0);
    const file = path.join(tempDir('json'), 'buckets.json');
    const toFile = await runCli(['buckets', profileFile, '--json', file]);
    expect(toFile.code).toBe(0);
    expect(toFile.stdout).toMatch(/samples/);
    expect(() => JSON.parse(toFile.stdout)).toThrow();
    expect((JSON.parse(readFileSync(file, 'utf8')) as { file: string }).file).toBe(profileFile);
  });

  it('lists what each exit code of compare means in its help', async () => {
    const help = await runCli(['compare', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(exitCodesHelp('compare'));
    expect(help.stdout).toMatch(/4 +invalid: a response failed validation/);
    expect(help.stdout).toMatch(/--timeout <time>/);
  });
});

describe('another platform than Linux', () => {
  // process.platform faked before gwprof loads, as on a Mac.
  const onMac = ['--import', 'data:text/javascript,Object.defineProperty(process,"platform",{value:"darwin"})', cliBin];

  it('refuses a measuring command in one line before anything runs, and still reads profiles', async () => {
    const out = tempDir('mac');
    const sweep = spawnSync(process.execPath, [...onMac, 'sweep', '--quick', '--out', out], { encoding: 'utf8' });
    expect(sweep.status).toBe(2);
    expect(sweep.stderr.trim().split('\n')).toHaveLength(1);
    expect(sweep.stderr).toMatch(/^gwprof: sweep runs on Linux only .* this is macOS/);
    expect(readdirSync(out)).toEqual([]);
    const buckets = spawnSync(process.execPath, [...onMac, 'buckets', path.join(repoRoot, 'packages/analysis/fixtures/profiles/mesh-c10.cpuprofile')], {
      encoding: 'utf8',
    });
    expect(buckets.status).toBe(0);
    expect(buckets.stdout).toMatch(/gc\s+\d/);
  });
});
