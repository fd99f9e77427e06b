/**
 * End to end, the long tier (`pnpm test:long`): a gateway that dies in the middle of a profiled
 * step fails that step, and the steps before it are kept.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadLevel, type RunResult } from '@gwprof/results';
import { portArgs, portIsFree, repoRoot, runCli, tempDir } from './cli.js';

const BASE_PORT = 4520;

describe('failing and interrupted sweeps', () => {
  it('marks the step failed when the gateway dies mid-profile, and keeps the steps before it', async () => {
    const out = tempDir('died');
    const preload = path.join(repoRoot, 'test/e2e/fixtures/exit-at-in-flight.cjs');
    const result = await runCli([
      'sweep',
      '-c',
      '2,3',
      '-d',
      '2',
      '-w',
      '0',
      '--out',
      out,
      '--run-id',
      'd',
      ...portArgs(BASE_PORT),
      '--gateway-env',
      `NODE_OPTIONS=--require ${preload}`,
      '--gateway-env',
      'GWPROF_EXIT_AT_IN_FLIGHT=3',
    ]);
    expect(result.code).toBe(2);
    const run = JSON.parse(readFileSync(path.join(out, 'd', 'results.json'), 'utf8')) as RunResult;
    expect(run.state).toBe('failed');
    expect(run.error).toMatch(/gateway exited/);
    // c=2 never has 3 requests in flight; c=3 does at once, inside its measured (profiled) window.
    expect(run.steps.map((s) => loadLevel(s.load))).toEqual([2, 3]);
    const last = run.steps.at(-1)!;
    expect(last.status).toBe('failed');
    expect(last.failures.join(' ')).toMatch(/gateway exited \(code 3\) during the step/);
    expect(run.steps.slice(0, -1).every((s) => s.status !== 'failed' && s.profile !== undefined)).toBe(true);
    for (let port = BASE_PORT; port <= BASE_PORT + 4; port++) expect(await portIsFree(port)).toBe(true);
  }, 120_000);
});
