#!/usr/bin/env node
// `pnpm run pack`: one installable package, gwprof-<version>.tgz at the repository's root.
//
// The tarball holds the built packages (bundled as node_modules/@gwprof/*), the demo subgraphs,
// the fixtures and goldens, and the built-in gateways' package.json and configuration without
// their node_modules: a gateway's pinned packages are installed on its first use, into a cache
// (packages/collect/src/gateways/install.ts), each as its own npm project, so the monorepo's pins
// reach them as npm `overrides`. clinic and 0x are left out (large, rarely wanted): `--profiler
// clinic` says how to install them. Third-party packages are the tarball's own dependencies,
// installed by npm, each pinned to one version: overrides in the tarball's own manifest would do
// nothing once gwprof is a dependency of someone else's project; graphql and @apollo/subgraph,
// which must share one graphql, are shipped inside it, as installed here. It restricts no
// platform: the commands that need Linux say so when they run (packages/cli/src/platform.ts). It
// ships the LICENSE and THIRD-PARTY-LICENCES.md, refusing a stale one, and the docs the README
// links to.
//
//   node scripts/pack.mjs [--out DIR]      (build first: pnpm install builds every package)
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { copyShippedGateway } from '../packages/collect/dist/gateways/install.js';
import { LICENCES_FILE, licencesMarkdown } from './third-party-licences.mjs';
import { OPTIONAL_TOOLS, SHIPPED_THIRD_PARTY, bundledWorkspace, registryDependencies, shippedGateways, shippedThirdParty } from './tarball-dependencies.mjs';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const outIndex = process.argv.indexOf('--out');
const outDir = outIndex > 0 ? path.resolve(process.argv[outIndex + 1]) : root;
const stage = path.join(root, '.pack', 'gwprof');
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

const version = readJson(path.join(root, 'packages/cli/package.json')).version;
const rootManifest = readJson(path.join(root, 'package.json'));
const { packages: workspace, subgraphs } = bundledWorkspace(root);
for (const { dir } of [...workspace, ...subgraphs]) {
  if (!existsSync(path.join(dir, 'dist'))) throw new Error(`${dir}/dist is missing: build first (pnpm install, or pnpm build)`);
}
if (readFileSync(path.join(root, LICENCES_FILE), 'utf8') !== (await licencesMarkdown(root)))
  throw new Error(`${LICENCES_FILE} is stale: run node scripts/third-party-licences.mjs`);

/** workspace:* becomes the version itself; clinic and 0x move out of the dependencies. */
function publishable(manifest) {
  const dependencies = {};
  const optionalTools = {};
  for (const [name, range] of Object.entries(manifest.dependencies ?? {})) {
    if (OPTIONAL_TOOLS.has(name)) optionalTools[name] = range;
    else dependencies[name] = range.startsWith('workspace:') ? version : range;
  }
  const { devDependencies: _dev, scripts: _scripts, ...rest } = manifest;
  return { ...rest, dependencies, ...(Object.keys(optionalTools).length > 0 ? { optionalTools } : {}) };
}

/** A bundled package's registry dependencies become the tarball's, each at one exact version. */
function addThirdParty(manifest, published) {
  for (const name of registryDependencies(manifest)) {
    const range = published.dependencies[name];
    if (!/^\d+\.\d+\.\d+$/.test(range)) throw new Error(`${manifest.name} depends on ${name}@${range}: pin it to one version`);
    if (thirdParty[name] !== undefined && thirdParty[name] !== range)
      throw new Error(`${name} is pinned to ${thirdParty[name]} and to ${range} (${manifest.name}): one version for the whole tarball`);
    thirdParty[name] = range;
  }
}

rmSync(path.join(root, '.pack'), { recursive: true, force: true });
mkdirSync(stage, { recursive: true });

// The workspace packages, bundled: their dist and package.json. Their third-party dependencies are
// declared by the tarball alone: npm counts what a bundled package depends on as part of the bundle,
// so a dependency it had to nest under gwprof (the user's project holds another graphql) would be
// left an empty folder, never fetched.
const thirdParty = {};
for (const { dir, manifest } of workspace) {
  const target = path.join(stage, 'node_modules', manifest.name);
  mkdirSync(target, { recursive: true });
  cpSync(path.join(dir, 'dist'), path.join(target, 'dist'), {
    recursive: true,
    filter: (f) => !/\.(test|d)\.[cm]?[jt]s(\.map)?$/.test(f) && !f.endsWith('.map'),
  });
  // OpenTelemetry's .proto files, which collect's OTLP receiver loads at run time, beside dist as in the repository.
  if (existsSync(path.join(dir, 'proto'))) cpSync(path.join(dir, 'proto'), path.join(target, 'proto'), { recursive: true });
  const published = publishable(manifest);
  addThirdParty(manifest, published);
  const bundledDependencies = Object.fromEntries(Object.entries(published.dependencies).filter(([name]) => name.startsWith('@gwprof/')));
  writeFileSync(path.join(target, 'package.json'), `${JSON.stringify({ ...published, dependencies: bundledDependencies }, null, 2)}\n`);
}

