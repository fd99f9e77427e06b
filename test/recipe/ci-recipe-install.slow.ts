/**
 * Each CI recipe's gwprof install step, run as written at the pinned commit itself: the first recipe
 * as a job whose cache missed (gwprof checked out at the pin, installed, built and packed into
 * gwprof-pack/), the second as a job whose cache held gwprof-pack/ (no checkout, no build). Both must
 * leave a working `gwprof` of the pinned commit's version on the PATH they write to GITHUB_PATH.
 * The long tier runs the same steps on the commit under test (package.long.test.ts); this one
 * checks that the pin itself installs, in minutes (a fresh install and build of the pin).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '../e2e/cli.js';
import { recipeOf, runRecipeInstallStep } from '../e2e/installed-package.js';

/** Runs the recipe's gwprof install step in `workspace`; the folder holding the gwprof it put on the PATH. */
function runInstallStep(file: string, workspace: string): string {
  const installed = runRecipeInstallStep(file, workspace);
  if ('error' in installed) throw new Error(installed.error);
  return path.join(installed.prefix, 'node_modules', '.bin');
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
