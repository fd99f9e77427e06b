import path from 'node:path';
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

export function bucketsCommand(): Command {
  return new Command('buckets')
    .description('print where the CPU went (gc, parse, validate, execute, plan, httpParser, …) in any V8 .cpuprofile')
    .argument('<file>', 'a .cpuprofile (from a sweep, node --cpu-prof, Chrome DevTools or production)')
    .option('--json', 'print JSON instead of a table', false)
    .option('--rules <file>', 'extra bucket rules (JSON), tried before the built-in ones')
    .option('--top <n>', 'how many top self-time functions to list', parseWholeNumber('--top'), TOP_FUNCTIONS)
    .option('--explain <frame>', 'for the frames whose function name or file matches this regex (or #<node id>): which rule put them in which bucket, and why')
    .action(async (file: string, flags: { json: boolean; rules?: string; top: number; explain?: string }) => {
      const rules = flags.rules ? loadBucketRules(path.resolve(flags.rules)) : DEFAULT_BUCKET_RULES;
      const profile = await readCpuProfile(path.resolve(file));
      if (flags.explain !== undefined) {
        const explained = explainFrames(profile, parseExplainQuery(flags.explain), rules);
        if (flags.json) process.stdout.write(`${JSON.stringify(explained, null, 2)}\n`);
        else process.stdout.write(`${explained.length > 0 ? formatExplanations(explained).join('\n') : `no frame of ${file} matches ${flags.explain}`}\n`);
        return;
      }
      const analysis = analyzeProfile(profile, { rules, top: flags.top });
      process.stdout.write(flags.json ? `${JSON.stringify({ file, ...analysis }, null, 2)}\n` : `${renderProfileBuckets(file, analysis)}\n`);
    });
}
