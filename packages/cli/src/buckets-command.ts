import path from 'node:path';
import { Command } from 'commander';
import { analyzeProfile, loadBucketRules, readCpuProfile, BUCKET_ORDER } from '@gwprof/analysis';
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
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ file, ...analysis }, null, 2)}\n`);
        return;
      }
      if (analysis.samples === 0) {
        process.stdout.write(`${file}: the profile has no samples: nothing to attribute\n`);
        return;
      }
      const names = [...BUCKET_ORDER, ...Object.keys(analysis.buckets).filter((b) => !(BUCKET_ORDER as readonly string[]).includes(b))];
      const width = Math.max(...names.map((n) => n.length));
      const lines = [`${file}: ${analysis.samples} samples, ~${analysis.samplingIntervalUs} µs apart`, ''];
      for (const name of names) {
        const share = analysis.buckets[name] ?? 0;
        lines.push(`${name.padEnd(width)}  ${(share * 100).toFixed(1).padStart(5)}%  ${'█'.repeat(Math.round(share * 40))}`);
      }
      lines.push('', 'top self-time functions:');
      for (const f of analysis.topFunctions) {
        lines.push(`${(f.selfShare * 100).toFixed(1).padStart(5)}%  ${f.bucket.padEnd(width)}  ${f.functionName}  ${f.url ? `${f.url}:${f.line}` : ''}`);
      }
      process.stdout.write(`${lines.join('\n')}\n`);
    });
}
