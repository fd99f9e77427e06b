/**
 * Where a built-in gateway's versions are published, and their order: npm for Grafbase and the
 * Node gateways, crates.io's index for the routers. Read by `name@version` specs and by bisect.
 */
import { execFileSync } from 'node:child_process';
import { GwprofError } from '@gwprof/results';
import { NATIVE_BINARIES } from './native-builds.js';
import { VERSIONED_PACKAGE } from './node-versions.js';

/** The built-in gateways that run at another published version than their pin. */
export function versionedGateways(): string[] {
  return [...Object.keys(NATIVE_BINARIES), ...Object.keys(VERSIONED_PACKAGE)];
}

/** Every published version of a built-in gateway (yanked ones left out), in the registry's order. */
export async function publishedVersions(gateway: string): Promise<string[]> {
  const binary = NATIVE_BINARIES[gateway];
  if (binary) return binary.source === 'npm' ? npmVersions(binary.package) : crateVersions(binary.crate);
  const pkg = VERSIONED_PACKAGE[gateway];
  if (pkg) return npmVersions(pkg);
  throw new GwprofError(`${gateway} has one pinned version; these run at another: ${versionedGateways().join(', ')}`);
}

/** The registry a gateway's versions come from, as a user would name it. */
export function registryOf(gateway: string): string {
  return NATIVE_BINARIES[gateway]?.source === 'cargo' ? 'crates.io' : 'the npm registry';
}

function npmVersions(pkg: string): string[] {
  try {
    return JSON.parse(execFileSync('npm', ['view', pkg, 'versions', '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })) as string[];
  } catch (error) {
    throw new GwprofError(`cannot list ${pkg}'s versions from the npm registry: ${(error as Error).message.split('\n')[0]}`);
  }
}

/** crates.io's sparse index: one JSON line per published version. */
async function crateVersions(crate: string): Promise<string[]> {
  const prefix = crate.length > 3 ? `${crate.slice(0, 2)}/${crate.slice(2, 4)}` : crate.length === 3 ? `3/${crate[0]}` : String(crate.length);
  const url = `https://index.crates.io/${prefix}/${crate}`;
  const response = await fetch(url).catch((error: Error) => {
    throw new GwprofError(`cannot list ${crate}'s versions from ${url}: ${error.message}`);
  });
  if (!response.ok) throw new GwprofError(`cannot list ${crate}'s versions from ${url}: HTTP ${response.status}`);
  return (await response.text())
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { vers: string; yanked: boolean })
    .filter((v) => !v.yanked)
    .map((v) => v.vers);
}

/** Semantic versions in order (a prerelease before its release). */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core, pre] = v.split(/-(.*)/s);
    return { parts: core!.split('.').map(Number), pre: pre ?? null };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i++) if ((x.parts[i] ?? 0) !== (y.parts[i] ?? 0)) return (x.parts[i] ?? 0) - (y.parts[i] ?? 0);
  if (x.pre === y.pre) return 0;
  if (x.pre === null) return 1;
  if (y.pre === null) return -1;
  return x.pre < y.pre ? -1 : 1;
}
