#!/usr/bin/env node
// Error rates and time to a verdict of compare's sequential stopping rule, by simulation (backs
// docs/validation/compare-error-rates.md, and the defaults minBlocks, alpha and beta of `gwprof compare`).
// Each run draws fresh windows: lognormal noise per window, an optional lasting offset per process
// (an "epoch" = one baseline and one candidate process, restarted every --blocks-per-epoch blocks),
// (--epoch-sd is the sd of each process's lasting log offset, so x moves by √2 times it per epoch),
// an optional machine drift (a random walk in log speed shared by both sides), and a true change
// of the candidate. Blocks alternate ABBA / BAAB; the rule looks after every block. What it proves:
// at a given noise (take it from `compare.js evaluate`'s noise table), how often the rule calls a
// regression that is not there, misses one that is, and how long it takes. Pure: drives no load.
//
//   node bench/dist/simulate-sequential.js \
//     [--runs 2000] [--seed 1] [--budget 48] [--seconds-per-block 25] [--blocks-per-epoch 6] \
//     [--cv 0.05,0.075,0.1,0.15] [--epoch-sd 0,0.03] [--change 0,0.05,0.1,-0.1] [--drift 0] \
//     [--design '{"beta":0.2}'] [--markdown]
import { parseArgs } from 'node:util';
import { blockLogRatio, mulberry32, resolveDesign, type BlockObservation } from '@gwprof/analysis';
import { runToVerdict, wilsonInterval, type ReplayResult } from './compare/procedure-evaluation.js';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '2000' },
    seed: { type: 'string', default: '1' },
    budget: { type: 'string', default: '48' },
    'seconds-per-block': { type: 'string', default: '25' },
    'blocks-per-epoch': { type: 'string', default: '6' },
    cv: { type: 'string', default: '0.05,0.075,0.1,0.15' },
    'epoch-sd': { type: 'string', default: '0,0.03' },
    change: { type: 'string', default: '0,0.05,0.1,-0.1' },
    drift: { type: 'string', default: '0' },
    design: { type: 'string', default: '{}' },
    markdown: { type: 'boolean', default: false },
  },
});
const list = (s: string): number[] => s.split(',').map(Number);
const runs = Number(args.runs);
const budget = Number(args.budget);
const secondsPerBlock = Number(args['seconds-per-block']);
const blocksPerEpoch = Number(args['blocks-per-epoch']);
const design = resolveDesign(JSON.parse(args.design));
const tenMinutes = Math.floor(600 / secondsPerBlock);

/** Standard normal by Box–Muller. */
function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

type Side = 'baseline' | 'candidate';

interface Row {
  cv: number;
  epochSd: number;
  change: number;
  drift: number;
}

/** A stream of simulated blocks for one comparison. */
function simulatedBlocks({ cv, epochSd, change, drift }: Row, random: () => number): () => BlockObservation {
  const sigma = Math.sqrt(Math.log(1 + cv * cv)); // lognormal with this coefficient of variation
  let block = 0;
  let machine = 0; // log speed of the machine, a random walk per window
  let offsets = { baseline: 0, candidate: 0 };
  const window = (side: Side): number => {
    machine += drift * gaussian(random);
    const trueLog = side === 'candidate' ? Math.log1p(change) : 0;
    return Math.exp(Math.log(10) + machine + offsets[side] + trueLog + sigma * gaussian(random));
  };
  return () => {
    const epoch = Math.floor(block / blocksPerEpoch);
    if (block % blocksPerEpoch === 0) offsets = { baseline: epochSd * gaussian(random), candidate: epochSd * gaussian(random) };
    const order: Side[] = block % 2 === 0 ? ['baseline', 'candidate', 'candidate', 'baseline'] : ['candidate', 'baseline', 'baseline', 'candidate'];
    const values: Record<Side, number[]> = { baseline: [], candidate: [] };
    for (const side of order) values[side].push(window(side));
    block++;
    return { epoch, x: blockLogRatio(values.baseline, values.candidate) };
  };
}

function simulateRow(row: Row, seed: number) {
  const random = mulberry32(seed);
  const results: ReplayResult[] = [];
  for (let i = 0; i < runs; i++) results.push(runToVerdict(simulatedBlocks(row, random), design, budget));
  const share = (pred: (r: ReplayResult) => boolean): number => results.filter(pred).length / runs;
  const decided = results.filter((r) => r.outcome !== 'inconclusive');
  const sorted = decided.map((r) => r.blocks).sort((a, b) => a - b);
  return {
    regression: share((r) => r.outcome === 'regression'),
    noChange: share((r) => r.outcome === 'no change'),
    improvement: share((r) => r.outcome === 'improvement'),
    inconclusive: share((r) => r.outcome === 'inconclusive'),
    regression10: share((r) => r.outcome === 'regression' && r.blocks <= tenMinutes),
    noChange10: share((r) => r.outcome === 'no change' && r.blocks <= tenMinutes),
    meanBlocks: decided.length ? decided.reduce((s, r) => s + r.blocks, 0) / decided.length : NaN,
    p90Blocks: sorted.length ? sorted[Math.ceil(0.9 * sorted.length) - 1]! : NaN,
  };
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const signed = (x: number): string => `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(x * 100)}%`;
const header = ['CV/window', 'sd/process', 'true change', 'regression', '≤10 min', 'no change', '≤10 min', 'improvement', 'inconclusive', 'mean blocks', 'p90 blocks', 'mean min'];
const print = (cells: (string | number)[]): void => console.log(args.markdown ? `| ${cells.join(' | ')} |` : cells.map((c, i) => String(c).padStart(i < 3 ? 11 : 12)).join(''));
console.log(`design ${JSON.stringify(design)}`);
console.log(`${runs} runs per row; budget ${budget} blocks (${((budget * secondsPerBlock) / 60).toFixed(0)} min at ${secondsPerBlock} s per block; 10 min = ${tenMinutes} blocks); ${blocksPerEpoch} blocks per epoch; drift ${args.drift}/window; seed ${args.seed}`);
console.log('outcome shares over all runs; "≤10 min" = that outcome within 10 minutes; blocks and minutes over runs that reached a verdict');
print(header);
if (args.markdown) print(header.map(() => '---'));
const started = Date.now();
let seed = Number(args.seed);
for (const drift of list(args.drift)) {
  for (const cv of list(args.cv)) {
    for (const epochSd of list(args['epoch-sd'])) {
      for (const change of list(args.change)) {
        const r = simulateRow({ cv, epochSd, change, drift }, seed++);
        print([pct(cv), pct(epochSd), signed(change), pct(r.regression), pct(r.regression10), pct(r.noChange), pct(r.noChange10), pct(r.improvement), pct(r.inconclusive), r.meanBlocks.toFixed(1), r.p90Blocks, ((r.meanBlocks * secondsPerBlock) / 60).toFixed(1)]);
      }
    }
  }
}

const margin = (p: number): string => (100 * (wilsonInterval(Math.round(p * runs), runs)[1] - p)).toFixed(1);
console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s; 95% binomial margin at ${runs} runs: ±${margin(0.05)} points at 5%, ±${margin(0.8)} at 80%)`);
