/**
 * The Rust CI recipe (examples/gwprof-compare-rust.yml), run: its build step builds the base branch
 * and the PR of a Rust gateway (examples/sample-gateway-rust, std only) with cargo into one shared
 * target folder, twice, the second time from the cache; its compare step counts both binaries under
 * callgrind for real, for the same code on both sides and for a PR that adds work to the resolver.
 * The publishing steps are the Node recipe's, tested in ci-recipe-run.slow.ts. `pnpm test:recipe`.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../e2e/cli.js';
import { comments, exitCodeOutput, recipeSteps, runStep, runnerWorkspace, triggered, type Workspace } from './github-runner.js';

const { steps, jobEnv, compareStep, postStep, failStep } = recipeSteps('gwprof-compare-rust.yml');
const buildStep = steps.find((s) => s.id === 'build')!;
const SAMPLE = path.join(repoRoot, 'examples/sample-gateway-rust');

/** The sample gateway's crate as a branch's checkout, its resolver doing `iterations` a request. */
function checkout(ws: Workspace, side: 'baseline' | 'candidate', iterations?: number): void {
  const dir = path.join(ws.root, side);
  mkdirSync(dir, { recursive: true });
  for (const name of ['Cargo.toml', 'Cargo.lock', 'src']) cpSync(path.join(SAMPLE, name), path.join(dir, name), { recursive: true });
  const main = path.join(dir, 'src/main.rs');
  if (iterations !== undefined)
    writeFileSync(main, readFileSync(main, 'utf8').replace(/WORK_ITERATIONS: u64 = [\d_]+;/, `WORK_ITERATIONS: u64 = ${iterations};`));
  // The user's scenario file: the stub's query and its golden answer.
  mkdirSync(path.join(dir, 'perf'), { recursive: true });
  writeFileSync(
    path.join(dir, 'perf/scenario.yaml'),
    `name: sample\noperations:\n  - queryFile: ${path.join(repoRoot, 'fixtures/stub.graphql')}\n    expectFile: ${path.join(repoRoot, 'fixtures/stub.expected.json')}\n`,
  );
}

describe('the Rust CI recipe, run', () => {
  const ws = runnerWorkspace('recipe-rust', { ...jobEnv, GATEWAY_BIN: 'sample-gateway' });
  checkout(ws, 'baseline');
  checkout(ws, 'candidate');

  it('builds both sides into one target folder and copies each binary out; a second build comes from the cache', () => {
    const first = runStep(ws, buildStep.run!);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/Compiling sample-gateway/);
    for (const side of ['baseline', 'candidate']) expect(readFileSync(path.join(ws.root, 'bin', `${side}-gateway`)).length).toBeGreaterThan(10_000);
    const again = runStep(ws, buildStep.run!);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/Compiling/);
  }, 600_000);

  it('says no change for the same code on both sides (exit 0), with nothing said of V8', () => {
    const compared = runStep(ws, compareStep.run!);
    expect(compared.status, compared.stderr).toBe(0);
    expect(exitCodeOutput(ws)).toBe('0');
    const comment = readFileSync(path.join(ws.runnerTemp, 'gwprof-comment.md'), 'utf8');
    expect(comment).toMatch(/no change/i);
    expect(comment).not.toMatch(/V8|JIT/);
  }, 1_200_000);

  it('calls a PR that adds work to the resolver a regression (exit 1), names the function, and the job fails', () => {
    checkout(ws, 'candidate', 30_000);
    expect(runStep(ws, buildStep.run!).status).toBe(0);
    const compared = runStep(ws, compareStep.run!);
    expect(compared.status, compared.stderr).toBe(0);
    expect(exitCodeOutput(ws)).toBe('1');
    expect(runStep(ws, postStep.run!).status).toBe(0);
    const [only] = comments(ws);
    expect(only!.body).toMatch(/regression/i);
    expect(only!.body).toMatch(/sample_gateway::resolve_ok/);
    expect(triggered(failStep, '1')).toBe(true);
  }, 1_200_000);
});
