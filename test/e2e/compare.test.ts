/**
 * End to end: `gwprof compare` with real Mesh gateways. A candidate made slower on purpose
 * (a preload that burns CPU per request) must be called a regression with exit code 1; bad
 * arguments exit 2 with one line.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PublishedCompare } from '@gwprof/results';
import { portArgs, repoRoot, runCli, tempDir } from './cli.js';

const BASE_PORT = 4530;
const burnPreload = path.join(repoRoot, 'scripts', 'burn-cpu-per-request.cjs');

describe('gwprof compare', () => {
  it('reports a deliberately slower candidate as a regression, with a PR comment and exit code 1', async () => {
    const out = tempDir('compare');
    const markdown = path.join(out, 'comment.md');
    const json = path.join(out, 'compare.json');
    const result = await runCli([
      'compare', '--baseline', 'mesh', '--candidate', 'mesh',
      '--candidate-env', `NODE_OPTIONS=--require ${burnPreload}`, '--candidate-env', 'GWPROF_BURN_US=4000',
      '-c', '4', '-d', '2', '-w', '1', '--min-trials', '3', '--max-trials', '3',
      '--markdown', markdown, '--json', json, '--out', out, '--run-id', 'cmp', ...portArgs(BASE_PORT),
    ]);
    const compare = JSON.parse(readFileSync(json, 'utf8')) as PublishedCompare;
    expect(compare.trials.map((t) => `${t.side[0]}${t.index}`)).toEqual(['b1', 'c1', 'b2', 'c2', 'b3', 'c3']);
    expect(compare.analysis.verdict).toBe('regression');
    expect(result.code).toBe(1);
    const cpu = compare.analysis.levels[0]!.metrics.find((m) => m.metric === 'cpuMsPerOkRequest')!;
    expect(cpu.verdict).toBe('regression');
    expect(cpu.ci95![0]).toBeGreaterThan(0.05);
    expect(readFileSync(markdown, 'utf8')).toMatch(/regression/i);
    expect(existsSync(path.join(out, 'cmp', 'index.html'))).toBe(true);
    expect(result.stdout).toMatch(/regression/i);
  }, 240_000);

  it('rejects incomplete or contradictory arguments with exit code 2', async () => {
    const noCandidate = await runCli(['compare', '--baseline', 'mesh']);
    expect(noCandidate.code).toBe(2);
    expect(noCandidate.stderr).toMatch(/compare needs --baseline and --candidate/);
    const halfRuns = await runCli(['compare', '--baseline-run', tempDir('x')]);
    expect(halfRuns.code).toBe(2);
    expect(halfRuns.stderr).toMatch(/--baseline-run and --candidate-run go together/);
    const badTrials = await runCli(['compare', '--baseline', 'mesh', '--candidate', 'mesh', '--min-trials', '1']);
    expect(badTrials.code).toBe(2);
    expect(badTrials.stderr).toMatch(/--min-trials must be a whole number ≥ 2/);
    const unknown = await runCli(['compare', '--baseline', 'mesh', '--candidate', 'envoy']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown gateway "envoy"/);
  }, 60_000);
});
