/**
 * The built-in Node gateways at another published version than their pin (`hive@2.10.4`,
 * `apollo@2.9.0`): the shipped folder (configuration and pins) copied into gwprof's cache with the
 * gateway's own package set to that version, and installed there once. Mesh's legacy CLI is many
 * packages released together, so it keeps its pin.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gatewaysDir } from '../paths.js';

/** The package whose version a built-in Node gateway's version is. */
export const VERSIONED_PACKAGE: Readonly<Record<string, string>> = {
  hive: '@graphql-hive/gateway',
  apollo: '@apollo/gateway',
};

const MARKER = '.gwprof-installed';

/** `hive@2.10.4` → its name and version; null for any other spec. */
export function nodeVersionSpec(spec: string): { name: string; version: string } | null {
  const match = /^([a-z]+)@(\d+\.\d+\.\d+(?:-[\w.-]+)?)$/.exec(spec);
  if (!match || !(match[1]! in VERSIONED_PACKAGE)) return null;
  return { name: match[1]!, version: match[2]! };
}

/** Where a version's packages are installed (the same in the monorepo and as a package). */
export function versionedGatewayDir(name: string, version: string): string {
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cache, 'gwprof', 'gateways-at-version', `${name}@${version}`);
}

/**
 * The shipped folder with the gateway's package at `version`, installed once by `npmInstall`;
 * a failed install leaves nothing behind, so the next run tries again.
 */
export async function installNodeVersion(
  name: string,
  version: string,
  copyShipped: (shipped: string, target: string) => void,
  npmInstall: (dir: string, spec: string) => Promise<void>,
  onProgress: (line: string, final: boolean) => void,
): Promise<string> {
  const target = versionedGatewayDir(name, version);
  if (existsSync(path.join(target, MARKER))) return target;
  onProgress(`installing ${VERSIONED_PACKAGE[name]}@${version} for the ${name} gateway into ${target} (once)…`, true);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  copyShipped(path.join(gatewaysDir, name), target);
  const manifest = JSON.parse(readFileSync(path.join(target, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  manifest.dependencies[VERSIONED_PACKAGE[name]!] = version;
  writeFileSync(path.join(target, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  try {
    await npmInstall(target, `${name}@${version}`);
  } catch (error) {
    rmSync(target, { recursive: true, force: true });
    throw error;
  }
  writeFileSync(path.join(target, MARKER), `${new Date().toISOString()}\n`);
  return target;
}
