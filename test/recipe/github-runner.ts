/**
 * A GitHub runner's workspace for running a CI recipe's own steps here: GitHub's variables pointed at
 * temporary folders, a stand-in `gh` (fake-gh.cjs), gwprof on PATH as the package's `gwprof` bin,
 * and `run:` steps run as GitHub runs them.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { repoRoot, tempDir } from '../e2e/cli.js';

export interface Step {
  name?: string;
  id?: string;
  if?: string;
  run?: string;
  env?: Record<string, string>;
}

export const MARKER = '<!-- gwprof-compare -->';
export const ARTIFACT_URL = 'https://github.com/org/gateway/actions/runs/1/artifacts/2';

/** A recipe's steps, and the ones every recipe has: compare, post, warn on 3, fail. */
export function recipeSteps(file: string) {
  const recipe = parse(readFileSync(path.join(repoRoot, 'examples', file), 'utf8')) as { jobs: { compare: { steps: Step[]; env?: Record<string, string> } } };
  const steps = recipe.jobs.compare.steps;
  return {
    steps,
    jobEnv: recipe.jobs.compare.env ?? {},
    compareStep: steps.find((s) => s.id === 'compare')!,
    postStep: steps.find((s) => s.run?.includes('gh api'))!,
    warnStep: steps.find((s) => s.if?.includes("== '3'"))!,
    failStep: steps.find((s) => s.if?.includes('exit_code') && s.run?.includes('exit 1'))!,
  };
}

export interface Workspace {
  root: string;
  env: NodeJS.ProcessEnv;
  runnerTemp: string;
}

/** An empty workspace with GitHub's files and variables; the caller puts baseline/ and candidate/ in it. */
export function runnerWorkspace(name: string, extraEnv: Record<string, string> = {}): Workspace {
  const root = tempDir(name);
  const bin = path.join(root, '.bin');
  mkdirSync(bin);
  writeFileSync(path.join(bin, 'gwprof'), `#!/bin/sh\nexec "${process.execPath}" "${path.join(repoRoot, 'packages/cli/dist/bin.js')}" "$@"\n`, { mode: 0o755 });
  copyFileSync(path.join(repoRoot, 'test/recipe/fake-gh.cjs'), path.join(bin, 'gh'));
  chmodSync(path.join(bin, 'gh'), 0o755);
  const runnerTemp = path.join(root, '.runner-temp');
  mkdirSync(runnerTemp);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${bin}:${process.env.PATH}`,
    RUNNER_TEMP: runnerTemp,
    GITHUB_OUTPUT: path.join(root, '.github-output'),
    GITHUB_STEP_SUMMARY: path.join(root, '.step-summary.md'),
    GITHUB_REPOSITORY: 'org/gateway',
    FAKE_GH_STATE: path.join(root, '.gh-comments.json'),
    FAKE_GH_LOG: path.join(root, '.gh-calls.log'),
    GH_TOKEN: 'token',
    PR: '7',
    ARTIFACT_URL,
    FROM_FORK: 'false',
    NO_COLOR: '1',
    ...extraEnv,
  };
  // Not under a package manager on a runner: cmd: gateways run from the workspace.
  delete env.INIT_CWD;
  return { root, env, runnerTemp };
}

export function runStep(ws: Workspace, script: string, env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; stderr: string } {
  // As GitHub runs a `run:` step: bash, errexit and pipefail, from the workspace.
  const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd: ws.root, env: { ...ws.env, ...env }, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export function exitCodeOutput(ws: Workspace): string {
  const lines = readFileSync(ws.env.GITHUB_OUTPUT!, 'utf8').trim().split('\n');
  return lines
    .filter((l) => l.startsWith('exit_code='))
    .pop()!
    .slice('exit_code='.length);
}

/** The two `if:` forms the recipe's last steps use, evaluated as GitHub would. */
export function triggered(step: Step, exitCode: string): boolean {
  const unequal = [...step.if!.matchAll(/!= '(\d+)'/g)].map((m) => m[1]);
  if (unequal.length > 0) return unequal.every((code) => code !== exitCode);
  const equal = /== '(\d+)'/.exec(step.if!);
  return equal ? equal[1] === exitCode : false;
}

export function comments(ws: Workspace): { id: number; body: string }[] {
  return existsSync(ws.env.FAKE_GH_STATE!) ? JSON.parse(readFileSync(ws.env.FAKE_GH_STATE!, 'utf8')) : [];
}
