import path from 'node:path';
import { Command } from 'commander';
import { readRunResult } from '@gwprof/results';
import { loadBucketRules } from '@gwprof/analysis';
import { renderBucketTable, renderStepTable } from '@gwprof/render';
import { publishRun, publishStepProfile } from './publish.js';

export function reportCommand(): Command {
  return new Command('report')
    .description("re-render a run's tables, flame graphs, summary.md and index.html from its folder, without running anything")
    .argument('<run-dir>', 'a run folder (holds results.json)')
    .option('--rules <file>', 'extra CPU bucket rules (JSON), tried before the built-in ones')
    .option('--no-color', 'no ANSI colours')
    .action(async (runDirArg: string, flags: { rules?: string; color: boolean }) => {
      const runDir = path.resolve(runDirArg);
      const run = readRunResult(runDir);
      const rules = flags.rules ? loadBucketRules(path.resolve(flags.rules)) : undefined;
      for (const step of run.steps) await publishStepProfile(step, runDir, run, rules);
      const { summary, report } = publishRun(run, runDir);
      process.stdout.write(`${renderStepTable(run, { color: flags.color && process.stdout.isTTY === true })}\n`);
      const buckets = renderBucketTable(run);
      if (buckets) process.stdout.write(`\n${buckets}\n`);
      process.stdout.write(`\nwrote ${summary}\nwrote ${report}\n`);
    });
}
