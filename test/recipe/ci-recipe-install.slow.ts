/**
 * Each CI recipe's gwprof install step, run as written: the first recipe as a job whose cache
 * missed (gwprof checked out at the pinned commit, installed, built and packed into gwprof-pack/),
 * the second as a job whose cache held gwprof-pack/ (no checkout, no build). Both must leave a
 * working `gwprof` of the pinned commit's version on the PATH they write to GITHUB_PATH.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot, tempDir } from '../e2e/cli.js';

interface Recipe {
  jobs: { compare: { env: Record<string, string>; steps: Array<{ id?: string; run?: string }> } };
}

const recipeOf = (file: string) => parse(readFileSync(path.join(repoRoot, 'examples', file), 'utf8')) as Recipe;

/** Runs the recipe's gwprof install step in `workspace` with GitHub's variables; the PATH entry it wrote. */
function runInstallStep(file: string, workspace: string): string {
  const job = recipeOf(file).jobs.compare;
  const step = job.steps.find((s) => s.id === 'gwprof')!;
  const runnerTemp = tempDir('runner-temp');
  const githubPath = path.join(runnerTemp, 'github-path');
  writeFileSync(githubPath, '');
  const result = spawnSync('bash', ['-e', '-c', step.run!], {
    cwd: workspace,
    env: { ...process.env, ...job.env, GITHUB_WORKSPACE: workspace, RUNNER_TEMP: runnerTemp, GITHUB_PATH: githubPath },
    encoding: 'utf8',
  });
  expect(result.status, `${file}: ${result.stderr.slice(-2000)}`).toBe(0);
  return readFileSync(githubPath, 'utf8').trim();
}

describe('the CI recipes install gwprof at the pinned commit', () => {
  const workspace = tempDir('workspace');
  const pin = recipeOf('gwprof-compare.yml').jobs.compare.env.GWPROF_REF!;
  const version = (JSON.parse(execFileSync('git', ['-C', repoRoot, 'show', `${pin}:packages/cli/package.json`], { encoding: 'utf8' })) as { version: string })
    .version;

  it('both recipes pin the same commit', () => {
    expect(recipeOf('gwprof-compare-rust.yml').jobs.compare.env.GWPROF_REF).toBe(pin);
  });

  it('on a cache miss: checks out the pin, packs it into gwprof-pack/ and installs it', () => {
    // What actions/checkout does with repository and ref: the pinned commit in gwprof-src/.
    execFileSync('git', ['clone', '--quiet', '--no-checkout', repoRoot, path.join(workspace, 'gwprof-src')]);
    execFileSync('git', ['-C', path.join(workspace, 'gwprof-src'), 'checkout', '--quiet', pin]);
    const bin = runInstallStep('gwprof-compare.yml', workspace);
    expect(readdirSync(path.join(workspace, 'gwprof-pack'))).toEqual([`gwprof-${version}.tgz`]);
    expect(execFileSync(path.join(bin, 'gwprof'), ['-v'], { encoding: 'utf8' }).trim()).toBe(version);
  }, 900_000);

  it('on a cache hit: installs the cached package with no checkout and no build', () => {
    rmSync(path.join(workspace, 'gwprof-src'), { recursive: true, force: true });
    const bin = runInstallStep('gwprof-compare-rust.yml', workspace);
    expect(existsSync(path.join(workspace, 'gwprof-src'))).toBe(false);
    expect(execFileSync(path.join(bin, 'gwprof'), ['-v'], { encoding: 'utf8' }).trim()).toBe(version);
  }, 300_000);
});
