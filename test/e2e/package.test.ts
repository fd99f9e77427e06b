/**
 * gwprof as a user installs it: `node scripts/pack.mjs` writes gwprof-<version>.tgz, npm installs it
 * into an empty folder, and `npx gwprof` sweeps and compares a `cmd:` gateway from there, with run
 * folders in that folder. The package restricts no platform: run with `process.platform` faked (npm's `--os` does not reach an installed package's
 * code), the commands that need Linux refuse in one line and the others work. The quick sweep of the
 * demo on Mesh, its packages installed from the registry, is package.long.test.ts's (`pnpm test:long`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PublishedCompare, RunResult } from '@gwprof/results';
import { repoRoot, tempDir } from './cli.js';
import {
  BASE_PORT,
  candidatePorts,
  type Finished,
  type InstalledPackage,
  installedNames,
  installPackage,
  licencesListed,
  npx as npxIn,
  ports,
  start as startIn,
  startOn as startOnIn,
} from './installed-package.js';

/** Every markdown file under `dir`. */
function markdownUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? markdownUnder(path.join(dir, entry.name)) : entry.name.endsWith('.md') ? [path.join(dir, entry.name)] : [],
  );
}

let installed: InstalledPackage;
let user: string;
let tarball: string;
const npx = (args: string[]) => npxIn(installed, args);
const startOn = (platform: string, args: string[]) => startOnIn(installed, platform, args);
const start = (command: string, args: string[], env: NodeJS.ProcessEnv = {}) => startIn(installed, command, args, env);

