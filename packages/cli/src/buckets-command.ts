import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { Command } from 'commander';
import {
  DEFAULT_BUCKET_RULES,
  TOP_FUNCTIONS,
  analyzeProfile,
  explainFrames,
  formatExplanations,
  loadBucketRules,
  parseExplainQuery,
  readCpuProfile,
} from '@gwprof/analysis';
import { renderProfileBuckets } from '@gwprof/render';
import { parseWholeNumber } from './options.js';
import { jsonFile, jsonToStdout, JSON_OPTION_HELP, type JsonFlag } from './json-option.js';

export function bucketsCommand(): Command {
  return new Command('buckets')
    .description('print where the CPU went (gc, parse, validate, execute, plan, httpParser, …) in any V8 .cpuprofile')
    .argument('<file>', 'a .cpuprofile (from a sweep, node --cpu-prof, Chrome DevTools or production)')
    .option('--json [file]', `the buckets ${JSON_OPTION_HELP}`)
    .option('--rules <file>', 'extra bucket rules (JSON), tried before the built-in ones')
    .option('--top <n>', 'how many top self-time functions to list', parseWholeNumber('--top'), TOP_FUNCTIONS)
    .option('--explain <frame>', 'for the frames whose function name or file matches this regex (or #<node id>): which rule put them in which bucket, and why')
    .action(async (file: string, flags: { json?: JsonFlag; rules?: string; top: number; explain?: string }) => {
      const rules = flags.rules ? loadBucketRules(path.resolve(flags.rules)) : DEFAULT_BUCKET_RULES;
      const profile = await readCpuProfile(path.resolve(file));
      if (flags.explain !== undefined) {
        const explained = explainFrames(profile, parseExplainQuery(flags.explain), rules);
        const text = `${explained.length > 0 ? formatExplanations(explained).join('\n') : `no frame of ${file} matches ${flags.explain}`}\n`;
        printOrWrite(flags.json, explained, text);
        return;
      }
      const analysis = analyzeProfile(profile, { rules, top: flags.top });
      printOrWrite(flags.json, { file, ...analysis }, `${renderProfileBuckets(file, analysis)}\n`);
    });
}

/** The text, or its data as JSON on stdout or in a file (then the text too). */
function printOrWrite(flag: JsonFlag, data: unknown, text: string): void {
  const json = `${JSON.stringify(data, null, 2)}\n`;
  if (jsonToStdout(flag)) {
    process.stdout.write(json);
    return;
  }
  const file = jsonFile(flag);
  if (file) writeFileSync(path.resolve(file), json);
  process.stdout.write(text);
}
