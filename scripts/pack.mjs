#!/usr/bin/env node
// `pnpm run pack`: one installable package, gwprof-<version>.tgz at the repository's root.
//
// The tarball holds the built packages (bundled as node_modules/@gwprof/*), the demo subgraphs,
// the fixtures and goldens, and the built-in gateways' package.json and configuration without
// their node_modules: a gateway's pinned packages are installed on its first use, into a cache
// (packages/collect/src/gateways/install.ts). clinic and 0x are left out (large, rarely wanted):
// `--profiler clinic` says how to install them. Third-party packages are the tarball's own
// dependencies, installed by npm.
//
//   node scripts/pack.mjs [--out DIR]      (build first: pnpm install builds every package)
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyShippedGateway } from '../packages/collect/dist/gateways/install.js';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const outIndex = process.argv.indexOf('--out');
const outDir = outIndex > 0 ? path.resolve(process.argv[outIndex + 1]) : root;
const stage = path.join(root, '.pack', 'gwprof');
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const OPTIONAL_TOOLS = new Set(['clinic', '0x']);

const version = readJson(path.join(root, 'packages/cli/package.json')).version;
const workspace = readdirSync(path.join(root, 'packages')).map((name) => ({
  dir: path.join(root, 'packages', name),
  manifest: readJson(path.join(root, 'packages', name, 'package.json')),
}));
const subgraphs = readdirSync(path.join(root, 'subgraphs')).map((name) => ({
  name,
  dir: path.join(root, 'subgraphs', name),
  manifest: readJson(path.join(root, 'subgraphs', name, 'package.json')),
}));
for (const { dir } of [...workspace, ...subgraphs]) {
  if (!existsSync(path.join(dir, 'dist'))) throw new Error(`${dir}/dist is missing: build first (pnpm install, or pnpm build)`);
}

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

rmSync(path.join(root, '.pack'), { recursive: true, force: true });
mkdirSync(stage, { recursive: true });

// The workspace packages, bundled: their dist and package.json.
const thirdParty = {};
for (const { dir, manifest } of workspace) {
  const target = path.join(stage, 'node_modules', manifest.name);
  mkdirSync(target, { recursive: true });
  cpSync(path.join(dir, 'dist'), path.join(target, 'dist'), {
    recursive: true,
    filter: (f) => !/\.(test|d)\.[cm]?[jt]s(\.map)?$/.test(f) && !f.endsWith('.map'),
  });
  const published = publishable(manifest);
  writeFileSync(path.join(target, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);
  for (const [name, range] of Object.entries(published.dependencies)) if (!name.startsWith('@gwprof/')) thirdParty[name] = range;
}

// The demo subgraphs, where collect starts them (subgraphs/<name>/dist/main.js).
for (const { name, dir, manifest } of subgraphs) {
  const target = path.join(stage, 'subgraphs', name);
  cpSync(path.join(dir, 'dist'), path.join(target, 'dist'), { recursive: true, filter: (f) => !f.endsWith('.map') && !/\.d\.ts$/.test(f) });
  const published = publishable(manifest);
  writeFileSync(path.join(target, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);
  for (const [dep, range] of Object.entries(published.dependencies)) if (!dep.startsWith('@gwprof/')) thirdParty[dep] = range;
}

// Fixtures and goldens, as they are.
cpSync(path.join(root, 'fixtures'), path.join(stage, 'fixtures'), { recursive: true });

// The built-in gateways: package.json with npm overrides for the monorepo's pins, and configuration.
const overrides = { '@graphql-tools/delegate': '12.2.1', graphql: '16.11.0' };
for (const name of readdirSync(path.join(root, 'gateways'))) {
  const target = path.join(stage, 'gateways', name);
  const shipped = path.join(root, 'gateways', name);
  copyShippedGateway(shipped, target);
  const manifest = readJson(path.join(target, 'package.json'));
  writeFileSync(path.join(target, 'package.json'), `${JSON.stringify({ ...manifest, overrides }, null, 2)}\n`);
}

mkdirSync(path.join(stage, 'bin'));
writeFileSync(path.join(stage, 'bin', 'gwprof.js'), "#!/usr/bin/env node\nimport '@gwprof/cli/dist/bin.js';\n", { mode: 0o755 });
cpSync(path.join(root, 'README.md'), path.join(stage, 'README.md'));

const bundled = workspace.map((w) => w.manifest.name).sort();
const manifest = {
  name: 'gwprof',
  version,
  description: 'Load-tests and profiles GraphQL federation gateways: sweeps, CPU buckets, flame graphs, pre-merge comparisons, soaks',
  type: 'module',
  bin: { gwprof: 'bin/gwprof.js' },
  engines: { node: '>=20' },
  os: ['linux'],
  dependencies: { ...Object.fromEntries(Object.entries(thirdParty).sort()), ...Object.fromEntries(bundled.map((name) => [name, version])) },
  bundleDependencies: bundled,
  overrides,
};
writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

mkdirSync(outDir, { recursive: true });
const packed = execFileSync('npm', ['pack', stage, '--pack-destination', outDir, '--loglevel=error'], { encoding: 'utf8' }).trim().split('\n').at(-1);
process.stdout.write(`${path.join(outDir, packed)}\n`);
