/**
 * `gwprof bisect` over a planted history (planted-history.ts): 34 commits of a Rust gateway, +3% of
 * work per request at commit 10 and +1.5% at commit 24, commit 16 broken. Both steps must be found at
 * their commits, each in about log2 of the range's points, the broken commit skipped and named, both
 * steps confirmed by a full comparison that names the function; an interrupted bisection resumes.
 * `pnpm test:slow`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PublishedBisect } from '@gwprof/results';
import { describe, expect, it } from 'vitest';
import { portArgs, runCli, startCli, tempDir, waitFor } from '../e2e/cli.js';
import { plantedHistory } from './planted-history.js';

/** The sample's resolver costs 15 instructions an iteration beside about 6.2 k a request: 20,000 iterations read 306.2 k. */
const BASE = 20_000;
const PLUS_3 = 20_612; // +3.0% of 306.2 k
const PLUS_4_5 = 20_927; // +1.5% of that
const BROKEN = 16;

function iterationsAt(i: number): number {
  return i >= 24 ? PLUS_4_5 : i >= 10 ? PLUS_3 : BASE;
}

const history = (root: string) => plantedHistory(root, 34, iterationsAt);

/** GWPROF_RECORD_DIR: each run's bisect.json, terminal output and minutes kept there (bench/results/bisect). */
function record(bisect: PublishedBisect, minutes: number, stdout: string): void {
  const dir = process.env.GWPROF_RECORD_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const stamp = bisect.runId.slice(0, 19);
  writeFileSync(path.join(dir, `planted-${stamp}.json`), JSON.stringify({ minutes, bisect }, null, 2));
  writeFileSync(path.join(dir, `planted-${stamp}.txt`), stdout);
}

const read = (runDir: string) => JSON.parse(readFileSync(path.join(runDir, 'bisect.json'), 'utf8')) as PublishedBisect;
const runDirOf = (stdout: string) => /run folder: (.+)/.exec(stdout)![1]!.trim();

describe('gwprof bisect over a planted history', () => {
  it('finds the +3% and the +1.5% step at their commits, skips the broken one, and confirms both', async () => {
    const root = tempDir('bisect-planted');
    const h = history(root);
    // Commit 16 does not build.
    const build = `if [ "$(git rev-parse HEAD)" = "${h.commits[BROKEN]}" ]; then echo "error: planted build failure" >&2; exit 1; fi; ${h.build}`;
    const started = Date.now();
    const result = await runCli(
      [
        'bisect',
        '--repo',
        h.repo,
        '--good',
        h.commits[0]!,
        '--bad',
        h.commits[33]!,
        '--build',
        build,
        '--run',
        h.run,
        '--scenario',
        h.scenario,
        '-o',
        path.join(root, 'runs'),
        ...portArgs(47_100),
      ],
      { NO_COLOR: '1' },
    );
    const minutes = (Date.now() - started) / 60_000;
    expect(result.code, result.stderr).toBe(1);
    const bisect = read(runDirOf(result.stdout));
    record(bisect, minutes, result.stdout);
    const steps = bisect.analysis.steps.map((s) => [s.good, s.bad, s.kind]);
    expect(steps).toEqual([
      [9, 10, 'regression'],
      [23, 24, 'regression'],
    ]);
    expect(bisect.analysis.steps[0]!.relativeChange).toBeGreaterThan(0.027);
    expect(bisect.analysis.steps[0]!.relativeChange).toBeLessThan(0.033);
    expect(bisect.analysis.steps[1]!.relativeChange).toBeGreaterThan(0.0135);
    expect(bisect.analysis.steps[1]!.relativeChange).toBeLessThan(0.0165);
    // The ends and about log2(33) points per step, the broken commit among the visited.
    const counted = bisect.points.filter((p) => p.counts.length > 0).length;
    expect(counted).toBeLessThanOrEqual(2 + 2 * 6 + 1);
    expect(bisect.points[BROKEN]!.skipped).toMatchObject({ stage: 'build', reason: expect.stringContaining('planted build failure') });
    expect(result.stdout).toMatch(/skipped \(build\)/);
    for (const c of bisect.confirmations) {
      expect(c.verdict).toBe('regression');
      // The resolver, paired across the two checkouts' binaries, carries the step's instructions.
      const top = c.moves!.functions[0]!;
      expect(top).toMatchObject({ functionName: 'sample_gateway::resolve_ok', url: '(the gateway binary)' });
      const step = c.moves!.totalPerOkRequest.candidate - c.moves!.totalPerOkRequest.baseline;
      expect(top.deltaPerOkRequest / step).toBeGreaterThan(0.9);
      expect(top.deltaPerOkRequest / step).toBeLessThan(1.1);
    }
    expect(bisect.confirmations).toHaveLength(2);
    const summary = readFileSync(path.join(runDirOf(result.stdout), 'summary.md'), 'utf8');
    expect(summary).toMatch(/gwprof compare --measure instructions/);
    expect(readFileSync(path.join(runDirOf(result.stdout), 'index.html'), 'utf8')).toMatch(/<svg id="bisect-curve"/);
  }, 1_800_000);

  it('goes on from where an interrupted bisection stopped, without counting its points again', async () => {
    const root = tempDir('bisect-resume');
    const h = history(root);
    const out = path.join(root, 'runs');
    const args = ['--build', h.build, '--run', h.run, '--scenario', h.scenario, '--no-confirm', '-o', out, '--run-id', 'planted', ...portArgs(47_200)];
    const first = startCli(['bisect', '--repo', h.repo, '--good', h.commits[0]!, '--bad', h.commits[20]!, ...args], { NO_COLOR: '1' });
    const runDir = path.join(out, 'planted');
    await waitFor(() => {
      try {
        return read(runDir).points.filter((p) => p.counts.length > 0).length >= 3;
      } catch {
        return false;
      }
    }, 600_000);
    first.child.kill('SIGINT');
    const stopped = await first.result;
    expect(stopped.code).toBe(130);
    const before = read(runDir).points.filter((p) => p.counts.length > 0);
    const resumed = await runCli(['bisect', '--resume', runDir, ...portArgs(47_200)], { NO_COLOR: '1' });
    expect(resumed.code, resumed.stderr).toBe(1);
    const after = read(runDir);
    expect(after.resumes).toBe(1);
    expect(after.points.filter((p) => p.skipped)).toEqual([]);
    for (const p of before) expect(after.points[p.index]!.counts[0]!.startedAt).toBe(p.counts[0]!.startedAt);
    expect(after.analysis.steps.map((s) => [s.good, s.bad])).toEqual([[9, 10]]);
  }, 1_800_000);
});
