/**
 * `gwprof bisect` over a planted history of a Node gateway (planted-history-node.ts): 16 commits of
 * Apollo Gateway over the demo subgraphs, a plugin's loop +9,000 rounds at commit 6 and +2,500 more
 * at commit 12 (about 200 instructions a round beside about 26 M a request: +6.9% and +1.8%, the
 * sizes of issue 54's history; +3,000 and +1,500 would be +2.3% and +1.1%). Exactly
 * those two steps must be named, from a scatter measured by the bisection's own repeats (Apollo
 * Gateway's is the largest of the Node gateways: docs/bisect.md). `pnpm test:slow`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BisectPoint, PublishedBisect } from '@gwprof/results';
import { describe, expect, it } from 'vitest';
import { portArgs, runCli, tempDir } from '../e2e/cli.js';
import { plantedNodeHistory } from './planted-history-node.js';

const BASE = 1_000;
const FIRST_STEP = 6;
const SECOND_STEP = 12;

function iterationsAt(i: number): number {
  return BASE + (i >= FIRST_STEP ? 9_000 : 0) + (i >= SECOND_STEP ? 2_500 : 0);
}

/** GWPROF_RECORD_DIR: the run's bisect.json, terminal output and minutes kept there (bench/results/bisect). */
function record(bisect: PublishedBisect, minutes: number, stdout: string): void {
  const dir = process.env.GWPROF_RECORD_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const stamp = bisect.runId.slice(0, 19);
  writeFileSync(path.join(dir, `planted-node-${stamp}.json`), JSON.stringify({ minutes, bisect }, null, 2));
  writeFileSync(path.join(dir, `planted-node-${stamp}.txt`), stdout);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const perRequest = (p: BisectPoint) => median(p.counts.map((c) => c.instructionsPerOkRequest));

describe('gwprof bisect over a planted history of a Node gateway', () => {
  it('names exactly the two planted steps, 5→6 and 11→12, from the scatter it measured', async () => {
    const root = tempDir('bisect-planted-node');
    const h = plantedNodeHistory(root, 16, iterationsAt);
    const started = Date.now();
    const result = await runCli(
      [
        'bisect',
        '--repo',
        h.repo,
        '--good',
        h.commits[0]!,
        '--bad',
        h.commits[15]!,
        '--build',
        h.build,
        '--run',
        h.run,
        '--no-confirm',
        '-o',
        path.join(root, 'runs'),
        ...portArgs(47_300),
      ],
      { NO_COLOR: '1' },
    );
    const minutes = (Date.now() - started) / 60_000;
    const runDir = /run folder: (.+)/.exec(result.stdout)![1]!.trim();
    const bisect = JSON.parse(readFileSync(path.join(runDir, 'bisect.json'), 'utf8')) as PublishedBisect;
    record(bisect, minutes, result.stdout);
    expect(bisect.analysis!.steps.map((s) => [s.good, s.bad, s.kind])).toEqual([
      [FIRST_STEP - 1, FIRST_STEP, 'regression'],
      [SECOND_STEP - 1, SECOND_STEP, 'regression'],
    ]);
    expect(result.code, result.stderr).toBe(1);
    // The scatter is the bisection's own, from the ends' repeats at least, and the terminal says it.
    const noise = bisect.analysis!.noise!;
    expect(noise.measuredSd).toBeGreaterThan(0);
    expect(noise.pointsRepeated).toBeGreaterThanOrEqual(2);
    expect(result.stdout).toMatch(/scatter/i);
    // The second step is 2,500 rounds against the first's 9,000 in instructions, and at least 1.5% of a request.
    const [first, second] = bisect.analysis!.steps;
    const delta = (s: typeof first) => perRequest(bisect.points[s!.bad]!) - perRequest(bisect.points[s!.good]!);
    expect(delta(second) / delta(first)).toBeGreaterThan(0.2);
    expect(delta(second) / delta(first)).toBeLessThan(0.36);
    expect(second!.relativeChange).toBeGreaterThanOrEqual(0.015);
  }, 1_800_000);
});
