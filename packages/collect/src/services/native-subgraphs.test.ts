import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GwprofError } from '@gwprof/results';
import { buildNativeSubgraphs, nativeSubgraphsSourceHash } from './native-subgraphs.js';
import { repoRoot } from '../paths.js';

const temporary: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gwprof-native-subgraphs-'));
  temporary.push(dir);
  return dir;
};

afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('buildNativeSubgraphs', () => {
  it('says in one line that cargo is missing, and builds nothing', async () => {
    const cacheDir = tempDir();
    const progress: string[] = [];
    const build = buildNativeSubgraphs({ onProgress: (line) => progress.push(line), cacheDir, cargo: path.join(cacheDir, 'no-cargo-here') });
    await expect(build).rejects.toThrow(GwprofError);
    await expect(build).rejects.toThrow(/built with cargo .* is not on the PATH: install Rust/);
    expect(progress).toEqual([]);
  });

  it('names each state of the sources by its own hash, so a change is built anew and no change is not', () => {
    const sources = tempDir();
    cpSync(path.join(repoRoot, 'subgraphs-native'), sources, { recursive: true, filter: (source) => !source.includes(`${path.sep}target`) });
    const before = nativeSubgraphsSourceHash(sources);
    expect(nativeSubgraphsSourceHash(sources)).toBe(before);
    writeFileSync(path.join(sources, 'src', 'extra.rs'), '// one more file\n');
    expect(nativeSubgraphsSourceHash(sources)).not.toBe(before);
  });
});
