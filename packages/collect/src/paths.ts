/**
 * Where gwprof's own files are: fixtures, subgraphs and the built-in gateways' folders. The same
 * code runs from a clone of the monorepo and from the installed package (`npm install gwprof`),
 * whose folder holds the same layout; a built-in gateway's packages are then installed on first
 * use into a cache (gateway-install.ts), and run folders go to the user's folder.
 */
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The first folder up from here that holds gwprof's fixtures: the monorepo's root or the package's. */
function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'fixtures', 'stub.graphql'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`gwprof's fixtures are not in any folder above ${from}: a broken install`);
  }
}

export const repoRoot = findRoot(path.dirname(fileURLToPath(import.meta.url)));

/** A clone of the monorepo (its workspace file is there), not the installed package. */
export const inMonorepo = existsSync(path.join(repoRoot, 'pnpm-workspace.yaml'));

/**
 * The folder the user started gwprof from: npm and pnpm run scripts in the package's own folder
 * and say where they were invoked in INIT_CWD.
 */
export function userFolder(): string {
  return process.env.INIT_CWD || process.cwd();
}

export const subgraphsDir = path.join(repoRoot, 'subgraphs');
/** The built-in gateways' files as shipped: package.json and configuration, without node_modules outside the monorepo. */
export const gatewaysDir = path.join(repoRoot, 'gateways');
export const fixturesDir = path.join(repoRoot, 'fixtures');
export const defaultProfilesDir = inMonorepo ? path.join(repoRoot, 'profiles') : path.join(userFolder(), 'profiles');

/** Where a built-in gateway's node_modules are: its folder in the monorepo, a cache folder for the package. */
export function gatewayDir(name: string): string {
  if (inMonorepo) return path.join(gatewaysDir, name);
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cache, 'gwprof', packageVersion(), 'gateways', name);
}

let version: string | null = null;

/** This package's version, read from collect's own package.json (the same in both layouts). */
export function packageVersion(): string {
  if (version === null) {
    const file = fileURLToPath(new URL('../package.json', import.meta.url));
    version = (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  }
  return version;
}
