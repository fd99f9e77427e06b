/** gwprof as a user installs it (a packed tarball, npm), and run from the user's folder. */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { repoRoot, tempDir } from './cli.js';

export const BASE_PORT = 4760;
export const ports = ['--gateway-port', String(BASE_PORT), '--subgraph-ports', [1, 2, 3, 4].map((i) => BASE_PORT + i).join(',')];
export const candidatePorts = ['--candidate-port', String(BASE_PORT + 5), '--candidate-subgraph-ports', [11, 12, 13, 14].map((i) => BASE_PORT + i).join(',')];
const fakePlatform = path.join(repoRoot, 'test/e2e/fixtures/fake-platform.cjs');

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** gwprof packed, and installed with npm into an empty project (`user`); gateways' packages go to `cache`. */
export interface InstalledPackage {
  user: string;
  tarball: string;
  cache: string;
}

/** `node scripts/pack.mjs`, then `npm install` of its tarball into a new folder. */
export function installPackage(): InstalledPackage {
  const tarball = execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'pack.mjs'), '--out', tempDir('pack')], { encoding: 'utf8' }).trim();
  const user = tempDir('user');
  writeFileSync(path.join(user, 'package.json'), '{"name":"my-gateway","private":true}\n');
  execFileSync('npm', ['install', tarball, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: user, encoding: 'utf8' });
  return { user, tarball, cache: tempDir('cache') };
}

interface Recipe {
  jobs: { compare: { env: Record<string, string>; steps: Array<{ id?: string; run?: string }> } };
}

export const recipeOf = (file: string) => parse(readFileSync(path.join(repoRoot, 'examples', file), 'utf8')) as Recipe;

/**
 * Runs a CI recipe's gwprof install step, as written, in `workspace` with GitHub's variables; the
 * folder it installed gwprof into (the PATH entry it wrote, less node_modules/.bin), or its failure.
 */
export function runRecipeInstallStep(file: string, workspace: string): { prefix: string } | { error: string } {
  const job = recipeOf(file).jobs.compare;
  const step = job.steps.find((s) => s.id === 'gwprof')!;
  const runnerTemp = tempDir('runner-temp');
  const githubPath = path.join(runnerTemp, 'github-path');
  writeFileSync(githubPath, '');
  const result = spawnSync('bash', ['-e', '-c', step.run!], {
    cwd: workspace,
    env: { ...process.env, ...job.env, GITHUB_WORKSPACE: workspace, RUNNER_TEMP: runnerTemp, GITHUB_PATH: githubPath },
    encoding: 'utf8',
  });
  if (result.status !== 0) return { error: `${file}: exit ${result.status}: ${result.stderr.slice(-2000)}` };
  return { prefix: path.dirname(path.dirname(readFileSync(githubPath, 'utf8').trim())) };
}

/**
 * gwprof installed by both CI recipes' install steps, as written: the Node recipe's on a cache miss
 * (gwprof-src is this checkout, where the pinned commit's would be: pnpm install, pack into
 * gwprof-pack/, npm install), then the Rust recipe's on the cache hit that left (no checkout, no
 * build). The user's folder is the second's install, where `npx gwprof` finds it.
 */
export function installByRecipes(): InstalledPackage & { workspace: string; first: string } {
  const workspace = tempDir('workspace');
  symlinkSync(repoRoot, path.join(workspace, 'gwprof-src'));
  const first = runRecipeInstallStep('gwprof-compare.yml', workspace);
  if ('error' in first) throw new Error(first.error);
  const packed = readdirSync(path.join(workspace, 'gwprof-pack'));
  execFileSync('rm', [path.join(workspace, 'gwprof-src')]);
  const second = runRecipeInstallStep('gwprof-compare-rust.yml', workspace);
  if ('error' in second) throw new Error(second.error);
  return { user: second.prefix, tarball: path.join(workspace, 'gwprof-pack', packed[0]!), cache: tempDir('cache'), workspace, first: first.prefix };
}

export function start(
  { user, cache }: InstalledPackage,
  command: string,
  args: string[],
  extraEnv: NodeJS.ProcessEnv = {},
): { child: ChildProcess; result: Promise<Finished> } {
  // INIT_CWD unset: gwprof is started from the user's folder, as a user would.
  const env = { ...process.env, INIT_CWD: '', XDG_CACHE_HOME: cache, ...extraEnv };
  const child = spawn(command, args, { cwd: user, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return { child, result: new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr }))) };
}

export function npx(installed: InstalledPackage, args: string[]): Promise<Finished> {
  return start(installed, 'npx', ['--no-install', 'gwprof', ...args]).result;
}

/** The installed gwprof (the bin npm linked) in a process that reports `platform`. */
export function startOn(installed: InstalledPackage, platform: string, args: string[]): { child: ChildProcess; result: Promise<Finished> } {
  const bin = path.join(installed.user, 'node_modules', '.bin', 'gwprof');
  return start(installed, process.execPath, ['--require', fakePlatform, bin, ...args], { GWPROF_FAKE_PLATFORM: platform });
}

/** THIRD-PARTY-LICENCES.md's table of every package: name → who installs it. */
export function licencesListed(markdown: string): Map<string, string[]> {
  const rows = markdown
    .slice(markdown.indexOf('## Every package'))
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| package |') && !line.startsWith('| ---'));
  const listed = new Map<string, string[]>();
  for (const [, name, , , installers] of rows.map((line) => line.split('|').map((cell) => cell.trim())))
    listed.set(name!, [...(listed.get(name!) ?? []), ...installers!.split(', ')]);
  return listed;
}

/** The third-party packages npm installed into a project (its node_modules/.package-lock.json), by name. */
export function installedNames(project: string): string[] {
  const lock = JSON.parse(readFileSync(path.join(project, 'node_modules', '.package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
  return Object.keys(lock.packages)
    .map((where) => where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length))
    .filter((name) => name !== 'gwprof' && !name.startsWith('@gwprof/'));
}
