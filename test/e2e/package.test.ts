/**
 * gwprof as a user installs it: `node scripts/pack.mjs` writes gwprof-<version>.tgz, npm installs it
 * into an empty folder, and `npx gwprof` sweeps and compares a `cmd:` gateway from there, with run
 * folders in that folder; a built-in gateway's pinned packages are installed on its first use,
 * with npm from the registry, into a cache (here a temporary one).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PublishedCompare, RunResult } from '@gwprof/results';
import { repoRoot, tempDir } from './cli.js';

const BASE_PORT = 4760;
const ports = ['--gateway-port', String(BASE_PORT), '--subgraph-ports', [1, 2, 3, 4].map((i) => BASE_PORT + i).join(',')];
const candidatePorts = ['--candidate-port', String(BASE_PORT + 5), '--candidate-subgraph-ports', [11, 12, 13, 14].map((i) => BASE_PORT + i).join(',')];
let user: string;
let tarball: string;

let cache: string;

function npx(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // INIT_CWD unset: gwprof is started from the user's folder, as a user would.
    const env = { ...process.env, INIT_CWD: '', XDG_CACHE_HOME: cache };
    const child = spawn('npx', ['--no-install', 'gwprof', ...args], { cwd: user, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the installable package', () => {
  beforeAll(() => {
    const out = tempDir('pack');
    tarball = execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'pack.mjs'), '--out', out], { encoding: 'utf8' }).trim();
    user = tempDir('user');
    cache = tempDir('cache');
    writeFileSync(path.join(user, 'package.json'), '{"name":"my-gateway","private":true}\n');
    execFileSync('npm', ['install', tarball, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: user, encoding: 'utf8' });
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

  it('sweeps and compares a cmd: gateway from the user folder, writing run folders there', async () => {
    const fixtures = 'node_modules/gwprof/fixtures';
    const stub = `cmd:node ${fixtures}/stub-gateway.mjs`;
    const scenario = ['--query', `${fixtures}/stub.graphql`, '--expect', `${fixtures}/stub.expected.json`];
    const sweep = await npx(['sweep', '--gateway', stub, ...scenario, '-c', '2', '-d', '1', '-w', '0', '--no-profile', '--run-id', 'sweep', ...ports]);
    expect(sweep.code, sweep.stderr).toBe(0);
    const run = JSON.parse(readFileSync(path.join(user, 'profiles', 'sweep', 'results.json'), 'utf8')) as RunResult;
    expect(run.steps[0]!.requests.ok).toBeGreaterThan(0);
    // A candidate that holds every request 20 ms longer than the baseline's 0: a regression, exit 1.
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

  it('runs the quick sweep of the demo on Mesh, installing its pinned packages into the cache on first use', async () => {
    const sweep = await npx(['sweep', '--quick', '--no-color', '--run-id', 'quick', ...ports]);
    expect(sweep.code, sweep.stderr).toBe(0);
    expect(sweep.stderr).toMatch(/installing the mesh gateway's pinned packages into .*gateways[/\\]mesh \(once\)/);
    const run = JSON.parse(readFileSync(path.join(user, 'profiles', 'quick', 'results.json'), 'utf8')) as RunResult;
    expect(run.config.gateway).toBe('mesh');
    expect(run.steps.map((s) => s.status).every((s) => s === 'ok' || s === 'unsteady')).toBe(true);
    expect(run.environment.gatewayPackages['@graphql-mesh/cli']).toMatch(/^0\.103\./);
  }, 600_000);
});
