/**
 * End to end, the long tier (`pnpm test:long`): `gwprof compare` on Mesh with a planted CPU burn and
 * its profiles, the sides measured in turn, one gateway on two Node versions, and both sides held at
 * one arrival rate. Each planted effect is a multiple of what it is compared with, so the verdict is
 * certain on any machine; the error rates on small effects belong to the benchmark.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PublishedCompare } from '@gwprof/results';
import { BASE_PORT, fast, fastStub, ports, quickStub } from './compare-args.js';
import { portIsFree, repoRoot, runCli, stubGateway, stubScenario, tempDir } from './cli.js';

const burnPreload = path.join(repoRoot, 'fixtures', 'burn-cpu-per-request.cjs');

describe('gwprof compare', () => {
  it('reports a candidate that burns 25 ms of CPU more per request as a regression, with what moved, a PR comment and exit code 1', async () => {
    const out = tempDir('compare');
    const markdown = path.join(out, 'comment.md');
    const json = path.join(out, 'compare.json');
    const result = await runCli([
      'compare',
      '--baseline',
      'mesh',
      '--candidate',
      'mesh',
      '--candidate-env',
      `NODE_OPTIONS=--require ${burnPreload}`,
      '--candidate-env',
      'GWPROF_BURN_US=25000',
      '-c',
      '4',
      ...fast,
      '--simultaneous',
      '--markdown',
      markdown,
      '--json',
      json,
      '--out',
      out,
      '--run-id',
      'cmp',
      ...ports,
    ]);
    const compare = JSON.parse(readFileSync(json, 'utf8')) as PublishedCompare;
    expect(result.code).toBe(1);
    expect(compare.analysis.exitCode).toBe(result.code);
    expect(compare.analysis.verdict).toBe('regression');
    const level = compare.analysis.levels[0]!;
    expect(level.decision!.outcome).toBe('regression');
    // The burn is 25 ms of CPU per request whatever the machine's speed, where Mesh's own cost is not
    // (7-36 ms a request between days, more on a machine twice as slow): the planted CPU is what must
    // show, and the change's direction, never its ratio to Mesh's own cost.
    const cpu = level.gating;
    expect(cpu.candidate.median - cpu.baseline.median).toBeGreaterThan(25 / 2);
    expect(level.decision!.relativeChange).toBeGreaterThan(0);
    // Both sides were loaded at once (four windows each, with --simultaneous) on the same subgraph processes, each
    // at its own subgraph ports: each side's fan-out counts its own subgraph requests, about 8 per request (not 16).
    for (const block of new Set(compare.windows.map((w) => w.block))) {
      const sides = compare.windows.filter((w) => w.block === block).map((w) => w.side);
      expect(sides.filter((s) => s === 'baseline')).toHaveLength(4);
      expect(sides.filter((s) => s === 'candidate')).toHaveLength(4);
    }
    for (const window of compare.windows) expect(window.step.fanout).toBeGreaterThan(6);
    for (const window of compare.windows) expect(window.step.fanout).toBeLessThan(10);
    // Where it got slower: the burn loop (preloaded into the gateway: its own code) moved its bucket
    // most, by at least half the planted CPU (the sampler counts wall time, so more on a loaded
    // machine); its own frames (the loop and its clock reads, split between them as each process's
    // JIT inlines them) moved most, in a pprof pair. Whether 3 epochs put the move beyond the
    // bucket's noise depends on how steady the machine was: its verdict is recorded, not required.
    const ownCode = level.buckets.find((b) => b.bucket === 'ownCode')!;
    expect(ownCode.deltaMsPerOkRequest).toBeGreaterThan(25 / 2);
    expect(Math.max(...level.buckets.map((b) => b.deltaMsPerOkRequest))).toBe(ownCode.deltaMsPerOkRequest);
    expect(typeof ownCode.noise!.moved).toBe('boolean');
    expect(['burnCpu', 'emitWithBurn', 'now', 'cpuUsage']).toContain(level.functions[0]!.functionName);
    expect(level.functions[0]!.deltaMsPerOkRequest).toBeGreaterThan(5);
    expect(existsSync(path.join(out, 'cmp', level.pprof!.candidate))).toBe(true);
    // The burn loop's clock reads each allocate a heap number, megabytes per request: the candidate allocates
    // more, and the loop is the function whose allocation moved most (beyond noise or not: see above).
    const allocation = level.allocation!;
    // How many reads fit in 25 ms of CPU is the machine's speed: the direction, and beyond noise, not a ratio.
    expect(allocation.candidateBytesPerOkRequest).toBeGreaterThan(allocation.baselineBytesPerOkRequest);
    expect(typeof allocation.noise!.moved).toBe('boolean');
    expect(['burnCpu', 'emitWithBurn', 'now', 'cpuUsage']).toContain(allocation.functions[0]!.functionName);
    expect(existsSync(path.join(out, 'cmp', allocation.flamegraphs!.candidate))).toBe(true);
    expect(readFileSync(markdown, 'utf8')).toMatch(/## gwprof compare: REGRESSION/);
    expect(existsSync(path.join(out, 'cmp', 'index.html'))).toBe(true);
    expect(result.stdout).toMatch(/Verdict: REGRESSION \(exit 1\)/);
    // Every port is free again: both gateways', the subgraphs' and the candidate's own subgraph ports.
    for (const port of [0, 1, 2, 3, 4, 5, 11, 12, 13, 14].map((i) => BASE_PORT + i)) expect(await portIsFree(port)).toBe(true);
  }, 300_000);

  it('by default measures the sides in turn, and calls four times the CPU per request a regression', async () => {
    const { result, compare, dir } = await compareStubs('in-turn', { baseline: 4, candidate: 16 }, [
      '-c',
      '4',
      ...quickStub,
      // A 4× effect on CPU per request: a 1 s window still holds 60–250 requests and about a second of the stub's CPU.
      '--window',
      '1',
      '--windows-per-side',
      '2',
      '--gc-before-window',
    ]);
    expect(result.code, result.stderr).toBe(1);
    expect(compare.config.design!.simultaneous).toBe(false);
    expect(compare.analysis.levels[0]!.decision!.relativeChange).toBeGreaterThan(1);
    // --gc-before-window: every window began after a full GC forced through the preload.
    expect(compare.config.design!.gcBeforeWindow).toBe(true);
    for (const window of compare.windows) expect(window.forcedGc!.heapAfterBytes).toBeGreaterThan(0);
    expect(readFileSync(path.join(dir, 'comment.md'), 'utf8')).toMatch(/a full GC forced on each side before each of its windows/);
    // Each side is warmed up at once after its own start: the second side's warm-up begins after the first's ended.
    for (const epoch of compare.epochs) {
      expect(epoch.warmedTogether).toBe(false);
      const [first, second] = (['baseline', 'candidate'] as const).map((side) => epoch.sides[side]).sort((a, b) => a.order - b.order);
      expect(Date.parse(second!.warmup!.startedAt)).toBeGreaterThanOrEqual(
        Date.parse(first!.warmup!.startedAt) + (first!.warmup!.settleSec + first!.warmup!.seconds) * 1000 - 100,
      );
    }
    // One window at a time, each starting once the load of the one before it ended (less 100 ms: settleSec is
    // rounded to 0.1 s); a block holds two of each side.
    const loadEnd = ({ step }: PublishedCompare['windows'][number]) =>
      Date.parse(step.startedAt) + (step.timing.settleSec + step.timing.windowStartSec + step.timing.windowSec) * 1000;
    const windows = [...compare.windows].sort((a, b) => Date.parse(a.step.startedAt) - Date.parse(b.step.startedAt));
    for (const [i, window] of windows.entries()) {
      if (i > 0) expect(Date.parse(window.step.startedAt)).toBeGreaterThanOrEqual(loadEnd(windows[i - 1]!) - 100);
    }
    for (const block of new Set(compare.windows.map((w) => w.block))) {
      const sides = compare.windows.filter((w) => w.block === block).map((w) => w.side);
      expect(sides.filter((s) => s === 'baseline')).toHaveLength(2);
      expect(sides.filter((s) => s === 'candidate')).toHaveLength(2);
    }
  }, 300_000);

  it('compares one gateway on two Node versions, and records both', async () => {
    // The stub holds each request 5 ms of busy CPU; its HTTP work, the only part Node's version can
    // change, is a few percent of that: at ±50% the verdict is no change on any machine.
    const { result, compare, dir } = await compareStubs('node', { baseline: 5, candidate: 5 }, [
      '--candidate-node',
      '22',
      '-c',
      '4',
      ...quickStub,
      '--threshold',
      '50',
      '--no-profile',
    ]);
    expect(result.code).toBe(0);
    expect(compare.config.nodes!.baseline).toBe(process.version);
    expect(compare.config.nodes!.candidate).toMatch(/^v22\./);
    // The candidate's process really ran on it (the stub says which Node it runs on when it listens).
    expect(readFileSync(path.join(dir, 'logs', 'candidate-e1.log'), 'utf8')).toMatch(/stub gateway on Node v22\./);
    expect(readFileSync(path.join(dir, 'logs', 'baseline-e1.log'), 'utf8')).toContain(`stub gateway on Node ${process.version}`);
    expect(readFileSync(path.join(dir, 'comment.md'), 'utf8')).toMatch(
      new RegExp(`Node\\.js: baseline ${process.version.replace(/\./g, '\\.')}, candidate v22\\.`),
    );
  }, 300_000);

  it('says no change for two identical gateways with a fixed service time, exit 0', async () => {
    // Identical sides differ only by noise, and at the default ±5% a noisy machine can make that
    // inconclusive. At ±50%, the first look (3 epochs) says no change when mean ± b·sd/√3 lies
    // within log(0.5)..log(1.5). b is at most 11.9 there (α·3/maxEpochs spent at df 2, maxEpochs ≤ 43:
    // a 5-minute budget at 7 s or more per epoch, two 1 s warm-ups and two 2 s windows), so an epoch
    // sd up to 0.055 keeps the half-width under 0.38 < log 1.5 = 0.405; an epoch here is one window a side, and the stub's windows
    // scatter by 1–2.5% under two CPU hogs, an epoch's mean of two per side by less: the boundary is
    // far beyond what this machine's noise reaches. The rates of false verdicts at ±5% are the benchmark's.
    const { result, compare } = await compareStubs('aa', { baseline: 5, candidate: 5 }, ['-c', '4', ...quickStub, '--threshold', '50', '--no-profile']);
    expect(compare.analysis.verdict).toBe('no change');
    expect(result.code).toBe(0);
    const decision = compare.analysis.levels[0]!.decision!;
    expect(decision.outcome).toBe('no change');
    expect(decision.epochs).toBe(3);
    expect(decision.reason).toMatch(/lies within ±50\.0%/);
    expect(result.stdout).toMatch(/Verdict: NO CHANGE \(exit 0\)/);
  }, 300_000);
});

describe('gwprof compare --rate (overhead at equal load)', () => {
  it('holds both sides at the same arrival rate and calls four times the CPU per request a regression', async () => {
    const { result, compare } = await compareStubs('rate', { baseline: 4, candidate: 16 }, [
      '--rate',
      '25',
      '--arrivals',
      'uniform',
      ...fastStub,
      '--no-profile',
    ]);
    expect(result.code).toBe(1);
    expect(compare.config.load).toEqual({ kind: 'open', arrivals: 'uniform', maxInFlight: 1000 });
    const level = compare.analysis.levels[0]!;
    expect(level.label).toBe('25 req/s');
    // Equal load: both sides served the same rate, so CPU % moved with CPU per request.
    const rps = level.metrics.find((m) => m.metric === 'rps')!;
    expect(Math.abs(rps.relativeChange!)).toBeLessThan(0.05);
    expect(level.metrics.find((m) => m.metric === 'cpuPercent')!.relativeChange!).toBeGreaterThan(1);
    expect(result.stdout).toMatch(/^25 req\/s$/m);
  }, 300_000);
});

/**
 * `gwprof compare` of the stub against itself, each side holding every request for its own CPU
 * milliseconds, with `args` for the design: its exit, its compare.json and its run folder.
 */
async function compareStubs(
  runId: string,
  serviceMs: { baseline: number; candidate: number },
  args: string[],
): Promise<{ result: Awaited<ReturnType<typeof runCli>>; compare: PublishedCompare; dir: string }> {
  const out = tempDir(`compare-${runId}`);
  const result = await runCli([
    'compare',
    '--baseline',
    stubGateway,
    '--candidate',
    stubGateway,
    '--baseline-env',
    `STUB_SERVICE_MS=${serviceMs.baseline}`,
    '--candidate-env',
    `STUB_SERVICE_MS=${serviceMs.candidate}`,
    ...stubScenario,
    ...args,
    '--out',
    out,
    '--run-id',
    runId,
    ...ports,
  ]);
  const dir = path.join(out, runId);
  return { result, compare: JSON.parse(readFileSync(path.join(dir, 'compare.json'), 'utf8')) as PublishedCompare, dir };
}
