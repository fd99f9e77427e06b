import path from 'node:path';
import { Command } from 'commander';
import { analyzeProfile, loadBucketRules, readCpuProfile } from '@gwprof/analysis';
import { renderProfileBuckets } from '@gwprof/render';
import { parseWholeNumber } from './options.js';

export function bucketsCommand(): Command {
  return new Command('buckets')
    .description('print where the CPU went (gc, parse, validate, execute, plan, httpParser, …) in any V8 .cpuprofile')
    .argument('<file>', 'a .cpuprofile (from a sweep, node --cpu-prof, Chrome DevTools or production)')
    .option('--json', 'print JSON instead of a table', false)
    .option('--rules <file>', 'extra bucket rules (JSON), tried before the built-in ones')
    .option('--top <n>', 'how many top self-time functions to list', parseWholeNumber('--top'), 15)
    .action(async (file: string, flags: { json: boolean; rules?: string; top: number }) => {
      const rules = flags.rules ? loadBucketRules(path.resolve(flags.rules)) : undefined;
      const analysis = analyzeProfile(await readCpuProfile(path.resolve(file)), { ...(rules ? { rules } : {}), top: flags.top });
      process.stdout.write(flags.json ? `${JSON.stringify({ file, ...analysis }, null, 2)}\n` : `${renderProfileBuckets(file, analysis)}\n`);
    });
}
