/**
 * End to end, the long tier (`pnpm test:long`): gwprof installed as a user installs it runs the
 * quick sweep of the demo on Mesh, installing Mesh's pinned packages from the registry into a cache
 * (here a new, empty one) on first use: the test is about that install, so nothing is warm.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '@gwprof/results';
import { type InstalledPackage, installedNames, installPackage, licencesListed, npx as npxIn, ports } from './installed-package.js';

let installed: InstalledPackage;
let user: string;
const npx = (args: string[]) => npxIn(installed, args);

describe('the installable package', () => {
  beforeAll(() => {
    installed = installPackage();
    user = installed.user;
  }, 240_000);

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
});
