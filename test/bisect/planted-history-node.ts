/**
 * A planted history of a Node gateway (examples/sample-gateway/main: Apollo Gateway over the demo
 * subgraphs): a git repository of `commits` commits whose plugin's loop, run once a request before
 * the response is sent, grows at chosen commits, every other commit changing only a notes file. A
 * bisection over it has a ground truth: the steps are where the loop grew, by what it grew.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../e2e/cli.js';
import type { PlantedHistory } from './planted-history.js';

const SAMPLE = path.join(repoRoot, 'examples/sample-gateway');

/** A plugin doing WORK_ITERATIONS rounds of arithmetic a request, about 200 instructions a round under callgrind with the counting V8 flags (Node 20): work in the request path the gateway itself does not do. */
const PLANTED_PLUGIN = `
const WORK_ITERATIONS = 0;
const plantedWork = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        let digest = 0;
        for (let i = 0; i < WORK_ITERATIONS; i++) digest = (digest * 31 + i) | 0;
        response.http.headers.set('x-planted-work', String(digest));
      },
    };
  },
};
`;

/** The sample's server.js with the planted plugin in it, its loop still at 0. */
function plantedServer(): string {
  const source = readFileSync(path.join(SAMPLE, 'main/server.js'), 'utf8');
  const withPlugin = source.replace(/\nconst gateway = /, `${PLANTED_PLUGIN}\nconst gateway = `);
  const planted = withPlugin.replace('new ApolloServer({ gateway })', 'new ApolloServer({ gateway, plugins: [plantedWork] })');
  if (planted === withPlugin || withPlugin === source) throw new Error('examples/sample-gateway/main/server.js changed: plant the loop again');
  return planted;
}

/** `iterationsAt(i)`: the plugin's loop at commit i. The gateway runs as `node server.js` on the sample's node_modules. */
export function plantedNodeHistory(root: string, commits: number, iterationsAt: (i: number) => number): PlantedHistory {
  const repo = path.join(root, 'gateway');
  mkdirSync(repo, { recursive: true });
  // Above the repository and the run folder's worktrees, so every checkout resolves the sample's packages.
  symlinkSync(path.join(SAMPLE, 'node_modules'), path.join(root, 'node_modules'));
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, '-c', 'user.name=gwprof', '-c', 'user.email=gwprof@localhost', ...args], { encoding: 'utf8' }).trim();
  git('init', '-q', '-b', 'main');
  writeFileSync(path.join(repo, 'package.json'), JSON.stringify({ name: 'planted-gateway', private: true, type: 'module' }, null, 2));
  const server = path.join(repo, 'server.js');
  const source = plantedServer();
  const hashes: string[] = [];
  for (let i = 0; i < commits; i++) {
    writeFileSync(server, source.replace('const WORK_ITERATIONS = 0;', `const WORK_ITERATIONS = ${iterationsAt(i)};`));
    appendFileSync(path.join(repo, 'NOTES.md'), `commit ${i}\n`);
    git('add', '-A');
    git('commit', '-q', '-m', `commit ${i}`);
    hashes.push(git('rev-parse', 'HEAD'));
  }
  // The demo's subgraphs and the default query: no scenario file.
  return { repo, commits: hashes, build: 'node --check server.js', run: 'node server.js', scenario: '' };
}
