/**
 * End to end, the long tier (`pnpm test:long`): gwprof installed as the CI recipes install it, each
 * recipe's install step run as written (installByRecipes), then used as a user would:
 * - the quick sweep of the demo on Mesh, installing Mesh's pinned packages from the registry into a
 *   cache (here a new, empty one) on first use: the test is about that install, so nothing is warm;
 * - two builds of a router of one's own (the compiled stub, routing through the subgraph its
 *   supergraph names) compared as docs/your-gateway.md has it, each side's supergraph composed
 *   ahead with `npx gwprof compose` (composing at each start, the page's other way, costs 1.5–2.5 s
 *   a start, 40 s for this comparison: docs/validation/router-of-your-own.md runs it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PublishedCompare, RunResult } from '@gwprof/results';
import { repoRoot } from './cli.js';
import {
  candidatePorts,
  type InstalledPackage,
  installByRecipes,
  installedNames,
  licencesListed,
  npx as npxIn,
  ports,
  recipeOf,
  start,
} from './installed-package.js';

let installed: ReturnType<typeof installByRecipes>;
let user: string;
const npx = (args: string[]) => npxIn(installed as InstalledPackage, args);
const version = (JSON.parse(readFileSync(path.join(repoRoot, 'packages/cli/package.json'), 'utf8')) as { version: string }).version;

describe('the installable package', () => {
  beforeAll(() => {
    installed = installByRecipes();
    user = installed.user;
  }, 240_000);

  it("installs by each CI recipe's step as written: packed once on a cache miss, installed from the cache on a hit", () => {
    expect(recipeOf('gwprof-compare-rust.yml').jobs.compare.env.GWPROF_REF).toBe(recipeOf('gwprof-compare.yml').jobs.compare.env.GWPROF_REF);
    expect(readdirSync(path.join(installed.workspace, 'gwprof-pack'))).toEqual([`gwprof-${version}.tgz`]);
    // The hit checked nothing out and built nothing: gwprof-src is gone, and only the cached package was installed.
    expect(existsSync(path.join(installed.workspace, 'gwprof-src'))).toBe(false);
    for (const prefix of [installed.first, user])
      expect(execFileSync(path.join(prefix, 'node_modules', '.bin', 'gwprof'), ['-v'], { encoding: 'utf8' }).trim()).toBe(version);
  });

  it('runs the quick sweep of the demo on Mesh, installing its pinned packages into the cache on first use', async () => {
    const sweep = await npx(['sweep', '--quick', '--no-color', '--run-id', 'quick', ...ports]);
    expect(sweep.code, sweep.stderr).toBe(0);
    expect(sweep.stderr).toMatch(/installing the mesh gateway's pinned packages into .*gateways[/\\]mesh \(once\)/);
    const run = JSON.parse(readFileSync(path.join(user, 'profiles', 'quick', 'results.json'), 'utf8')) as RunResult;
    expect(run.config.gateway).toBe('mesh');
    // Unsteady and harness-bound are caveats (a cold gateway, a machine whose cores are shared), never failures.
    expect(run.steps.map((s) => s.status).every((s) => s === 'ok' || s === 'unsteady' || s === 'harness-bound')).toBe(true);
    expect(run.environment.gatewayPackages['@graphql-mesh/cli']).toMatch(/^0\.103\./);
    // What gwprof installed for Mesh is listed, as Mesh's, in the licences file it ships.
    const listed = licencesListed(readFileSync(path.join(user, 'node_modules', 'gwprof', 'THIRD-PARTY-LICENCES.md'), 'utf8'));
    const meshProject = /installing the mesh gateway's pinned packages into (.*) \(once\)/.exec(sweep.stderr)![1]!;
    expect(installedNames(meshProject).filter((name) => !listed.get(name)?.includes('mesh'))).toEqual([]);
  }, 600_000);

  it("compares two builds of a router of one's own, each side's supergraph composed ahead and routed at its own subgraphs, as docs/your-gateway.md has it", async () => {
    // ../main is the base branch's checkout, this folder the PR's: the same router, the PR's build with planted work.
    const shipped = path.join(user, 'node_modules', 'gwprof');
    const build = (dir: string, defines: string[]) => {
      mkdirSync(path.join(dir, 'target', 'release'), { recursive: true });
      execFileSync('cc', [
        '-O1',
        ...defines,
        '-o',
        path.join(dir, 'target', 'release', 'my-router'),
        path.join(shipped, 'fixtures', 'native-stub', 'stub-gateway.c'),
      ]);
    };
    build(path.join(user, '..', 'main'), []);
    build(user, ['-DSTUB_DEFAULT_WORK=1000000']);
    // Composed ahead while the demo's subgraphs run (gwprof up's, here the installed package's own), the candidate's routed at its ports.
    const flagValue = (flags: string[], flag: string) => flags[flags.indexOf(flag) + 1]!;
    const subgraphPorts = flagValue(ports, '--subgraph-ports');
    const candidateSubgraphPorts = flagValue(candidatePorts, '--candidate-subgraph-ports');
    const subgraphs = ['accounts', 'reviews', 'products', 'inventory'].map((name, i) =>
      start(installed, process.execPath, [path.join(shipped, 'subgraphs', name, 'dist/main.js')], { PORT: subgraphPorts.split(',')[i]! }),
    );
    try {
      for (const [file, extra] of [
        ['baseline.graphql', []],
        ['candidate.graphql', ['--routing-ports', candidateSubgraphPorts]],
      ] as const) {
        let composed = await npx(['compose', file, '--subgraph-ports', subgraphPorts, ...extra]);
        // The subgraphs answer within seconds; compose reports one that does not, so retry briefly.
        for (let attempt = 0; attempt < 20 && composed.code !== 0 && /did not answer/.test(composed.stderr); attempt++) {
          await new Promise((r) => setTimeout(r, 500));
          composed = await npx(['compose', file, '--subgraph-ports', subgraphPorts, ...extra]);
        }
        expect(composed.code, composed.stderr).toBe(0);
      }
    } finally {
      for (const { child } of subgraphs) child.kill();
      await Promise.all(subgraphs.map(({ result }) => result));
    }
    const routedAt = (file: string) =>
      /@join__graph\(name: "accounts", url: "http:\/\/127\.0\.0\.1:(\d+)\//.exec(readFileSync(path.join(user, file), 'utf8'))![1];
    expect([routedAt('baseline.graphql'), routedAt('candidate.graphql')]).toEqual([subgraphPorts.split(',')[0], candidateSubgraphPorts.split(',')[0]]);
    const fixtures = path.join(shipped, 'fixtures');
    const result = await npx([
      'compare',
      ...['--baseline', 'cmd:../main/target/release/my-router --supergraph baseline.graphql'],
      ...['--candidate', 'cmd:./target/release/my-router --supergraph candidate.graphql'],
      ...['--query', path.join(fixtures, 'stub.graphql'), '--expect', path.join(fixtures, 'stub.expected.json')],
      ...['--window', '1', '--lead-in', '0', '-w', '0', '--windows-per-side', '1', '--min-epochs', '3', '--budget', '2', '--no-profile'],
      ...['--run-id', 'router', '--no-color', ...ports, ...candidatePorts],
    ]);
    const c = JSON.parse(readFileSync(path.join(user, 'profiles', 'router', 'compare.json'), 'utf8')) as PublishedCompare;
    expect(c.analysis.verdict, result.stderr).toBe('regression');
    expect(result.code).toBe(1);
    // Every answer went through the side's own subgraphs: about one call each, counted by that side's subgraphs.
    const fanout = c.analysis.levels[0]!.metrics.find((m) => m.metric === 'fanout')!;
    for (const side of [fanout.baseline, fanout.candidate]) for (const value of side.values) expect(value).toBeGreaterThan(0.9);
  }, 120_000);
});
