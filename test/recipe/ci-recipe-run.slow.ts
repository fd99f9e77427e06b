/**
 * The CI recipe (examples/gwprof-compare.yml), run: its own shell steps, taken from the YAML file,
 * with GitHub's variables pointed at temporary folders, a stand-in `gh` and the sample gateway
 * (examples/sample-gateway: `main`, and `pr`, which does more work per request). It checks the
 * comment, the step outputs and the exit codes for no change, a regression and a typo, and that the
 * comment is one per PR, updated in place. Each comparison counts instructions under callgrind for
 * real, so this suite takes about 11 minutes: `pnpm test:recipe` (docs/validation/ci-recipe.md).
 */
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../e2e/cli.js';
import { ARTIFACT_URL, MARKER, comments, exitCodeOutput, recipeSteps, runStep, runnerWorkspace, triggered, type Workspace } from './github-runner.js';

const { compareStep, postStep, warnStep, failStep } = recipeSteps('gwprof-compare.yml');

/** A runner's workspace: the base branch's build in baseline/, the PR's in candidate/, and GitHub's files. */
function workspace(candidate: 'main' | 'pr'): Workspace {
  const ws = runnerWorkspace('recipe');
  for (const [side, version] of [
    ['baseline', 'main'],
    ['candidate', candidate],
  ] as const) {
    mkdirSync(path.join(ws.root, side, 'dist'), { recursive: true });
    cpSync(path.join(repoRoot, 'examples/sample-gateway', version, 'server.js'), path.join(ws.root, side, 'dist', 'server.js'));
  }
  symlinkSync(path.join(repoRoot, 'examples/sample-gateway/node_modules'), path.join(ws.root, 'node_modules'));
  return ws;
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
