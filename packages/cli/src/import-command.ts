/** `gwprof import k6`: k6 sample files (one per load generator) merged into a run folder. */
import { colorWanted } from './color.js';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { DEFAULTS, importK6Run } from '@gwprof/collect';
import { publishRun } from '@gwprof/publish';
import { JSON_OPTION_HELP, writeJsonFlag, type JsonFlag } from './json-option.js';
import { parseDuration, parsePercent } from './options.js';
import { exitCode, printRun } from './sweep-command.js';

interface ImportFlags {
  out: string;
  runId?: string;
  skip: number;
  minSuccess: number;
  gateway: string;
  color: boolean;
  json?: JsonFlag;
}

export function importCommand(): Command {
  return new Command('import')
    .description('read the samples of an exported k6 test (k6 run --out json=FILE; one file per load generator) into a run folder: one step, with its report')
    .argument('<tool>', 'k6', (value) => {
      if (value !== 'k6') throw new InvalidArgumentError('the only tool is k6');
      return value;
    })
    .argument('<files...>', 'k6 JSON output files of one test (several: its execution segments)')
    .option('--skip <time>', 'the start of the k6 run left out of the window, as a warm-up', parseDuration('--skip', 1, { allowZero: true }), 10)
    .option('--min-success <percent>', 'a lower success rate fails the step', parsePercent('--min-success'), DEFAULTS.sweep.minSuccess * 100)
    .option('-g, --gateway <name>', 'what the k6 run loaded, for the record', 'unknown (k6)')
    .option('--json [file]', `the run's record (results.json, its analysis included) ${JSON_OPTION_HELP}`)
    .option('-o, --out <dir>', 'folder for run folders', DEFAULTS.outDir)
    .option('--run-id <id>', 'name of the run folder')
    .option('--no-color', 'no ANSI colours')
    .action(async (_tool: string, files: string[], flags: ImportFlags) => {
      const { runDir } = await importK6Run({
        files: files.map((f) => path.resolve(f)),
        outDir: flags.out,
        ...(flags.runId ? { runId: flags.runId } : {}),
        skipSec: flags.skip,
        minSuccess: flags.minSuccess / 100,
        gateway: flags.gateway,
        commandLine: process.argv.slice(2),
      });
      const { run, summary, report } = await publishRun(runDir);
      if (!writeJsonFlag(flags.json, run)) printRun(run, runDir, [summary, report], colorWanted(flags.color));
      process.exitCode = exitCode(run);
    });
}
