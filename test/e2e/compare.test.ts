/**
 * End to end: `gwprof compare` with effects so large that the verdict is certain on any machine. A
 * Mesh candidate that burns four times Mesh's own CPU per request is a regression (exit 1); two
 * identical stubs with a fixed service time are no change (exit 0). The error rates on small
 * effects belong to the benchmark (bench/src/compare.ts), not to the tests.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PublishedCompare } from '@gwprof/results';
import { portArgs, portIsFree, repoRoot, runCli, stubGateway, stubScenario, tempDir } from './cli.js';

const BASE_PORT = 4530;
const ports = [...portArgs(BASE_PORT), '--candidate-port', String(BASE_PORT + 5)];
const burnPreload = path.join(repoRoot, 'fixtures', 'burn-cpu-per-request.cjs');
const fast = ['--window', '2', '--lead-in', '1', '-w', '5', '--min-blocks', '3', '--budget', '6'];

describe('gwprof compare', () => {
  it('reports a candidate four times slower as a regression, with what moved, a PR comment and exit code 1', async () => {
    const out = tempDir('compare');
    const markdown = path.join(out, 'comment.md');
    const json = path.join(out, 'compare.json');
    const result = await runCli([
      'compare', '--baseline', 'mesh', '--candidate', 'mesh',
      '--candidate-env', `NODE_OPTIONS=--require ${burnPreload}`, '--candidate-env', 'GWPROF_BURN_US=25000',
      '-c', '4', ...fast, '--markdown', markdown, '--json', json, '--out', out, '--run-id', 'cmp', ...ports,
    ]);
    const compare = JSON.parse(readFileSync(json, 'utf8')) as PublishedCompare;
    expect(result.code).toBe(1);
    expect(compare.analysis.verdict).toBe('regression');
    const level = compare.analysis.levels[0]!;
    expect(level.decision!.outcome).toBe('regression');
    expect(level.decision!.relativeChange).toBeGreaterThan(1);
    // Each side starts right before its own warm-up: the candidate only after the baseline's began.
    const [epoch] = compare.epochs;
    expect(Date.parse(epoch!.readyAt!.candidate)).toBeGreaterThan(Date.parse(epoch!.warmup.baseline!.startedAt));
    // Windows alternate in ABBA / BAAB blocks on the same warm processes.
    expect(compare.windows.slice(0, 4).map((w) => w.side)).toEqual(['baseline', 'candidate', 'candidate', 'baseline']);
    expect(compare.windows.slice(4, 8).map((w) => w.side)).toEqual(['candidate', 'baseline', 'baseline', 'candidate']);
    // Where it got slower: the burn loop (its clock reads are its self time) moved most, in a pprof pair.
    expect(['burnCpu', 'emitWithBurn', 'now', 'cpuUsage']).toContain(level.functions[0]!.functionName);
    expect(level.functions[0]!.deltaMsPerOkRequest).toBeGreaterThan(10);
    expect(existsSync(path.join(out, 'cmp', level.pprof!.candidate))).toBe(true);
    expect(readFileSync(markdown, 'utf8')).toMatch(/## gwprof compare: REGRESSION/);
    expect(existsSync(path.join(out, 'cmp', 'index.html'))).toBe(true);
    expect(result.stdout).toMatch(/Verdict: REGRESSION \(exit 1\)/);
    for (let port = BASE_PORT; port <= BASE_PORT + 5; port++) expect(await portIsFree(port)).toBe(true);
  }, 300_000);

  it('says no change for two identical gateways with a fixed service time, exit 0', async () => {
    // Identical sides differ only by noise, and at the default ±5% a noisy machine can make that
    // inconclusive. At ±50% (up: log 1.5 = 0.405, down: log 0.5 = −0.693; Wald's B = log(0.2/0.95)
    // = −1.56), both tests accept "no change" at the first look, 3 blocks, unless the mean log ratio
    // x̄ leaves [−0.347 + 0.75v, 0.203 − 1.28v] (v the per-block variance): within −29%..+22% at
    // v = 0.0025. Here the windows' CPU per request scatters by 1–2.5% under two CPU hogs (a drift,
    // 7% in a minute once, cancels in ABBA blocks), so x̄ is ±1% (σ) and v ≈ 0.0002: the nearer
    // boundary is 20σ away. Even one window at twice or half
    // the others leaves x̄ at ±0.12 and v at 0.04, still inside. The rates of false verdicts at ±5%
    // are the benchmark's.
    const out = tempDir('compare-aa');
    const result = await runCli([
      'compare', '--baseline', stubGateway, '--candidate', stubGateway, '--baseline-env', 'STUB_SERVICE_MS=5', '--candidate-env', 'STUB_SERVICE_MS=5',
      ...stubScenario,
      '-c', '4', ...fast, '--threshold', '50', '--no-profile', '--out', out, '--run-id', 'aa', ...ports,
    ]);
    const compare = JSON.parse(readFileSync(path.join(out, 'aa', 'compare.json'), 'utf8')) as PublishedCompare;
    expect(compare.analysis.verdict).toBe('no change');
    expect(result.code).toBe(0);
    const decision = compare.analysis.levels[0]!.decision!;
    expect(decision.outcome).toBe('no change');
    expect(decision.blocks).toBe(3);
    expect(decision.reason).toMatch(/±50\.0% tests/);
    expect(result.stdout).toMatch(/Verdict: NO CHANGE \(exit 0\)/);
  }, 300_000);

  it('rejects incomplete or contradictory arguments with exit code 2', async () => {
    const noCandidate = await runCli(['compare', '--baseline', 'mesh']);
    expect(noCandidate.code).toBe(2);
    expect(noCandidate.stderr).toMatch(/compare needs --baseline and --candidate/);
    const halfRuns = await runCli(['compare', '--baseline-run', tempDir('x')]);
    expect(halfRuns.code).toBe(2);
    expect(halfRuns.stderr).toMatch(/--baseline-run and --candidate-run go together/);
    const badBlocks = await runCli(['compare', '--baseline', 'mesh', '--candidate', 'mesh', '--min-blocks', '1']);
    expect(badBlocks.code).toBe(2);
    expect(badBlocks.stderr).toMatch(/--min-blocks must be a whole number ≥ 2: the test needs a variance/);
    const both = await runCli(['compare', '--baseline', 'mesh', '--candidate', 'mesh', '-c', '4', '--rate', '50']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/give --concurrency \(closed loop\) or --rate \(open loop\), not both/);
    const unknown = await runCli(['compare', '--baseline', 'mesh', '--candidate', 'envoy']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown gateway "envoy"/);
  }, 60_000);
});

describe('gwprof compare --rate (overhead at equal load)', () => {
  it('holds both sides at the same arrival rate and calls four times the CPU per request a regression', async () => {
    const out = tempDir('compare-rate');
    const result = await runCli([
      'compare', '--baseline', stubGateway, '--candidate', stubGateway, '--baseline-env', 'STUB_SERVICE_MS=4', '--candidate-env', 'STUB_SERVICE_MS=16',
      ...stubScenario,
      '--rate', '25', '--arrivals', 'uniform', ...fast, '--no-profile', '--out', out, '--run-id', 'rate', ...ports,
    ]);
    const compare = JSON.parse(readFileSync(path.join(out, 'rate', 'compare.json'), 'utf8')) as PublishedCompare;
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
