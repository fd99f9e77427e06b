/**
 * `--profiler clinic` / `--profiler 0x`: wrap a Node gateway in `clinic flame` or `0x` for
 * the whole run and keep their HTML in the run folder. Both write their report after the
 * profiled process stops, which they arrange themselves on SIGINT.
 */
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

function packageFile(name: string, file: string): string {
  return path.join(path.dirname(require.resolve(`${name}/package.json`)), file);
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
