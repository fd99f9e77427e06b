/**
 * The CI recipe (examples/gwprof-compare.yml), run: its own shell steps, taken from the YAML file,
 * with GitHub's variables pointed at temporary folders, a stand-in `gh` and the sample gateway
 * (examples/sample-gateway: `main`, and `pr`, which does more work per request). It checks the
 * comment, the step outputs and the exit codes for no change, a regression and a typo, and that the
 * comment is one per PR, updated in place. Each comparison counts instructions under callgrind for
 * real, so this suite takes about 11 minutes: `pnpm test:recipe` (docs/validation/ci-recipe.md).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot, tempDir } from '../e2e/cli.js';

interface Step {
  name?: string;
  id?: string;
  if?: string;
  run?: string;
  env?: Record<string, string>;
}

const recipe = parse(readFileSync(path.join(repoRoot, 'examples', 'gwprof-compare.yml'), 'utf8')) as { jobs: { compare: { steps: Step[] } } };
const steps = recipe.jobs.compare.steps;
const compareStep = steps.find((s) => s.id === 'compare')!;
const postStep = steps.find((s) => s.run?.includes('gh api'))!;
const warnStep = steps.find((s) => s.if?.includes("== '3'"))!;
const failStep = steps.find((s) => s.if?.includes('exit_code') && s.run?.includes('exit 1'))!;
const MARKER = '<!-- gwprof-compare -->';
const ARTIFACT_URL = 'https://github.com/org/gateway/actions/runs/1/artifacts/2';

/** A runner's workspace: the base branch's build in baseline/, the PR's in candidate/, and GitHub's files. */
function workspace(candidate: 'main' | 'pr') {
  const root = tempDir('recipe');
  for (const [side, version] of [
    ['baseline', 'main'],
    ['candidate', candidate],
  ] as const) {
    mkdirSync(path.join(root, side, 'dist'), { recursive: true });
    cpSync(path.join(repoRoot, 'examples/sample-gateway', version, 'server.js'), path.join(root, side, 'dist', 'server.js'));
  }
  symlinkSync(path.join(repoRoot, 'examples/sample-gateway/node_modules'), path.join(root, 'node_modules'));
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
  };
  // Not under a package manager on a runner: cmd: gateways run from the workspace.
  delete env.INIT_CWD;
  return { root, env, runnerTemp };
}

type Workspace = ReturnType<typeof workspace>;

