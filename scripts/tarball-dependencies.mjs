// What gwprof's tarball installs, shared by scripts/pack.mjs and scripts/third-party-licences.mjs:
// the workspace packages it bundles (their third-party dependencies become the tarball's own, clinic
// and 0x left out), the third-party packages it ships inside itself, and the built-in gateways whose
// packages gwprof installs on first use; and the installed packages a dependency brings, as Node
// finds them in node_modules.
import { existsSync, readFileSync, readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** Large and rarely wanted: not installed with gwprof; `--profiler clinic` says how to install them. */
export const OPTIONAL_TOOLS = new Set(['clinic', '0x']);

/**
 * Shipped inside the tarball with everything they depend on. The demo subgraphs build their schema
 * with @apollo/subgraph and serve it with gwprof's graphql: both must load one graphql. Left to npm,
 * a project with another graphql 16 at its top (a gateway's repository) gets gwprof's graphql
 * nested under gwprof and @apollo/subgraph hoisted beside its own, and every subgraph request
 * fails ("Cannot use GraphQLSchema … from another module or realm"); pins and overrides cannot
 * place a dependency's packages.
 */
export const SHIPPED_THIRD_PARTY = ['graphql', '@apollo/subgraph'];

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

function workspaceFolder(root, folder) {
  return readdirSync(path.join(root, folder))
    .sort()
    .map((name) => ({ name, dir: path.join(root, folder, name), manifest: readJson(path.join(root, folder, name, 'package.json')) }));
}

/** The workspace packages bundled into the tarball (packages/*) and the demo subgraphs it ships (subgraphs/*). */
export function bundledWorkspace(root) {
  return { packages: workspaceFolder(root, 'packages'), subgraphs: workspaceFolder(root, 'subgraphs') };
}

/** The built-in gateways (gateways/*), each installed as its own npm project on first use. */
export function shippedGateways(root) {
  return workspaceFolder(root, 'gateways');
}

/** A bundled package's dependencies from the npm registry: neither workspace packages nor optional tools. */
export function registryDependencies(manifest) {
  return Object.keys(manifest.dependencies ?? {}).filter((name) => !name.startsWith('@gwprof/') && !OPTIONAL_TOOLS.has(name));
}

/** The folder Node would load `name` from, starting at `fromDir`, with symlinks (pnpm's) resolved. */
function installedDir(fromDir, name) {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return realpathSync(candidate);
    if (path.dirname(dir) === dir) return null;
  }
}

/** What npm installs with a package: its dependencies, and the optional and peer ones that are there. */
function dependenciesOf(manifest) {
  const peersOptional = new Set(Object.entries(manifest.peerDependenciesMeta ?? {}).flatMap(([name, meta]) => (meta.optional ? [name] : [])));
  return [
    ...Object.keys(manifest.dependencies ?? {}).map((name) => ({ name, required: true })),
    ...Object.keys(manifest.optionalDependencies ?? {}).map((name) => ({ name, required: false })),
    ...Object.keys(manifest.peerDependencies ?? {}).map((name) => ({ name, required: !peersOptional.has(name) })),
  ];
}

/** Every installed package that `names`, resolved from `fromDir`, bring, each once: { dir, manifest }. */
export function installedClosure(fromDir, names) {
  const found = new Map();
  const pending = names.map((name) => ({ from: fromDir, name, required: true, neededBy: fromDir }));
  while (pending.length > 0) {
    const { from, name, required, neededBy } = pending.pop();
    const dir = installedDir(from, name);
    if (dir === null) {
      if (required) throw new Error(`${name}, needed by ${neededBy}, is not installed: run pnpm install first`);
      continue;
    }
    if (found.has(dir)) continue;
    const manifest = readJson(path.join(dir, 'package.json'));
    found.set(dir, { dir, manifest });
    for (const dependency of dependenciesOf(manifest)) pending.push({ from: dir, ...dependency, neededBy: `${manifest.name}@${manifest.version}` });
  }
  return [...found.values()];
}

/** The packages the tarball ships inside itself (SHIPPED_THIRD_PARTY and what they bring), one version of each. */
export function shippedThirdParty(root) {
  const { packages, subgraphs } = bundledWorkspace(root);
  const byName = new Map();
  for (const name of SHIPPED_THIRD_PARTY) {
    const user = [...packages, ...subgraphs].find(({ manifest }) => manifest.dependencies?.[name] !== undefined);
    if (!user) throw new Error(`no bundled package depends on ${name}: take it out of SHIPPED_THIRD_PARTY`);
    for (const installed of installedClosure(user.dir, [name])) {
      const { name: found, version } = installed.manifest;
      const other = byName.get(found);
      if (other && other.manifest.version !== version)
        throw new Error(`${found} is installed at ${other.manifest.version} and ${version}: one version can be shipped`);
      byName.set(found, installed);
    }
  }
  return [...byName.values()];
}
