import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Versions of packages as resolved from a gateway's folder; "not installed" when missing. */
export function resolveVersions(fromDir: string, names: string[]): Record<string, string> {
  const require = createRequire(path.join(fromDir, 'package.json'));
  const versions: Record<string, string> = {};
  for (const name of names) {
    try {
      const file = require.resolve(`${name}/package.json`);
      versions[name] = (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    } catch {
      versions[name] = 'not installed';
    }
  }
  return versions;
}

/** Absolute path of a file inside a package installed for a gateway's folder. */
export function resolvePackageFile(fromDir: string, name: string, file: string): string {
  const require = createRequire(path.join(fromDir, 'package.json'));
  return path.join(path.dirname(require.resolve(`${name}/package.json`)), file);
}

/** Absolute path of a package's command (its package.json `bin`): where it lives moves between releases. */
export function resolvePackageBin(fromDir: string, name: string, command: string): string {
  const manifest = resolvePackageFile(fromDir, name, 'package.json');
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: string | Record<string, string> };
  const file = typeof bin === 'string' ? bin : bin?.[command];
  if (!file) throw new Error(`${name} has no command ${command} in its package.json`);
  return path.join(path.dirname(manifest), file);
}