describe('the installable package', () => {
  beforeAll(() => {
    installed = installPackage();
    ({ user, tarball } = installed);
  }, 240_000);

  it('packs into one tarball a fraction of a clone, and installs a working gwprof', async () => {
    expect(path.basename(tarball)).toMatch(/^gwprof-\d+\.\d+\.\d+\.tgz$/);
    expect(statSync(tarball).size).toBeLessThan(5_000_000);
    const version = await npx(['-v']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe((JSON.parse(readFileSync(path.join(repoRoot, 'packages/cli/package.json'), 'utf8')) as { version: string }).version);
    // The demo's subgraphs, fixtures and goldens came with it; the gateways' packages did not.
    const installed = path.join(user, 'node_modules', 'gwprof');
    for (const file of [
      'fixtures/user-reviews.graphql',
      'fixtures/user-reviews.expected.json',
      'subgraphs/accounts/dist/main.js',
      'gateways/mesh/package.json',
    ]) {
      expect(existsSync(path.join(installed, file)), file).toBe(true);
    }
    expect(existsSync(path.join(installed, 'gateways/mesh/node_modules'))).toBe(false);
  });

  it('ships the docs and recipes its README links to, every link of README and docs working there, and names no repository that is not its own', () => {
    const installed = path.join(user, 'node_modules', 'gwprof');
    const pages = ['README.md', ...markdownUnder(path.join(installed, 'docs')).map((page) => path.relative(installed, page))];
    expect(pages).toEqual(expect.arrayContaining(['docs/your-gateway.md', 'docs/validation/ci-recipe.md']));
    const links = pages.flatMap((page) =>
      [...readFileSync(path.join(installed, page), 'utf8').matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1]!)
        .filter((target) => !/^([a-z]+:|#)/.test(target))
        .map((target) => ({ page, target })),
    );
    expect(links.filter(({ page }) => page === 'README.md').length).toBeGreaterThan(20);
    const broken = links.filter(({ page, target }) => !existsSync(path.join(installed, path.dirname(page), target.replace(/#.*$/, ''))));
    expect(broken).toEqual([]);
    for (const file of ['docs/your-gateway.md', 'docs/compare.md', 'examples/gwprof-compare.yml'])
      expect(existsSync(path.join(installed, file)), file).toBe(true);
    const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(JSON.stringify(manifest)).not.toContain('github.com/gwprof/gwprof');
  });

  it("composes a supergraph for a router of one's own from the installed package, routed at the candidate's ports", async () => {
    const installed = path.join(user, 'node_modules', 'gwprof');
    const subgraphPorts = [1, 2, 3, 4].map((i) => BASE_PORT + i);
    const subgraphs = ['accounts', 'reviews', 'products', 'inventory'].map((name, i) =>
      start(process.execPath, [path.join(installed, 'subgraphs', name, 'dist/main.js')], { PORT: String(subgraphPorts[i]) }),
    );
    try {
      // The subgraphs answer within seconds; compose reports one that does not, so retry briefly.
      let composed: Finished = { code: null, stdout: '', stderr: '' };
      for (let attempt = 0; attempt < 20 && composed.code !== 0; attempt++) {
        if (attempt > 0) await new Promise((r) => setTimeout(r, 500));
        composed = await npx(['compose', 'supergraph.graphql', '--subgraph-ports', subgraphPorts.join(','), '--routing-ports', '4011,4012,4013,4014']);
        if (composed.code !== 0 && !/did not answer/.test(composed.stderr)) break;
      }
      expect(composed.code, composed.stderr).toBe(0);
      const supergraph = readFileSync(path.join(user, 'supergraph.graphql'), 'utf8');
      expect([...supergraph.matchAll(/@join__graph\(name: "(\w+)", url: "([^"]+)"\)/g)].map((m) => `${m[1]} ${m[2]}`).sort()).toEqual([
        'accounts http://127.0.0.1:4011/fed2/graphql',
        'inventory http://127.0.0.1:4014/fed2/graphql',
        'products http://127.0.0.1:4013/fed2/graphql',
        'reviews http://127.0.0.1:4012/fed2/graphql',
      ]);
      // Its packages came from gwprof's own install, into the cache, not from the user's project.
      expect(existsSync(path.join(user, 'node_modules', '@apollo', 'composition'))).toBe(false);
    } finally {
      for (const { child } of subgraphs) child.kill();
    }
  }, 240_000);

  it('restricts no platform, carries its licence, and lists the licence of every package it installed', () => {
    const installed = path.join(user, 'node_modules', 'gwprof');
    const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    const repo = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as Record<string, unknown>;
    // `os` would make npm refuse the package on a Mac; root `overrides` do nothing in a user's project.
    expect(manifest.os).toBeUndefined();
    expect(manifest.overrides).toBeUndefined();
    expect(manifest.license).toBe('MIT');
    for (const field of ['license', 'repository', 'homepage', 'bugs']) expect(manifest[field], field).toEqual(repo[field]);
    // Each gateway is installed as its own project, where the monorepo's pins do hold as overrides.
    const mesh = JSON.parse(readFileSync(path.join(installed, 'gateways/mesh/package.json'), 'utf8')) as { overrides?: Record<string, string> };
    expect(mesh.overrides).toMatchObject({ graphql: '16.11.0' });
    const files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n');
    expect(files).toEqual(expect.arrayContaining(['package/LICENSE', 'package/THIRD-PARTY-LICENCES.md']));
    const licences = readFileSync(path.join(installed, 'THIRD-PARTY-LICENCES.md'), 'utf8');
    expect(licences).toBe(readFileSync(path.join(repoRoot, 'THIRD-PARTY-LICENCES.md'), 'utf8'));
    const listed = licencesListed(licences);
    const unlisted = installedNames(user).filter((name) => !listed.get(name)?.some((by) => by.startsWith('gwprof')));
    expect(unlisted).toEqual([]);
  });

  it("installs into a project that holds another graphql, and its demo subgraphs still load gwprof's one graphql", () => {
    const project = tempDir('graphql-16-8');
    writeFileSync(path.join(project, 'package.json'), '{"name":"their-gateway","private":true,"dependencies":{"graphql":"16.8.0"}}\n');
    execFileSync('npm', ['install', tarball, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: project, encoding: 'utf8' });
    const fromSubgraph = createRequire(path.join(project, 'node_modules/gwprof/subgraphs/accounts/package.json'));
    const graphql = fromSubgraph.resolve('graphql');
    // Two copies would fail every subgraph request: "Cannot use GraphQLSchema … from another module or realm".
    expect(createRequire(fromSubgraph.resolve('@apollo/subgraph')).resolve('graphql')).toBe(graphql);
    expect((JSON.parse(readFileSync(path.join(path.dirname(graphql), 'package.json'), 'utf8')) as { version: string }).version).toBe('16.11.0');
    expect(createRequire(path.join(project, 'package.json')).resolve('graphql')).not.toBe(graphql);
  }, 120_000);

  it('sweeps and compares a cmd: gateway from the user folder, writing run folders there', async () => {
    const fixtures = 'node_modules/gwprof/fixtures';
    const stub = `cmd:node ${fixtures}/stub-gateway.mjs`;
    const scenario = ['--query', `${fixtures}/stub.graphql`, '--expect', `${fixtures}/stub.expected.json`];
    const sweep = await npx(['sweep', '--gateway', stub, ...scenario, '-c', '2', '-d', '1', '-w', '0', '--no-profile', '--run-id', 'sweep', ...ports]);
    expect(sweep.code, sweep.stderr).toBe(0);
    const run = JSON.parse(readFileSync(path.join(user, 'profiles', 'sweep', 'results.json'), 'utf8')) as RunResult;
    expect(run.steps[0]!.requests.ok).toBeGreaterThan(0);
    // A candidate that holds every request 20 ms longer than the baseline's 0: a regression, exit 1,
    // certain from one 1 s window a side per epoch.
    const compare = await npx([
      'compare',
      '--baseline',
      stub,
      '--candidate',
      stub,
      '--candidate-env',
      'STUB_SERVICE_MS=20',
      ...scenario,
      '-c',
      '2',
      '--window',
      '1',
      '--windows-per-side',
      '1',
      '--lead-in',
      '0',
      '-w',
      '1',
      '--min-epochs',
      '3',
      '--budget',
      '3',
      '--no-profile',
      '--run-id',
      'compare',
      ...ports,
      ...candidatePorts,
    ]);
    expect(compare.code, compare.stderr).toBe(1);
    const result = JSON.parse(readFileSync(path.join(user, 'profiles', 'compare', 'compare.json'), 'utf8')) as PublishedCompare;
    expect(result.analysis.verdict).toBe('regression');
    expect(readdirSync(path.join(user, 'profiles')).sort()).toEqual(['compare', 'sweep']);
  }, 240_000);

  // Should a refusal be missing, each of these fails fast on its own instead (a gateway that exits at once).
  const LINUX_ONLY: Record<string, string[]> = {
    sweep: ['--gateway', 'cmd:false', ...ports],
    compare: ['--baseline', 'cmd:false', '--candidate', 'cmd:false', ...ports, ...candidatePorts],
    soak: ['--gateway', 'cmd:false', ...ports],
    up: ['--gateway', 'cmd:false', ...ports],
    goldens: ['--scenario', 'missing.yaml'],
  };

  // Reads the run folder the sweep above wrote (profiles/sweep).
  it.each(['darwin', 'win32'])(
    'on %s (faked), refuses the commands that need Linux in one line and runs the others',
    async (platform) => {
      // Each refuses before it reads or starts anything, so they run at once.
      const refusals = await Promise.all(
        Object.entries(LINUX_ONLY).map(async ([command, args]) => ({ command, refused: await startOn(platform, [command, ...args]).result })),
      );
      for (const { command, refused } of refusals) {
        expect(refused.code, command).toBe(2);
        expect(refused.stdout, command).toBe('');
        expect(refused.stderr.trimEnd().split('\n'), command).toEqual([
          expect.stringMatching(new RegExp(`^gwprof: ${command} runs on Linux only .*: run it on a Linux machine`)),
        ]);
      }

      const buckets = await startOn(platform, ['buckets', path.join(repoRoot, 'packages/analysis/fixtures/profiles/apollo-c10.cpuprofile')]).result;
      expect(buckets.code, buckets.stderr).toBe(0);
      expect(buckets.stdout).toMatch(/^fetch\s+\d+\.\d%/m);

      const runDir = path.join(user, 'profiles', 'sweep');
      rmSync(path.join(runDir, 'index.html'));
      rmSync(path.join(runDir, 'summary.md'));
      const report = await startOn(platform, ['report', 'profiles/sweep']).result;
      expect(report.code, report.stderr).toBe(0);
      expect(existsSync(path.join(runDir, 'index.html')) && existsSync(path.join(runDir, 'summary.md'))).toBe(true);

      const runs = await startOn(platform, ['compare', '--baseline-run', 'profiles/sweep', '--candidate-run', 'profiles/sweep', '--run-id', `runs-${platform}`])
        .result;
      expect(runs.code, runs.stderr).toBe(0);
      expect(existsSync(path.join(user, 'profiles', `runs-${platform}`, 'compare.json'))).toBe(true);

      const exported = await startOn(platform, ['export', 'k6', '--out', `k6-${platform}`]).result;
      expect(exported.code, exported.stderr).toBe(0);
      for (const file of ['gwprof-k6.js', 'gwprof-k6-data.json']) expect(existsSync(path.join(user, `k6-${platform}`, file)), file).toBe(true);

      const open = startOn(platform, ['open', 'profiles/sweep']);
      const url = await new Promise<string>((resolve, reject) => {
        let seen = '';
        open.child.stdout!.on('data', (chunk) => {
          seen += chunk;
          const found = /^report: (http:\/\/127\.0\.0\.1:\d+\/\S+)$/m.exec(seen);
          if (found) resolve(found[1]!);
        });
        void open.result.then((r) => reject(new Error(`gwprof open exited (${r.code}) before printing a URL: ${r.stderr}`)));
      });
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<html');
      open.child.kill('SIGTERM');
      expect((await open.result).code).toBe(0);
    },
    120_000,
  );
});
