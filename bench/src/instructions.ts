#!/usr/bin/env node
// How good is `gwprof compare --measure instructions` on this machine? (backs
// docs/validation/compare-instructions.md and the defaults of the instruction measure). Every
// comparison runs the real CLI, one at a time.
//
//   node bench/dist/instructions.js loop-cost [--native]           instructions per iteration of the planted loop (ground truth): the
//                                                                  Node preload's, or with --native the native preload's (fixtures/native-work)
//   node bench/dist/instructions.js padding-cost --gateway grafbase [--bytes 20000,200000]
//                                                                  what a byte of whitespace before each subgraph answer costs the gateway a
//                                                                  request (ground truth for --plant padding)
//   node bench/dist/instructions.js runs [--gateway mesh|grafbase|hive-router|apollo-router|cmd:…] [--native] [--aa 10] [--p1 6] [--p2 6] [--p5 0] [--p10 0]
//                                        [--baseline-instructions 57.45e6] [--flags='--budget 10'] [--plant loop|padding] [--padding-base 2000]
//                                                                  real comparisons: A/A and planted +1/2/5/10%, interleaved; planted by a
//                                                                  preloaded loop, or by padding subgraph answers (both sides by the base, the
//                                                                  candidate's by the planted bytes more)
//   node bench/dist/instructions.js allocations --gateway hive-router [--per-response 5,20]
//                                                                  a planted number of allocations per response read back (native gateways)
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
import { buildNativeWork, measureNativeLoopCost, type NativeLoopCost } from './instructions/native-work.js';
import { NATIVE_BINARIES } from '@gwprof/collect';
import { plantAllocations } from './instructions/planted-allocations.js';
import { measurePaddingCost, paddedByteCost, type PaddingCost } from './instructions/padding-cost.js';
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
      native: { type: 'boolean', default: false },
      'per-response': { type: 'string', default: '5,20' },
      plant: { type: 'string', default: 'loop' },
      bytes: { type: 'string', default: '20000,200000' },
      'padding-base': { type: 'string', default: '2000' },
      since: { type: 'string', default: '' },
      out: { type: 'string', default: path.join(repoRoot, 'bench', 'results', 'compare-instructions') },
    },
  },
  { usage: 'loop-cost|padding-cost|runs|allocations|table|noise|settle', min: 1 },
);

const out = path.resolve(values.out);
mkdirSync(out, { recursive: true });
const log = (line: string): void => void process.stderr.write(`${line}\n`);

/** A built-in native gateway, or --native for a `cmd:` one: the loop is planted by the native preload. */
const native = values.native || values.gateway in NATIVE_BINARIES;

function latestLoopCost(): LoopCost | NativeLoopCost {
  const entries = readEntries<LoopCost | NativeLoopCost>(out, 'loop-cost.json').filter((e) => ('kind' in e && e.kind === 'native') === native);
  if (entries.length === 0) throw new Error(`no ${native ? 'native ' : ''}loop cost recorded in ${out}: run loop-cost${native ? ' --native' : ''} first`);
  return entries.at(-1)!;
}

/** One more padded byte's cost for this gateway (see paddedByteCost). */
function latestPaddingCost(): number {
  const cost = paddedByteCost(readEntries<PaddingCost>(out, 'padding-cost.json').filter((e) => e.gateway === values.gateway));
  if (!cost) throw new Error(`no two padding doses recorded for ${values.gateway} in ${out}: run padding-cost --gateway ${values.gateway} first`);
  log(
    `one more padded byte costs ${cost.instructionsPerPaddedByte.toFixed(3)} instructions a request (${cost.doses[0].bytes} and ${cost.doses[1].bytes} bytes, ${cost.doses[1].date.slice(0, 10)})`,
  );
  return cost.instructionsPerPaddedByte;
}

const command = positionals[0];
if (command === 'padding-cost') {
  for (const bytes of values.bytes.split(',').map(Number)) {
    const cost = measurePaddingCost({ root: repoRoot, gateway: values.gateway, bytes });
    appendEntry(out, 'padding-cost.json', cost);
    log(
      `${values.gateway}, ${bytes} bytes before each answer: ${cost.baselinePerRequest} → ${cost.candidatePerRequest} instructions/request, ${cost.instructionsPerPaddedByte?.toFixed(3)} a padded byte (exit ${cost.exitCode})`,
    );
  }
} else if (command === 'loop-cost') {
  const cost = values.native ? measureNativeLoopCost(repoRoot) : measureLoopCost(repoRoot);
  appendEntry(out, 'loop-cost.json', cost);
  process.stdout.write(`${JSON.stringify(cost, null, 1)}\n`);
} else if (command === 'runs') {
  if (!values['baseline-instructions'])
    throw new Error("runs needs --baseline-instructions: the baseline gateway's instructions per request, to size the planted loops");
  const padding = values.plant === 'padding';
  if (!padding && values.plant !== 'loop') throw new Error(`--plant ${values.plant}: loop or padding`);
  const perUnit = padding ? latestPaddingCost() : latestLoopCost().instructionsPerIteration;
  const plan = runPlan({ 0: Number(values.aa), 1: Number(values.p1), 2: Number(values.p2), 5: Number(values.p5), 10: Number(values.p10) });
  const flags = values.flags.split(/\s+/).filter(Boolean);
  const entries: InstructionRunEntry[] = [];
  const nativeLibrary = native && !padding ? buildNativeWork(repoRoot).library : undefined;
  for (const [i, run] of plan.entries()) {
    const entry = runOne({
      root: repoRoot,
      gateway: values.gateway,
      flags,
      run,
      instructionsPerIteration: perUnit,
      ...(padding ? { padding: { base: Number(values['padding-base']) } } : {}),
      baselinePerRequest: Number(values['baseline-instructions']),
      label: `run-${Date.now()}`,
      out,
      ...(nativeLibrary ? { nativeLibrary } : {}),
    });
    entries.push(entry);
    const change = entry.change === null ? '–' : `${(entry.change * 100).toFixed(2)}%`;
    log(
      `${i + 1}/${plan.length} ${values.gateway} ${run.plantedPercent === 0 ? 'A/A' : `+${run.plantedPercent}%`}: ${entry.verdict} (exit ${entry.exitCode}) in ${(entry.verdictMinutes ?? entry.minutes).toFixed(1)} min to the verdict (${entry.minutes.toFixed(1)} in all), change ${change}, planted ${entry.plantedShare === null ? '–' : `${(entry.plantedShare * 100).toFixed(2)}%`}`,
    );
  }
  process.stdout.write(`${runsTable(entries).join('\n')}\n`);
} else if (command === 'allocations') {
  const { library } = buildNativeWork(repoRoot);
  for (const perResponse of values['per-response'].split(',').map(Number)) {
    const entry = plantAllocations({ root: repoRoot, gateway: values.gateway, perResponse, library, out });
    log(
      `${values.gateway} +${perResponse} allocations/response: baseline ${entry.baselinePerRequest?.toFixed(2) ?? '–'}, candidate ${entry.candidatePerRequest?.toFixed(2) ?? '–'} allocations/request, read ÷ planted ${entry.readOverPlanted?.toFixed(3) ?? '–'} (exit ${entry.exitCode})`,
    );
  }
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
  process.stderr.write('usage: node bench/dist/instructions.js loop-cost|runs|allocations|table|noise|settle (see the header of bench/src/instructions.ts)\n');
  process.exit(2);
}