function runStep(ws: Workspace, script: string, env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; stderr: string } {
  // As GitHub runs a `run:` step: bash, errexit and pipefail, from the workspace.
  const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd: ws.root, env: { ...ws.env, ...env }, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function exitCodeOutput(ws: Workspace): string {
  const lines = readFileSync(ws.env.GITHUB_OUTPUT!, 'utf8').trim().split('\n');
  return lines
    .filter((l) => l.startsWith('exit_code='))
    .pop()!
    .slice('exit_code='.length);
}

/** The two `if:` forms the recipe's last steps use, evaluated as GitHub would. */
function triggered(step: Step, exitCode: string): boolean {
  const unequal = [...step.if!.matchAll(/!= '(\d+)'/g)].map((m) => m[1]);
  if (unequal.length > 0) return unequal.every((code) => code !== exitCode);
  const equal = /== '(\d+)'/.exec(step.if!);
  return equal ? equal[1] === exitCode : false;
}

/** With GWPROF_RECIPE_EVIDENCE=DIR, the step outputs and the regression's comment are copied there (docs/validation/ci-recipe.md). */
function keepEvidence(ws: Workspace, comment: string): void {
  const dir = process.env.GWPROF_RECIPE_EVIDENCE;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  copyFileSync(ws.env.GITHUB_OUTPUT!, path.join(dir, 'github-output.txt'));
  copyFileSync(ws.env.FAKE_GH_STATE!, path.join(dir, 'gh-comments.json'));
  writeFileSync(path.join(dir, 'comment-after-regression.md'), comment);
}

function comments(ws: Workspace): { id: number; body: string }[] {
  return existsSync(ws.env.FAKE_GH_STATE!) ? JSON.parse(readFileSync(ws.env.FAKE_GH_STATE!, 'utf8')) : [];
}

describe('the CI recipe, run', () => {
  const shared = workspace('main');

  it('says no change for the same gateway on both sides: exit 0, one comment with the verdict and the artifact link', () => {
    const compared = runStep(shared, compareStep.run!);
    expect(compared.status, compared.stderr).toBe(0);
    expect(exitCodeOutput(shared)).toBe('0');
    const comment = readFileSync(path.join(shared.runnerTemp, 'gwprof-comment.md'), 'utf8');
    expect(comment).toMatch(/no change/i);
    const posted = runStep(shared, postStep.run!);
    expect(posted.status, posted.stderr).toBe(0);
    const [only, ...more] = comments(shared);
    expect(more).toEqual([]);
    expect(only!.body.startsWith(MARKER)).toBe(true);
    expect(only!.body).toContain(`(${ARTIFACT_URL})`);
    expect(readFileSync(shared.env.GITHUB_STEP_SUMMARY!, 'utf8')).toContain(comment.trim().split('\n')[0]!);
    expect(triggered(warnStep, '0') || triggered(failStep, '0')).toBe(false);
  }, 1_200_000);

  it('calls the PR version a regression: exit 1, the same comment updated in place, and the job fails', () => {
    const ws = shared;
    rmSync(path.join(ws.root, 'candidate'), { recursive: true });
    mkdirSync(path.join(ws.root, 'candidate', 'dist'), { recursive: true });
    cpSync(path.join(repoRoot, 'examples/sample-gateway/pr/server.js'), path.join(ws.root, 'candidate', 'dist', 'server.js'));
    const compared = runStep(ws, compareStep.run!);
    expect(compared.status, compared.stderr).toBe(0);
    expect(exitCodeOutput(ws)).toBe('1');
    expect(readFileSync(path.join(ws.runnerTemp, 'gwprof-comment.md'), 'utf8')).toMatch(/regression/i);
    expect(runStep(ws, postStep.run!).status).toBe(0);
    const all = comments(ws);
    expect(all).toHaveLength(1);
    expect(all[0]!.body).toMatch(/regression/i);
    // Where it went: the plugin's own functions in the gateway's own-code bucket, and almost nothing placed by a guess.
    expect(all[0]!.body).toMatch(/\| ownCode \| `willSendResponse` \|/);
    const guessed = /Placed by a guess: ([\d.]+)% \/ ([\d.]+)%/.exec(all[0]!.body);
    expect(guessed, 'the comment says how much was placed by a guess').not.toBeNull();
    for (const share of guessed!.slice(1)) expect(Number(share)).toBeLessThanOrEqual(5);
    keepEvidence(ws, all[0]!.body);
    expect(readFileSync(ws.env.FAKE_GH_LOG!, 'utf8')).toMatch(/"-X","PATCH","repos\/org\/gateway\/issues\/comments\/1000"/);
    expect(triggered(failStep, '1')).toBe(true);
    // GitHub substitutes the step's expression before bash runs it.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: GitHub's expression syntax, not a template
    expect(runStep(ws, failStep.run!.replaceAll('${{ steps.compare.outputs.exit_code }}', '1')).status).toBe(1);
  }, 1_200_000);

  it("keeps a fork PR's verdict in the job summary, without calling gh", () => {
    const ws = shared;
    writeFileSync(ws.env.FAKE_GH_LOG!, '');
    writeFileSync(ws.env.GITHUB_STEP_SUMMARY!, '');
    const posted = runStep(ws, postStep.run!, { FROM_FORK: 'true' });
    expect(posted.status).toBe(0);
    expect(posted.stdout).toMatch(/a fork's PR: the verdict is in the job summary/);
    expect(readFileSync(ws.env.GITHUB_STEP_SUMMARY!, 'utf8')).toMatch(/regression/i);
    expect(readFileSync(ws.env.FAKE_GH_LOG!, 'utf8')).toBe('');
  });

  it('reports a typo in the command as bad input (exit 2): no comment, and the job fails saying so', () => {
    const ws = workspace('main');
    const typo = compareStep.run!.replace('--threshold', '--treshold');
    expect(typo).not.toBe(compareStep.run);
    const compared = runStep(ws, typo);
    expect(compared.status).toBe(0);
    expect(exitCodeOutput(ws)).toBe('2');
    expect(compared.stderr).toMatch(/unknown option '--treshold'/);
    expect(existsSync(path.join(ws.runnerTemp, 'gwprof-comment.md'))).toBe(false);
    const posted = runStep(ws, postStep.run!);
    expect(posted.status).toBe(0);
    expect(posted.stdout).toMatch(/gwprof wrote no comment/);
    expect(comments(ws)).toEqual([]);
    expect(triggered(failStep, '2')).toBe(true);
    expect(triggered(warnStep, '2')).toBe(false);
  });
});
