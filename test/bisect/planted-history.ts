/**
 * A planted history of a Rust gateway (examples/sample-gateway-rust): a git repository of `commits`
 * commits whose resolver's loop grows at chosen commits, every other commit changing only a notes
 * file. A bisection over it has a ground truth: the steps are where the loop grew, by what it grew.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../e2e/cli.js';

const SAMPLE = path.join(repoRoot, 'examples/sample-gateway-rust');

export interface PlantedHistory {
  repo: string;
  /** Every commit's hash, oldest first. */
  commits: string[];
  build: string;
  run: string;
  scenario: string;
}

/** `iterationsAt(i)`: the resolver's loop at commit i. */
export function plantedHistory(root: string, commits: number, iterationsAt: (i: number) => number): PlantedHistory {
  const repo = path.join(root, 'gateway');
  mkdirSync(repo, { recursive: true });
  for (const name of ['Cargo.toml', 'Cargo.lock', 'src']) cpSync(path.join(SAMPLE, name), path.join(repo, name), { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, '-c', 'user.name=gwprof', '-c', 'user.email=gwprof@localhost', ...args], { encoding: 'utf8' }).trim();
  git('init', '-q', '-b', 'main');
  const main = path.join(repo, 'src/main.rs');
  const source = readFileSync(main, 'utf8');
  const hashes: string[] = [];
  for (let i = 0; i < commits; i++) {
    writeFileSync(main, source.replace(/WORK_ITERATIONS: u64 = [\d_]+;/, `WORK_ITERATIONS: u64 = ${iterationsAt(i)};`));
    appendFileSync(path.join(repo, 'NOTES.md'), `commit ${i}\n`);
    git('add', '-A');
    git('commit', '-q', '-m', `commit ${i}`);
    hashes.push(git('rev-parse', 'HEAD'));
  }
  const scenario = path.join(root, 'scenario.yaml');
  writeFileSync(
    scenario,
    `name: planted\noperations:\n  - queryFile: ${path.join(repoRoot, 'fixtures/stub.graphql')}\n    expectFile: ${path.join(repoRoot, 'fixtures/stub.expected.json')}\n`,
  );
  // One target folder for every commit's build (each builds in seconds from there); the binary is copied out, as two points run at once.
  const target = path.join(root, 'target');
  return {
    repo,
    commits: hashes,
    build: `CARGO_TARGET_DIR=${target} cargo build --release --locked --quiet && cp ${target}/release/sample-gateway ./gateway-bin`,
    run: './gateway-bin',
    scenario,
  };
}
