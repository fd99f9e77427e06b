#!/usr/bin/env node
// How good is `gwprof compare`'s verdict on this machine? (backs docs/validation/compare-error-rates.md,
// and compare's defaults: the design, its flags, the budget). Every measurement here runs the real
// CLI (packages/cli/dist/bin.js), one comparison at a time. What it proves: where the noise comes
// from (within and between pairs of processes, and what each lever does to it), how often the
// verdict is a false regression on A/A, how often it catches a real +5% or +10% CPU burn
// (fixtures/burn-cpu-per-request.cjs), and how long it takes, from recordings replayed thousands
// of times (`evaluate`) and from real runs (`runs`).
//
//   node bench/dist/compare.js record     --label aa [--burn 5] [--minutes 30]   record windows and epochs of A/A (or A/B with a CPU burn of N%)
//   node bench/dist/compare.js evaluate   [--replays 2000] [--label aa]           noise components and error rates by resampling the recordings (no load)
//                                         [--since 2026-11-26T12:00]               only the recordings made from then on
//                                         [--statistic trimmed|huber]              the rule on a robust centre of the epochs instead
//                                         [--hold yes|no]                          a verdict must hold without its farthest epoch (compare's default: yes)
//   node bench/dist/compare.js runs       [--aa 10] [--burn5 10] [--burn10 10]     real comparisons with the stopping rule
//                                         [--budget 10] [--budget5 20]             their budgets in minutes (+5% runs take budget5)
//                                         [--recalibrate]                          calibrate the burn before every burn run
//   node bench/dist/compare.js runs-table [--since 2026-11-25T12:00]               every recorded real comparison, as one table (no load)
//   node bench/dist/compare.js redecide   [--since 2026-11-25T12:00]               each real comparison's own epochs decided again, plain and held (no load)
//
// Common: [--gateway mesh] [--flags='--seed-per-epoch'] (extra `gwprof compare` flags, e.g. a lever of the
// noise study) [--out bench/results/compare-epochs]. Results are appended to <out>/compare-<command>.json
// (recordings, evaluation, runs) and printed as markdown tables. Each command lives in
// bench/src/compare/; driver.ts runs the CLI. record and runs drive load for minutes to hours: on a
// shared machine wrap them in `flock <lock file> node bench/dist/compare.js …` (bench/README.md).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { benchArgs } from './args.js';
import { repoRoot } from './common.js';
import { createDriver, extraFlags, type CommandContext } from './compare/driver.js';
import { evaluateCommand } from './compare/evaluate.js';
import { recordCommand } from './compare/record.js';
import { runsCommand } from './compare/runs.js';
import { redecideCommand } from './compare/redecide.js';
import { runsTableCommand } from './compare/runs-table.js';

const COMMANDS: Record<string, (context: CommandContext) => string> = {
  record: recordCommand,
  evaluate: evaluateCommand,
  runs: runsCommand,
  'runs-table': runsTableCommand,
  redecide: redecideCommand,
};

const { values, positionals } = benchArgs({
  allowPositionals: true,
  options: {
    gateway: { type: 'string', default: 'mesh' },
    flags: { type: 'string', default: '' },
    minutes: { type: 'string', default: '30' },
    label: { type: 'string' },
    burn: { type: 'string', default: '0' },
    replays: { type: 'string', default: '2000' },
    aa: { type: 'string', default: '10' },
    burn5: { type: 'string', default: '10' },
    burn10: { type: 'string', default: '10' },
    budget: { type: 'string', default: '10' },
    budget5: { type: 'string', default: '20' },
    recalibrate: { type: 'boolean', default: false },
    out: { type: 'string', default: path.join(repoRoot, 'bench', 'results', 'compare-epochs') },
    since: { type: 'string' },
    statistic: { type: 'string', default: 'mean' },
    hold: { type: 'string' },
  },
});

const name = positionals[0];
const command = name === undefined ? undefined : COMMANDS[name];
if (!command) {
  process.stderr.write(`usage: node bench/dist/compare.js ${Object.keys(COMMANDS).join('|')} [options] (see the header of bench/src/compare.ts)\n`);
  process.exit(2);
}
const out = path.resolve(values.out);
mkdirSync(out, { recursive: true });
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};
const driver = createDriver({ root: repoRoot, gateway: values.gateway, flags: extraFlags(values), log });
try {
  process.stdout.write(command({ values, out, driver, log }));
} catch (error) {
  process.stderr.write(`compare ${name}: ${(error as Error).message}\n`);
  process.exit(2);
}
