/**
 * Every gwprof flag a user page names exists, and is one `--help` shows: a page that documents a
 * flag the CLI does not have (or hides) sends its reader to an error. Flags of other tools the pages
 * quote (node's, valgrind's, a router's) are listed below, each with whose it is.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliBin, repoRoot } from './e2e/cli.js';

const COMMANDS = [
  ['sweep'],
  ['compare'],
  ['bisect'],
  ['soak'],
  ['up'],
  ['goldens'],
  ['compose'],
  ['export', 'k6'],
  ['import', 'k6'],
  ['buckets'],
  ['report'],
  ['open'],
];

/** Flags of other programs that the pages quote as they are. */
const OTHER_TOOLS: Record<string, string> = {
  '--max-old-space-size': 'node',
  '--min-semi-space-size': 'node',
  '--no-turbo-inlining': 'node',
  '--no-opt': 'node',
  '--separate-callers': 'valgrind (callgrind)',
  '--instr-atstart': 'valgrind (callgrind)',
  '--listen-address': 'Grafbase',
  '--hot-reload': 'Apollo Router',
};

function helpFlags(): Set<string> {
  const flags = new Set<string>(['--help', '--version']);
  for (const command of COMMANDS) {
    const help = execFileSync(process.execPath, [cliBin, ...command, '--help'], { encoding: 'utf8' });
    for (const [flag] of help.matchAll(/--[a-z0-9][a-z0-9-]*/g)) flags.add(flag);
  }
  return flags;
}

/** README and the user pages (docs/*.md but the contributors' architecture page). */
function userPages(): string[] {
  const docs = readdirSync(path.join(repoRoot, 'docs')).filter((name) => name.endsWith('.md') && name !== 'ARCHITECTURE.md');
  return ['README.md', ...docs.map((name) => `docs/${name}`)];
}

describe('flags the user pages name', () => {
  const known = helpFlags();

  it.each(userPages())('%s names only flags gwprof has', (page) => {
    const text = readFileSync(path.join(repoRoot, page), 'utf8');
    const named = new Set([...text.matchAll(/`(--[a-z0-9][a-z0-9-]*)/g)].map((m) => m[1]!));
    const missing = [...named].filter((flag) => !known.has(flag) && !(flag in OTHER_TOOLS));
    expect(missing, `${page} names flags that no command's --help shows`).toEqual([]);
  });

  it('knows the flags of every command', () => {
    expect(known.has('--candidate-goldens')).toBe(true);
    expect(known.has('--warm-together')).toBe(false);
  });
});
