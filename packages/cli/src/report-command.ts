import { existsSync } from 'node:fs';
import { colorWanted } from './color.js';
import path from 'node:path';
import { Command } from 'commander';
import { loadBucketRules } from '@gwprof/analysis';
import { BUILT_IN_RULES, publishBisect, publishCompare, publishRun, publishSoak } from '@gwprof/publish';
import { renderSoakTerminal } from '@gwprof/render';
import { printBisect, bisectExitCode } from './bisect-command.js';
import { COMPARE_FILE, GwprofError, RESULTS_FILE, runKindOf } from '@gwprof/results';
import { compareExitCode, printCompare } from './compare-command.js';
import { exitCode, printRun } from './sweep-command.js';
import { soakExitCode } from './soak-command.js';
import { JSON_OPTION_HELP, writeJsonFlag, type JsonFlag } from './json-option.js';

export function reportCommand(): Command {
  return new Command('report')
    .description(
      "re-derive a sweep's, a soak's or a comparison's analysis and re-render its pages from its folder, without running anything; exits as the run did",
    )
    .argument('<run-dir>', 'a run folder (holds results.json, or compare.json)')
    .option('--rules <file>', 'extra CPU bucket rules (JSON), tried before the built-in ones (sweeps)')
    .option('--no-color', 'no ANSI colours')
    .option('--json [file]', `the re-derived record (results.json, compare.json or bisect.json) ${JSON_OPTION_HELP}`)
    .action(async (runDirArg: string, flags: ReportFlags) => {
      process.exitCode = await reportAction(path.resolve(runDirArg), flags);
    });
}

interface ReportFlags {
  rules?: string;
  color: boolean;
  json?: JsonFlag;
}

async function reportAction(runDir: string, flags: ReportFlags): Promise<number> {
  if (runKindOf(runDir) === 'bisect') {
    if (flags.rules) throw new GwprofError('--rules applies to sweeps; a bisection counts instructions, with no CPU buckets of its own');
    const bisect = publishBisect(runDir);
    if (!writeJsonFlag(flags.json, bisect)) printBisect(bisect, runDir);
    return bisectExitCode(bisect);
  }
  if (existsSync(path.join(runDir, COMPARE_FILE))) {
    if (flags.rules) throw new GwprofError('--rules applies to sweeps; a comparison is published with the built-in rules');
    const compare = await publishCompare(runDir);
    if (!writeJsonFlag(flags.json, compare)) printCompare(compare, runDir, colorWanted(flags.color));
    return compareExitCode(compare);
  }
  if (!existsSync(path.join(runDir, RESULTS_FILE))) {
    throw new GwprofError(`${runDir} holds neither ${RESULTS_FILE} nor ${COMPARE_FILE}: is this a gwprof run folder?`);
  }
  if (runKindOf(runDir) === 'soak') {
    if (flags.rules) throw new GwprofError('--rules applies to sweeps; a soak has no CPU buckets');
    const { soak } = await publishSoak(runDir);
    if (!writeJsonFlag(flags.json, soak)) process.stdout.write(`${renderSoakTerminal(soak)}\n`);
    return soakExitCode(soak);
  }
  const rules = flags.rules ? { rules: loadBucketRules(path.resolve(flags.rules)), label: `${path.resolve(flags.rules)} + built-in` } : BUILT_IN_RULES;
  const { run, summary, report } = await publishRun(runDir, rules);
  if (!writeJsonFlag(flags.json, run)) printRun(run, runDir, [summary, report], colorWanted(flags.color));
  return exitCode(run);
}
