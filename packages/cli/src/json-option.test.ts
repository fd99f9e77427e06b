import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it, vi } from 'vitest';
import { bisectCommand } from './bisect-command.js';
import { bucketsCommand } from './buckets-command.js';
import { compareCommand } from './compare-command.js';
import { exportCommand } from './export-command.js';
import { goldensCommand } from './goldens-command.js';
import { importCommand } from './import-command.js';
import { writeJsonFlag } from './json-option.js';
import { reportCommand } from './report-command.js';
import { soakCommand } from './soak-command.js';
import { sweepCommand } from './sweep-command.js';
import { upCommand } from './up-command.js';

describe('--json [file]', () => {
  it('is on every command that makes a record or a summary, with one meaning', () => {
    const commands = [
      sweepCommand(),
      compareCommand(),
      bisectCommand(),
      soakCommand(),
      reportCommand(),
      goldensCommand(),
      upCommand(),
      bucketsCommand(),
      importCommand(),
    ];
    for (const command of commands) {
      const option = command.options.find((o) => o.long === '--json');
      expect(option?.flags, command.name()).toBe('--json [file]');
      expect(option?.description, command.name()).toMatch(/to stdout instead of the tables \(no value, or -\), or to FILE$/);
    }
  });

  it('writes the record to FILE and leaves the tables to the caller, or takes stdout when bare', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'gwprof-json-')), 'record.json');
    expect(writeJsonFlag(file, { verdict: 'ok' })).toBe(false);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ verdict: 'ok' });
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(writeJsonFlag(true, { verdict: 'ok' })).toBe(true);
      expect(writeJsonFlag('-', { n: 1 })).toBe(true);
      expect(writeJsonFlag(undefined, { n: 1 })).toBe(false);
      expect(write.mock.calls.map(([text]) => JSON.parse(String(text)))).toEqual([{ verdict: 'ok' }, { n: 1 }]);
    } finally {
      write.mockRestore();
    }
  });
});

describe('the same short flags everywhere', () => {
  it('takes -g for the gateway on every command that names one, bisect and import included', () => {
    for (const command of [sweepCommand(), soakCommand(), upCommand(), bisectCommand(), importCommand()]) {
      expect(command.options.find((o) => o.short === '-g')?.long, command.name()).toBe('--gateway');
    }
  });

  it('lists no profiling flags on the commands that profile nothing', () => {
    for (const command of [upCommand(), goldensCommand(), soakCommand()]) {
      const longs = command.options.map((o) => o.long);
      expect(longs, command.name()).not.toContain('--sampling-interval');
      expect(longs, command.name()).not.toContain('--heap-sampling');
      expect(longs, command.name()).toContain('--timeout');
    }
    expect(sweepCommand().options.map((o) => o.long)).toContain('--sampling-interval');
  });
});

describe('durations with units on every command', () => {
  const allCommands = () => [sweepCommand(), compareCommand(), bisectCommand(), soakCommand(), upCommand(), goldensCommand(), importCommand(), exportCommand()];

  it('names every duration <time>, never a bare unit', () => {
    for (const command of allCommands())
      for (const option of command.options) expect(option.flags, `${command.name()} ${option.flags}`).not.toMatch(/<(seconds|minutes|ms|µs|us)>/);
  });

  it('takes -w for the warm-up wherever there is one', () => {
    for (const command of [sweepCommand(), compareCommand(), soakCommand()])
      expect(command.options.find((o) => o.short === '-w')?.long, command.name()).toBe('--warmup');
  });

  it('reads a unit in every duration: the sampling interval, the budget, the lead-in', async () => {
    const parse = async (command: Command, args: string[]) => (await command.exitOverride().parseAsync(args, { from: 'user' })).opts();
    const noop = () => {};
    expect((await parse(sweepCommand().action(noop), ['--sampling-interval', '4ms'])).samplingInterval).toBe(4000);
    expect((await parse(sweepCommand().action(noop), ['--sampling-interval', '500'])).samplingInterval).toBe(500);
    const compare = await parse(compareCommand().action(noop), ['--budget', '1h', '--lead-in', '500ms', '--window', '2s', '-w', '1m']);
    expect([compare.budget, compare.leadIn, compare.window, compare.warmup]).toEqual([60, 0.5, 2, 60]);
    expect((await parse(exportCommand().action(noop), ['k6', '--timeout', '10s'])).timeout).toBe(10);
  });
});
