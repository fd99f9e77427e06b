#!/usr/bin/env node
// How good is `gwprof compare --measure instructions` on this machine? (backs
// docs/validation/compare-instructions.md and the defaults of the instruction measure). Every
// comparison runs the real CLI, one at a time.
//
//   node bench/dist/instructions.js loop-cost                      instructions per iteration of the planted loop (ground truth)
//   node bench/dist/instructions.js runs [--gateway mesh] [--aa 10] [--p1 6] [--p2 6] [--p5 0] [--p10 0]
//                                        [--baseline-instructions 57.45e6] [--flags='--budget 10']
//                                                                  real comparisons: A/A and planted +1/2/5/10%, interleaved
//   node bench/dist/instructions.js table [--since 2026-11-27]      every recorded run: by kind, then one by one (no load)
//   node bench/dist/instructions.js noise FILE…                     noise components of compare.json files (or their slim copies) (no load)
//   node bench/dist/instructions.js settle RUN_DIR                  each counted batch of a comparison run with TurboFan on: instructions
//                                                                  per request and the optimising compilers' share, in order (no load)
//
// Results are appended to <out>/compare-instruction-runs.json and <out>/loop-cost.json
// ([--out bench/results/compare-instructions]).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { benchArgs } from './args.js';
import { repoRoot } from './common.js';
import { appendEntry, readEntries } from './compare/json-log.js';
import { measureLoopCost, type LoopCost } from './instructions/loop-cost.js';
import { runOne, runPlan, runsDetail, runsTable, type InstructionRunEntry } from './instructions/runs.js';
import { noiseLines, noiseOf, type NoiseBatch } from './instructions/noise.js';
import { settleRows, settleTable } from './instructions/settle.js';
import { readFileSync } from 'node:fs';

const { values, positionals } = benchArgs(
  {
    allowPositionals: true,
    options: {
      gateway: { type: 'string', default: 'mesh' },
      aa: { type: 'string', default: '0' },
      p1: { type: 'string', default: '0' },
      p2: { type: 'string', default: '0' },
      p5: { type: 'string', default: '0' },
      p10: { type: 'string', default: '0' },
      'baseline-instructions': { type: 'string' },
      flags: { type: 'string', default: '' },
      since: { type: 'string', default: '' },
      out: { type: 'string', default: path.join(repoRoot, 'bench', 'results', 'compare-instructions') },
    },
  },
  { usage: 'loop-cost|runs|table|noise|settle', min: 1 },
);

const out = path.resolve(values.out);
mkdirSync(out, { recursive: true });
const log = (line: string): void => void process.stderr.write(`${line}\n`);

function latestLoopCost(): LoopCost {
  const entries = readEntries<LoopCost>(out, 'loop-cost.json');
  return entries.at(-1)!;
}

const command = positionals[0];
if (command === 'loop-cost') {
  const cost = measureLoopCost(repoRoot);
  appendEntry(out, 'loop-cost.json', cost);
  process.stdout.write(`${JSON.stringify(cost, null, 1)}\n`);
} else if (command === 'runs') {
  if (!values['baseline-instructions'])
    throw new Error("runs needs --baseline-instructions: the baseline gateway's instructions per request, to size the planted loops");
  const cost = latestLoopCost();
  const plan = runPlan({ 0: Number(values.aa), 1: Number(values.p1), 2: Number(values.p2), 5: Number(values.p5), 10: Number(values.p10) });
  const flags = values.flags.split(/\s+/).filter(Boolean);
  const entries: InstructionRunEntry[] = [];
  for (const [i, run] of plan.entries()) {
    const entry = runOne({
      root: repoRoot,
      gateway: values.gateway,
      flags,
      run,
      instructionsPerIteration: cost.instructionsPerIteration,
      baselinePerRequest: Number(values['baseline-instructions']),
      label: `run-${Date.now()}`,
      out,
    });
    entries.push(entry);
    const change = entry.change === null ? '–' : `${(entry.change * 100).toFixed(2)}%`;
    log(
      `${i + 1}/${plan.length} ${values.gateway} ${run.plantedPercent === 0 ? 'A/A' : `+${run.plantedPercent}%`}: ${entry.verdict} (exit ${entry.exitCode}) in ${(entry.verdictMinutes ?? entry.minutes).toFixed(1)} min to the verdict (${entry.minutes.toFixed(1)} in all), change ${change}, planted ${entry.plantedShare === null ? '–' : `${(entry.plantedShare * 100).toFixed(2)}%`}`,
    );
  }
  process.stdout.write(`${runsTable(entries).join('\n')}\n`);
} else if (command === 'table') {
  const entries = readEntries<InstructionRunEntry>(out, 'compare-instruction-runs.json').filter((e) => e.date >= values.since);
  process.stdout.write(`${runsTable(entries).join('\n')}\n\n${runsDetail(entries).join('\n')}\n`);
} else if (command === 'noise') {
  for (const file of positionals.slice(1)) {
    const batches = (JSON.parse(readFileSync(file, 'utf8')) as { batches: NoiseBatch[] }).batches;
    process.stdout.write(`${noiseLines(path.basename(file), noiseOf(batches)).join('\n')}\n`);
  }
} else if (command === 'settle') {
  process.stdout.write(`${settleTable(settleRows(path.resolve(positionals[1] ?? '.'))).join('\n')}\n`);
} else {
  process.stderr.write('usage: node bench/dist/instructions.js loop-cost|runs|table|noise|settle (see the header of bench/src/instructions.ts)\n');
  process.exit(2);
}
