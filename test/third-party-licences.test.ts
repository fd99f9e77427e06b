/**
 * THIRD-PARTY-LICENCES.md, committed and shipped in the package, lists what installing gwprof brings
 * as the installed node_modules hold it: regenerated here and compared, so a dependency added or
 * bumped without running `node scripts/third-party-licences.mjs` fails (pack.mjs refuses it too).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const committed = readFileSync(path.join(repoRoot, 'THIRD-PARTY-LICENCES.md'), 'utf8');

/** The file's table of every package: name → [version, licence, installers]. */
function packageRows(markdown: string): Map<string, string[]> {
  const table = markdown.slice(markdown.indexOf('## Every package'));
  const rows = table.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| package |') && !line.startsWith('| ---'));
  return new Map(
    rows
      .map((line) => line.split('|').map((cell) => cell.trim()))
      .map(([, name, version, licence, installers]) => [`${name}@${version}`, [licence!, installers!]]),
  );
}

describe('THIRD-PARTY-LICENCES.md', () => {
  it('is what the script generates from the installed packages now', () => {
    const generated = execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'third-party-licences.mjs'), '--print'], { encoding: 'utf8' });
    expect(committed).toBe(generated);
  });

  it("lists the tarball's dependencies as gwprof's and each gateway's packages as that gateway's, with their licences", () => {
    const rows = packageRows(committed);
    expect(rows.get('pino@10.4.0')).toEqual(['MIT', 'gwprof, hive, mesh']);
    // Shipped inside the tarball, with what it depends on, reached only through @apollo/subgraph.
    expect(rows.get('graphql@16.11.0')).toEqual(['MIT', 'gwprof (in its tarball), apollo, hive, mesh, supergraph']);
    expect(rows.get('@apollo/subgraph@2.14.4')).toEqual(['MIT', 'gwprof (in its tarball)']);
    expect(rows.get('@apollo/federation-internals@2.14.4')).toEqual(['Elastic-2.0', 'gwprof (in its tarball), apollo, supergraph']);
    expect(rows.get('@graphql-mesh/cli@0.103.2')?.[1]).toBe('mesh');
    expect([...rows.keys()].some((key) => key.startsWith('@gwprof/'))).toBe(false);
    expect([...rows.keys()].some((key) => key.startsWith('clinic@') || key.startsWith('0x@'))).toBe(false);
    // The native gateways gwprof installs, and the crates the native subgraphs are built from.
    expect(committed).toMatch(/\| apollo-router \| 2\.17\.0 \| crates\.io apollo-router, built with cargo \| Elastic-2\.0 \|/);
    expect(committed).toMatch(/\| grafbase \| 0\.103\.0 \| npm @grafbase\/cli-x86_64-unknown-linux-musl \| MPL-2\.0 \|/);
    expect(committed).toMatch(/\| async-graphql \| 7\.0\.17 \| (MIT|Apache-2\.0)/);
  });
});
