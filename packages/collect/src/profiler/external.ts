/**
 * `--profiler clinic` / `--profiler 0x`: wrap a Node gateway in `clinic flame` or `0x` for
 * the whole run and keep their HTML in the run folder. Both write their report after the
 * profiled process stops, which they arrange themselves on SIGINT.
 */
import { GwprofError } from '@gwprof/results';
import { createRequire } from 'node:module';
import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

export interface ExternalProfiler {
  wrap(command: string, args: string[]): { command: string; args: string[] };
  /** Extra environment for the wrapper. */
  env: Record<string, string>;
  /** The report's path relative to the run folder, once written. */
  artifact(): string | null;
}

const require = createRequire(import.meta.url);

/** A file of clinic or 0x; they are not installed with gwprof's package (large, and rarely wanted): one line says how. */
function packageFile(name: string, file: string): string {
  let found: string;
  try {
    found = require.resolve(`${name}/package.json`);
  } catch {
    // The package's collect lists them as optional tools; the monorepo's as dependencies.
    const manifest = require('../../package.json') as { dependencies?: Record<string, string>; optionalTools?: Record<string, string> };
    const version = manifest.dependencies?.[name] ?? manifest.optionalTools?.[name] ?? 'latest';
    throw new GwprofError(`--profiler ${name === '0x' ? '0x' : 'clinic'} needs the ${name} package: npm install ${name}@${version}`);
  }
  return path.join(path.dirname(found), file);
}

function findHtml(dir: string, runDir: string): string | null {
  try {
    for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
      if (entry.isFile() && entry.name.endsWith('.html')) return path.relative(runDir, path.join(entry.parentPath, entry.name));
    }
  } catch {
    // nothing written
  }
  return null;
}

export function profilerWrapper(kind: 'clinic' | '0x', runDir: string): ExternalProfiler {
  const dir = path.join(runDir, kind);
  mkdirSync(dir, { recursive: true });
  if (kind === '0x') {
    return {
      wrap: (command, args) => ({
        command: process.execPath,
        args: [packageFile('0x', 'cmd.js'), '--output-dir', dir, '--output-html', path.join(dir, 'flamegraph.html'), '--', command, ...args],
      }),
      env: {},
      artifact: () => findHtml(dir, runDir),
    };
  }
  return {
    wrap: (command, args) => ({
      command: process.execPath,
      args: [packageFile('clinic', 'bin.js'), 'flame', '--dest', dir, '--', command, ...args],
    }),
    // Without a terminal clinic exits at once unless told not to ask about Insights.
    env: { NO_INSIGHT: '1' },
    artifact: () => findHtml(dir, runDir),
  };
}
