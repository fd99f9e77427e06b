import path from 'node:path';
import { Command } from 'commander';
import { loadBucketRules } from '@gwprof/analysis';
import { BUILT_IN_RULES, publishRun } from '@gwprof/publish';
import { printRun } from './sweep-command.js';

export function reportCommand(): Command {
  return new Command('report')
    .description("re-derive a run's analysis and re-render its flame graphs, summary.md and index.html from its folder, without running anything")
    .argument('<run-dir>', 'a run folder (holds results.json)')
    .option('--rules <file>', 'extra CPU bucket rules (JSON), tried before the built-in ones')
    .option('--no-color', 'no ANSI colours')
    .action(async (runDirArg: string, flags: { rules?: string; color: boolean }) => {
      const runDir = path.resolve(runDirArg);
      const rules = flags.rules ? { rules: loadBucketRules(path.resolve(flags.rules)), label: `${path.resolve(flags.rules)} + built-in` } : BUILT_IN_RULES;
      const { run, summary, report } = await publishRun(runDir, rules);
      printRun(run, runDir, [summary, report], flags.color && process.stdout.isTTY === true);
    });
}
