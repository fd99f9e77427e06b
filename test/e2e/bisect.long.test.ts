/**
 * End to end, the long tier (`pnpm test:long`): `gwprof bisect` over a repository's commits with a
 * build command, on a Rust gateway whose work per request doubles at the last commit (an effect no
 * noise can hide), with a commit between that does not build.
 */ import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PublishedBisect } from '@gwprof/results';
import { plantedHistory } from '../bisect/planted-history.js';
import { portArgs, runCli, tempDir } from './cli.js';

const ports = [...portArgs(4760), '--candidate-port', '4765'];

describe('gwprof bisect', () => {
  it('places the step between the last two commits that build, names the one skipped, and exits 1', async () => {
    const root = tempDir('bisect');
    const h = plantedHistory(root, 4, (i) => (i === 3 ? 40_000 : 20_000));
    const build = `if [ "$(git rev-parse HEAD)" = "${h.commits[2]}" ]; then echo "error: planted build failure" >&2; exit 1; fi; ${h.build}`;
    const out = path.join(root, 'runs');
    const args = ['bisect', '--repo', h.repo, '--good', h.commits[0]!, '--bad', 'main', '--build', build, '--run', h.run, '--scenario', h.scenario];
    const result = await runCli([...args, '--no-confirm', '--warmup-requests', '50', '--batch-requests', '10', '-o', out, '--run-id', 'b', ...ports], {
      NO_COLOR: '1',
    });
    expect(result.code, result.stderr).toBe(1);
    const bisect = JSON.parse(readFileSync(path.join(out, 'b', 'bisect.json'), 'utf8')) as PublishedBisect;
    expect(bisect.analysis.steps).toMatchObject([{ good: 1, bad: 3, skippedBetween: [2], kind: 'regression' }]);
    // 15 instructions an iteration: twice the loop is about twice the count.
    expect(bisect.analysis.steps[0]!.relativeChange).toBeGreaterThan(0.8);
    expect(bisect.points[2]!.skipped).toMatchObject({ stage: 'build', reason: expect.stringContaining('planted build failure') });
    // The ends three times each, to measure the scatter between processes; the point between once.
    expect(bisect.points.map((p) => p.counts.length)).toEqual([3, 1, 0, 3]);
    expect(bisect.analysis.noise!.df).toBe(4);
    expect(result.stdout).toMatch(
      /Scatter of one point between processes: \d\.\d\d% \(pooled sd of log counts over 2 point\(s\) counted more than once, 4 df\)/,
    );
    expect(result.stdout).toMatch(/BISECT: 1 REGRESSION STEP ABOVE 1\.0%/);
    expect(result.stdout).toMatch(/reproduce: gwprof compare --measure instructions --baseline 'cmd:cd .*worktrees\/[0-9a-f]{12} && exec \.\/gateway-bin'/);
    // The report is rendered from bisect.json alone, and says the same again.
    const again = await runCli(['report', path.join(out, 'b')], { NO_COLOR: '1' });
    expect(again.code).toBe(1);
    expect(again.stdout).toContain(result.stdout.slice(result.stdout.indexOf('BISECT')));
  }, 300_000);
});
