import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { GwprofError } from '@gwprof/results';
import { LINUX_ONLY_COMMANDS, assertLinux, needsLinux } from './platform.js';

/** The commands that only read and write files (compose: and asks running subgraphs for their schemas): they must work on every platform. */
const FILE_COMMANDS = ['buckets', 'report', 'open', 'export', 'import', 'compose'];

/** Every command the CLI has, from its `*-command.ts` files: a new one must be sorted into one list or the other. */
async function commandNames(): Promise<string[]> {
  const dir = path.dirname(fileURLToPath(import.meta.url));
  const files = readdirSync(dir).filter((file) => file.endsWith('-command.ts'));
  const names: string[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(path.join(dir, file)).href)) as Record<string, unknown>;
    const factory = Object.entries(module).find(([name, value]) => name.endsWith('Command') && typeof value === 'function')?.[1] as () => Command;
    names.push(factory().name());
  }
  return names.sort();
}

function refusal(command: string, options: Record<string, unknown>, platform: string): Error | null {
  try {
    assertLinux(command, options, platform);
    return null;
  } catch (error) {
    return error as Error;
  }
}

describe('which commands need Linux', () => {
  it('sorts every command of the CLI: the ones that start or measure processes, and the ones that read files', async () => {
    expect(await commandNames()).toEqual([...LINUX_ONLY_COMMANDS, ...FILE_COMMANDS].sort());
    expect([...LINUX_ONLY_COMMANDS].sort()).toEqual(['bisect', 'compare', 'goldens', 'soak', 'sweep', 'up']);
  });

  it.each(['darwin', 'win32'])('refuses each command that starts processes on %s, in one line that names it and says what to do', (platform) => {
    for (const command of LINUX_ONLY_COMMANDS) {
      const error = refusal(command, {}, platform);
      expect(error, command).toBeInstanceOf(GwprofError);
      expect(error!.message).not.toContain('\n');
      expect(error!.message).toMatch(new RegExp(`^${command} runs on Linux only .*this is (macOS|Windows): run it on a Linux machine`));
    }
  });

  it.each(['darwin', 'win32'])('lets the commands that read and write files run on %s', (platform) => {
    for (const command of FILE_COMMANDS) expect(refusal(command, {}, platform), command).toBeNull();
  });

  it('lets compare of two finished runs run anywhere: it measures nothing', () => {
    expect(needsLinux('compare', { baselineRun: 'a', candidateRun: 'b' })).toBe(false);
    expect(refusal('compare', { baselineRun: 'a', candidateRun: 'b' }, 'darwin')).toBeNull();
    expect(needsLinux('compare', { baseline: 'mesh', candidate: 'hive' })).toBe(true);
  });

  it('refuses nothing on Linux', () => {
    for (const command of [...LINUX_ONLY_COMMANDS, ...FILE_COMMANDS]) expect(refusal(command, {}, 'linux'), command).toBeNull();
  });
});
