#!/usr/bin/env node
// How good is `gwprof compare`'s verdict on this machine? Every measurement here runs the real CLI
// (each run holds /work/load.lock when it exists, so it never overlaps other measurements).
//
//   node scripts/bench-compare.mjs noise    [--windows 2,5,10,20] [--minutes 10]     noise per minute of machine time by window length
//   node scripts/bench-compare.mjs record   --label aa [--burn 5] [--minutes 60]    record windows of A/A (or A/B with a CPU burn of N%)
//   node scripts/bench-compare.mjs evaluate [--replays 2000]                          error rates by resampling the recordings
//   node scripts/bench-compare.mjs runs     [--aa 10] [--burn5 10] [--burn10 10]      real comparisons with the stopping rule
//                                            [--recalibrate]                          calibrate the burn before every burn run
//   node scripts/bench-compare.mjs runs-table [--since 2026-11-22T12:00]              every recorded real comparison, as one table
//
// Common: [--gateway mesh] [--window 5] [--blocks-per-epoch 3] [--out docs/bench]. Results are
// appended to <out>/compare-<command>.json and printed as markdown tables. Each command lives in
// scripts/bench-compare/; driver.mjs runs the CLI.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createDriver } from './bench-compare/driver.mjs';
import { evaluateCommand } from './bench-compare/evaluate.mjs';
import { noiseCommand } from './bench-compare/noise.mjs';
import { recordCommand } from './bench-compare/record.mjs';
import { runsCommand, runsTableCommand } from './bench-compare/runs.mjs';

const COMMANDS = { noise: noiseCommand, record: recordCommand, evaluate: evaluateCommand, runs: runsCommand, 'runs-table': runsTableCommand };

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    gateway: { type: 'string', default: 'mesh' },
    window: { type: 'string', default: '5' },
    windows: { type: 'string', default: '2,5,10,20' },
    minutes: { type: 'string', default: '10' },
    label: { type: 'string' },
    burn: { type: 'string', default: '0' },
    'blocks-per-epoch': { type: 'string', default: '3' },
    replays: { type: 'string', default: '2000' },
    aa: { type: 'string', default: '10' },
    burn5: { type: 'string', default: '10' },
    burn10: { type: 'string', default: '10' },
    budget: { type: 'string', default: '10' },
    budget5: { type: 'string', default: '20' },
    recalibrate: { type: 'boolean', default: false },
    out: { type: 'string', default: path.join(root, 'docs', 'bench') },
    since: { type: 'string' },
  },
});

const command = COMMANDS[positionals[0]];
if (!command) {
  process.stderr.write(`usage: node scripts/bench-compare.mjs ${Object.keys(COMMANDS).join('|')} [options] (see the header of this file)\n`);
  process.exit(2);
}
const out = path.resolve(values.out);
mkdirSync(out, { recursive: true });
const log = (line) => process.stderr.write(`${line}\n`);
const driver = createDriver({ root, gateway: values.gateway, window: values.window, log });
try {
  process.stdout.write(command({ values, out, driver, log }));
} catch (error) {
  process.stderr.write(`bench-compare ${positionals[0]}: ${error.message}\n`);
  process.exit(2);
}