// graphql and @apollo/subgraph, with what they depend on, as installed here: shipped, so that they
// load one graphql wherever npm puts the rest (tarball-dependencies.mjs says why).
for (const { dir, manifest } of shippedThirdParty(root)) {
  cpSync(dir, path.join(stage, 'node_modules', manifest.name), {
    recursive: true,
    filter: (f) => !path.relative(dir, f).split(path.sep).includes('node_modules'),
  });
}

// The native subgraphs' sources (gwprof builds them with cargo on first use), without build output.
cpSync(path.join(root, 'subgraphs-native'), path.join(stage, 'subgraphs-native'), {
  recursive: true,
  filter: (f) => !/(^|[/\\])target([/\\]|$)/.test(path.relative(path.join(root, 'subgraphs-native'), f)),
});

// The demo subgraphs, where collect starts them (subgraphs/<name>/dist/main.js).
for (const { name, dir, manifest } of subgraphs) {
  const target = path.join(stage, 'subgraphs', name);
  cpSync(path.join(dir, 'dist'), path.join(target, 'dist'), { recursive: true, filter: (f) => !f.endsWith('.map') && !/\.d\.ts$/.test(f) });
  const published = publishable(manifest);
  writeFileSync(path.join(target, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);
  addThirdParty(manifest, published);
}

// Fixtures and goldens, as they are.
cpSync(path.join(root, 'fixtures'), path.join(stage, 'fixtures'), { recursive: true });

// The built-in gateways: package.json with the monorepo's pins as npm overrides (pnpm-workspace.yaml's),
// which hold because each gateway is installed as the root of its own project; and configuration.
const workspaceOverrides = parse(readFileSync(path.join(root, 'pnpm-workspace.yaml'), 'utf8')).overrides ?? {};
const overrides = Object.fromEntries(Object.entries(workspaceOverrides).map(([name, pin]) => [name, String(pin)]));
for (const { name, dir: shipped } of shippedGateways(root)) {
  const target = path.join(stage, 'gateways', name);
  copyShippedGateway(shipped, target);
  const manifest = readJson(path.join(target, 'package.json'));
  writeFileSync(path.join(target, 'package.json'), `${JSON.stringify({ ...manifest, overrides }, null, 2)}\n`);
}

mkdirSync(path.join(stage, 'bin'));
writeFileSync(path.join(stage, 'bin', 'gwprof.js'), "#!/usr/bin/env node\nimport '@gwprof/cli/dist/bin.js';\n", { mode: 0o755 });
for (const file of ['LICENSE', LICENCES_FILE]) cpSync(path.join(root, file), path.join(stage, file));

// The documentation and the CI recipes, so the README's and the pages' links work where the package
// is read; a link to what the package leaves out (contributors' files, raw benchmark output) becomes its text.
cpSync(path.join(root, 'docs'), path.join(stage, 'docs'), { recursive: true });
mkdirSync(path.join(stage, 'examples'));
for (const recipe of ['gwprof-compare.yml', 'gwprof-compare-rust.yml']) cpSync(path.join(root, 'examples', recipe), path.join(stage, 'examples', recipe));
writeFileSync(path.join(stage, 'README.md'), shippedLinksOnly(readFileSync(path.join(root, 'README.md'), 'utf8'), stage));
for (const page of markdownFiles(path.join(stage, 'docs'))) writeFileSync(page, shippedLinksOnly(readFileSync(page, 'utf8'), path.dirname(page)));

/** Markdown links whose relative target (from `dir`, the page's folder) is not in the package, as their text alone. */
function shippedLinksOnly(markdown, dir) {
  return markdown.replace(/(!?)\[([^\]]*)\]\(([^)\s]+)\)/g, (link, image, text, target) => {
    if (image || /^([a-z]+:|#)/.test(target)) return link;
    return existsSync(path.join(dir, target.replace(/#.*$/, ''))) ? link : text;
  });
}

function markdownFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? markdownFiles(path.join(dir, entry.name)) : entry.name.endsWith('.md') ? [path.join(dir, entry.name)] : [],
  );
}

const bundled = workspace.map((w) => w.manifest.name).sort();
const manifest = {
  name: 'gwprof',
  version,
  description: 'Load-tests and profiles GraphQL federation gateways: sweeps, CPU buckets, flame graphs, pre-merge comparisons, soaks',
  type: 'module',
  bin: { gwprof: 'bin/gwprof.js' },
  license: rootManifest.license,
  // Absent while gwprof has no public repository: a package must not name one that is not its own.
  repository: rootManifest.repository,
  homepage: rootManifest.homepage,
  bugs: rootManifest.bugs,
  engines: { node: '>=20' },
  dependencies: { ...Object.fromEntries(Object.entries(thirdParty).sort()), ...Object.fromEntries(bundled.map((name) => [name, version])) },
  bundleDependencies: [...bundled, ...SHIPPED_THIRD_PARTY].sort(),
};
writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

mkdirSync(outDir, { recursive: true });
const packed = execFileSync('npm', ['pack', stage, '--pack-destination', outDir, '--loglevel=error'], { encoding: 'utf8' }).trim().split('\n').at(-1);
process.stdout.write(`${path.join(outDir, packed)}\n`);
