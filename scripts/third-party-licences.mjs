#!/usr/bin/env node
// THIRD-PARTY-LICENCES.md: the licence of every third-party package that installing gwprof brings,
// read from each installed package's package.json, found as Node resolves it from the installed
// node_modules: the tarball's own dependencies (npm installs them with gwprof, or they are shipped
// inside it) and the built-in gateways' (gwprof installs them on a gateway's first use). A committed
// file rather than one written at pack time, so that a maintainer reads it before installing and a
// dependency change shows in review; pack.mjs ships it and refuses a stale one, and
// test/third-party-licences.test.ts fails on a stale one.
//
//   node scripts/third-party-licences.mjs            rewrites THIRD-PARTY-LICENCES.md
//   node scripts/third-party-licences.mjs --print    prints what the file should hold
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SHIPPED_THIRD_PARTY, bundledWorkspace, installedClosure, registryDependencies, shippedGateways, shippedThirdParty } from './tarball-dependencies.mjs';

export const LICENCES_FILE = 'THIRD-PARTY-LICENCES.md';
const GWPROF = 'gwprof';
const SHIPPED = 'gwprof (in its tarball)';

/** The licence a package declares: `license` (SPDX), an old `{type}` object or a `licenses` list. */
function declaredLicence(manifest, dir) {
  const licence = manifest.license ?? manifest.licenses;
  if (typeof licence === 'string') return licence;
  if (Array.isArray(licence)) return licence.map((l) => (typeof l === 'string' ? l : l.type)).join(' OR ');
  if (licence && typeof licence === 'object' && licence.type) return licence.type;
  return readdirSync(dir).some((file) => /^(licen[cs]e|copying)/i.test(file)) ? 'not declared (see its LICENSE file)' : 'not declared';
}

/** Files every package that `names` (resolved from `fromDir`) bring in `found`, as installed by `installer`. */
function collect(fromDir, names, installer, found) {
  for (const { dir, manifest } of installedClosure(fromDir, names)) {
    const key = `${manifest.name}@${manifest.version}`;
    const entry = found.get(key) ?? { name: manifest.name, version: manifest.version, licence: declaredLicence(manifest, dir), installers: new Set() };
    entry.installers.add(installer);
    found.set(key, entry);
  }
}

/** The installed third-party packages, by name and version, each with its licence and who installs it. */
export function thirdPartyPackages(root) {
  const found = new Map();
  const { packages, subgraphs } = bundledWorkspace(root);
  for (const { dir, manifest } of [...packages, ...subgraphs]) collect(dir, registryDependencies(manifest), GWPROF, found);
  for (const { manifest } of shippedThirdParty(root)) found.get(`${manifest.name}@${manifest.version}`).installers.add(SHIPPED);
  for (const { name, dir, manifest } of shippedGateways(root)) collect(dir, Object.keys(manifest.dependencies ?? {}), name, found);
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version, undefined, { numeric: true }));
}

function installersText(installers, gateways) {
  const gwprof = installers.has(SHIPPED) ? [SHIPPED] : installers.has(GWPROF) ? [GWPROF] : [];
  return [...gwprof, ...gateways.filter((name) => installers.has(name))].join(', ');
}

/** The native gateways gwprof installs on first use, pinned in collect's native-builds.ts. */
async function nativeGateways(root) {
  const { NATIVE_BINARIES } = await import(pathToFileURL(path.join(root, 'packages/collect/dist/gateways/native-builds.js')).href);
  return Object.entries(NATIVE_BINARIES).map(([name, b]) => ({
    name,
    version: b.version,
    from: b.source === 'npm' ? `npm ${b.package}` : `crates.io ${b.crate}, built with cargo`,
    licence: b.licence,
  }));
}

const CRATES_HEADING = "## The native subgraphs' crates";

/**
 * The crates of the native subgraphs (subgraphs-native/Cargo.lock), each with the licence its
 * Cargo.toml declares in cargo's local registry; where the registry does not hold a crate (a
 * machine that never built them), the licence the committed file gives it.
 */
function nativeCrates(root) {
  const lock = readFileSync(path.join(root, 'subgraphs-native', 'Cargo.lock'), 'utf8');
  const crates = [...lock.matchAll(/\[\[package\]\]\nname = "([^"]+)"\nversion = "([^"]+)"(\nsource = "[^"]*")?/g)]
    .filter((m) => m[3])
    .map((m) => ({ name: m[1], version: m[2] }));
  const committed = committedCrateLicences(root);
  const registry = path.join(os.homedir(), '.cargo', 'registry', 'src');
  const indexes = existsSync(registry) ? readdirSync(registry).map((d) => path.join(registry, d)) : [];
  return crates
    .map((c) => {
      const manifest = indexes.map((d) => path.join(d, `${c.name}-${c.version}`, 'Cargo.toml')).find(existsSync);
      const declared = manifest ? /^license\s*=\s*"([^"]+)"/m.exec(readFileSync(manifest, 'utf8'))?.[1] : undefined;
      return { ...c, licence: declared ?? committed.get(`${c.name}@${c.version}`) ?? 'not known here: build the native subgraphs once and regenerate' };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version, undefined, { numeric: true }));
}

