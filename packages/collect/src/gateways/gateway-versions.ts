/**
 * A built-in gateway at the version its user asks for: `hive-router@0.3.10` (one version),
 * `hive-router@0.3.x` or `@0.3` (the newest release of a line), `hive-router@latest` (the newest
 * release). A line or `latest` is turned into one version from the registry before anything is
 * built, so every record names the version that ran; a version that is not published is refused then.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { GwprofError } from '@gwprof/results';
import { gatewaysDir } from '../paths.js';
import { NATIVE_BINARIES, nativeBinaryPath } from './native-builds.js';
import { VERSIONED_PACKAGE, versionedGatewayDir } from './node-versions.js';
import { compareVersions, publishedVersions, registryOf, versionedGateways } from './published-versions.js';

/** What follows `name@`: one version, the newest of a line (its leading numbers), or the newest of all. */
export type VersionAsk = { exact: string } | { line: number[] } | { latest: true };

/** `0.3.10`, `0.3.10-rc.1`, `0.3.x`, `0.3.*`, `0.3`, `0.x`, `0`, `latest`; null for anything else. */
export function parseVersionAsk(text: string): VersionAsk | null {
  if (text === 'latest') return { latest: true };
  if (/^\d+\.\d+\.\d+(?:[-+][\w.-]+)?$/.test(text)) return { exact: text };
  const line = /^(\d+)(?:\.(\d+))?(?:\.[x*])?$/.exec(text) ?? /^(\d+)\.[x*](?:\.[x*])?$/.exec(text);
  if (!line) return null;
  return { line: [line[1], line[2]].filter((n) => n !== undefined).map(Number) };
}

/** The newest release a line or `latest` asks for (never a prerelease); the version itself when exact and published. */
export function versionFor(ask: VersionAsk, published: readonly string[]): string | null {
  if ('exact' in ask) return published.includes(ask.exact) ? ask.exact : null;
  const releases = published.filter((v) => !/-/.test(v)).sort(compareVersions);
  const fits = 'latest' in ask ? releases : releases.filter((v) => ask.line.every((n, i) => Number(v.split('.')[i]) === n));
  return fits.at(-1) ?? null;
}

/** `name@rest` of a built-in gateway (its name known), or null: a cmd:, a url:, or a spec without `@`. */
function splitSpec(spec: string): { name: string; asked: string } | null {
  const at = /^([a-z][a-z-]*)@(.*)$/.exec(spec);
  return at ? { name: at[1]!, asked: at[2]! } : null;
}

/** Whether a version of a built-in gateway is in gwprof's cache already (then nothing is asked of a registry). */
function installed(name: string, version: string): boolean {
  if (name in NATIVE_BINARIES) return existsSync(nativeBinaryPath(name, version));
  return existsSync(versionedGatewayDir(name, version));
}

const HOW = (name: string) => `give one version (${name}@${pinOf(name)}), the newest of a line (${name}@${lineOf(pinOf(name))}.x) or ${name}@latest`;

/** The version a built-in gateway runs when none is asked for: a native one's pin, a Node one's shipped package.json's. */
export function pinOf(name: string): string {
  const native = NATIVE_BINARIES[name];
  if (native) return native.version;
  const manifest = JSON.parse(readFileSync(path.join(gatewaysDir, name, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  return manifest.dependencies[VERSIONED_PACKAGE[name]!]!;
}

function lineOf(version: string): string {
  const [major, minor] = version.split('.');
  return major === '0' ? `0.${minor}` : major!;
}

/**
 * The spec with one published version in place of a line or `latest`, and a line saying which it
 * took; a spec without a version, or at a version already installed, is returned as it is, with no
 * look-up. Refuses, in one line, a version that cannot be asked for or is not published.
 */
export async function resolveGatewaySpec(
  spec: string,
  listVersions: (gateway: string) => Promise<readonly string[]> = publishedVersions,
): Promise<{ spec: string; note?: string }> {
  const split = splitSpec(spec);
  if (!split || spec.startsWith('cmd:') || spec.startsWith('url:')) return { spec };
  const { name, asked } = split;
  if (!versionedGateways().includes(name)) {
    if (name === 'mesh')
      throw new GwprofError(
        `${spec}: Mesh's legacy CLI is many packages released together, so mesh runs at its pin only; these run at another version: ${versionedGateways().join(', ')}`,
      );
    return { spec }; // an unknown gateway: gatewayFromSpec names the ones there are
  }
  const ask = parseVersionAsk(asked);
  if (!ask) throw new GwprofError(`${spec}: "${asked}" is not a version: ${HOW(name)}`);
  if ('exact' in ask && installed(name, ask.exact)) return { spec };
  const published = await listVersions(name);
  const version = versionFor(ask, published);
  if (!version) {
    const newest = published
      .filter((v) => !/-/.test(v))
      .sort(compareVersions)
      .slice(-3)
      .reverse();
    throw new GwprofError(
      `${name} has no published version ${'exact' in ask ? asked : `in ${asked}`} on ${registryOf(name)} (newest: ${newest.join(', ')}): ${HOW(name)}`,
    );
  }
  if ('exact' in ask) return { spec };
  return {
    spec: `${name}@${version}`,
    note: `${spec} is ${name} ${version}, the newest ${'latest' in ask ? 'release' : `of ${asked}`} on ${registryOf(name)}`,
  };
}

/** The default version of each built-in gateway that runs at another, for the help: `grafbase 0.103.0, …`. */
export function gatewayPins(): string {
  return versionedGateways()
    .map((name) => `${name} ${pinOf(name)}`)
    .join(', ');
}
