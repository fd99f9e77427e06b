/**
 * End to end: `gwprof compare` with effects so large that the verdict is certain on any machine: two
 * identical stubs with a fixed service time are no change (exit 0), Ctrl-C stops both sides, bad
 * arguments exit 2. A Mesh candidate with a planted burn, the sides in turn, two Node versions and
 * equal arrival rates are compare.long.test.ts's (`pnpm test:long`). The error rates on small
 * effects belong to the benchmark (bench/src/compare.ts), not to the tests.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PublishedCompare } from '@gwprof/results';
import { fastStub, ports, BASE_PORT } from './compare-args.js';
import { portIsFree, runCli, startCli, stubGateway, stubScenario, tempDir, waitFor } from './cli.js';

describe('gwprof compare', () => {
  it('stops both sides on SIGINT, exits 130, and its record says 130 too', async () => {
    const out = tempDir('compare-interrupted');
    const args = ['compare', '--baseline', stubGateway, '--candidate', stubGateway, ...stubScenario, '-c', '2', ...fastStub, '--no-profile'];
    const { child, result } = startCli([...args, '--out', out, '--run-id', 'i', ...ports]);
    const file = path.join(out, 'i', 'compare.json');
    await waitFor(() => {
      try {
        return (JSON.parse(readFileSync(file, 'utf8')) as PublishedCompare).windows.length >= 1;
      } catch {
        return false;
      }
    }, 120_000);
    child.kill('SIGINT');
    expect((await result).code).toBe(130);
    const compare = JSON.parse(readFileSync(file, 'utf8')) as PublishedCompare;
    expect(compare.state).toBe('interrupted');
    expect(compare.analysis.exitCode).toBe(130);
    for (const port of [0, 1, 2, 3, 4, 5, 11, 12, 13, 14].map((i) => BASE_PORT + i)) expect(await portIsFree(port)).toBe(true);
  }, 200_000);

  it('rejects incomplete or contradictory arguments with exit code 2', async () => {
    const noCandidate = await runCli(['compare', '--baseline', 'mesh']);
    expect(noCandidate.code).toBe(2);
    expect(noCandidate.stderr).toMatch(/compare needs --baseline and --candidate/);
    const halfRuns = await runCli(['compare', '--baseline-run', tempDir('x')]);
    expect(halfRuns.code).toBe(2);
    expect(halfRuns.stderr).toMatch(/--baseline-run and --candidate-run go together/);
    const badEpochs = await runCli(['compare', '--baseline', 'mesh', '--candidate', 'mesh', '--min-epochs', '2']);
    expect(badEpochs.code).toBe(2);
    expect(badEpochs.stderr).toMatch(/--min-epochs must be a whole number ≥ 3: the test needs a variance with degrees of freedom/);
    const badNode = await runCli(['compare', '--baseline', 'mesh', '--candidate', 'mesh', '--candidate-node', 'latest']);
    expect(badNode.code).toBe(2);
    expect(badNode.stderr).toMatch(/Node version "latest": give a version such as 22 or 24\.9\.0/);
    const both = await runCli(['compare', '--baseline', 'mesh', '--candidate', 'mesh', '-c', '4', '--rate', '50']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/give --concurrency \(closed loop\) or --rate \(open loop\), not both/);
    const gcUnprofiled = await runCli(['compare', '--baseline', 'mesh', '--candidate', 'mesh', '--gc-before-window', '--no-profile']);
    expect(gcUnprofiled.code).toBe(2);
    expect(gcUnprofiled.stderr).toMatch(/--gc-before-window forces the GC through gwprof's preload, which --no-profile leaves out/);
    const unknown = await runCli(['compare', '--baseline', 'mesh', '--candidate', 'envoy']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown gateway "envoy"/);
  }, 60_000);
});