function committedCrateLicences(root) {
  const file = path.join(root, LICENCES_FILE);
  if (!existsSync(file)) return new Map();
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(CRATES_HEADING);
  if (start < 0) return new Map();
  const rows = text
    .slice(start)
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| crate') && !l.startsWith('| ---'));
  return new Map(rows.map((l) => l.split('|').map((c) => c.trim())).map(([, name, version, licence]) => [`${name}@${version}`, licence]));
}

/** The markdown file: what installs what, the licences at a glance, then every package. */
export async function licencesMarkdown(root) {
  const rows = thirdPartyPackages(root);
  const natives = await nativeGateways(root);
  const crates = nativeCrates(root);
  const gateways = shippedGateways(root).map((g) => g.name);
  const byLicence = new Map();
  for (const row of rows) byLicence.set(row.licence, [...(byLicence.get(row.licence) ?? []), row]);
  const glance = [...byLicence.entries()].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
  // The rarer licences are the ones to read: name their packages and who installs them.
  const fewNamed = (list) => (list.length <= 12 ? list.map((r) => `${r.name} ${r.version} (${installersText(r.installers, gateways)})`).join(', ') : '');
  return [
    '# Third-party licences',
    '',
    'gwprof itself is under the MIT licence ([LICENSE](LICENSE)). Installing it brings the packages below, each under',
    'its own licence, as declared by the `license` field of its package.json. Who installs each one:',
    '',
    "- **gwprof**: npm, when you install gwprof (the tarball's dependencies, and theirs). **gwprof (in its tarball)**:",
    `  shipped inside gwprof's tarball, not fetched: ${SHIPPED_THIRD_PARTY.join(' and ')} with what they depend on, each`,
    '  with its own licence file (the demo subgraphs need them to share one graphql, whatever graphql your project has).',
    `- **${gateways.join('**, **')}**: gwprof, with npm, on the first use of that built-in gateway, into gwprof's cache`,
    '  (`~/.cache/gwprof/<version>/gateways/<gateway>`, under `$XDG_CACHE_HOME` if set); **supergraph** composes the supergraph',
    '  that hive-router and apollo-router serve, installed on their first use. What you never run is never installed.',
    '',
    '- **The native gateways** and **the native subgraphs**: gwprof, on first use, into `~/.cache/gwprof/native/`: the',
    '  gateways as the table below says, the subgraphs (`subgraphs-native/`, Rust) built with cargo from the crates at the end.',
    '',
    'Not installed by gwprof: **clinic** and **0x** (`--profiler clinic`, `--profiler 0x`): you install them yourself; gwprof says how.',
    '',
    "Versions are those of the repository's lockfile. npm resolves the version ranges of transitive",
    'dependencies again when it installs, so it may pick later releases of some of them.',
    '',
    `Generated by \`node scripts/third-party-licences.mjs\` from the installed node_modules; do not edit by hand.`,
    '',
    '## At a glance',
    '',
    '| licence | packages | the rarer ones (installed by) |',
    '| --- | ---: | --- |',
    ...glance.map(([licence, list]) => `| ${licence} | ${list.length} | ${fewNamed(list)} |`),
    '',
    'Elastic-2.0 (the Elastic License 2.0) is source-available, not an OSI-approved open-source licence: read its terms',
    'if that matters where you use gwprof.',
    '',
    '## The native gateways',
    '',
    '| gateway | version | from | licence |',
    '| --- | --- | --- | --- |',
    ...natives.map((n) => `| ${n.name} | ${n.version} | ${n.from} | ${n.licence} |`),
    '',
    '## Every package',
    '',
    '| package | version | licence | installed by |',
    '| --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.name} | ${r.version} | ${r.licence} | ${installersText(r.installers, gateways)} |`),
    '',
    CRATES_HEADING,
    '',
    '| crate | version | licence |',
    '| --- | --- | --- |',
    ...crates.map((c) => `| ${c.name} | ${c.version} | ${c.licence} |`),
    '',
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
  const text = await licencesMarkdown(root);
  if (process.argv.includes('--print')) process.stdout.write(text);
  else {
    writeFileSync(path.join(root, LICENCES_FILE), text);
    process.stdout.write(`${path.join(root, LICENCES_FILE)}\n`);
  }
}
