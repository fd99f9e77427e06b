#!/usr/bin/env node
// Error rates and time to a verdict of compare's stopping rule (the test on epoch means), by
// simulation (backs docs/validation/compare-error-rates.md and compare's design: rounds per epoch,
// first look, budget). Each simulated comparison draws fresh epochs: an epoch's value is the true
// change, plus its pair of processes' lasting offset (sd --epoch-sd), plus the mean of its rounds'
// noise (sd --within-sd each; a round is one window of each side). An epoch takes --pair-seconds to
// restart and warm both sides plus --round-seconds per round; the last look is what the budget
// holds at that pace. What it proves: at a given noise (take it from `compare.js evaluate`'s noise
// table), how often the rule calls a regression that is not there, misses one that is, and how long
// it takes, and which rounds per epoch is quickest. Pure: drives no load.
//
//   node bench/dist/simulate-sequential.js \
//     [--runs 5000] [--seed 1] [--budget 10,20] [--pair-seconds 20] [--round-seconds 14] [--rounds 1,2,4] \
//     [--within-sd 0.04] [--epoch-sd 0.045] [--change 0,0.05,0.1] [--design '{"minEpochs":4}'] [--markdown]
import { benchArgs } from './args.js';
import { mulberry32 } from '@gwprof/analysis';
import { DEFAULTS } from '@gwprof/collect';
import { maxEpochsFor, runToVerdict, wilsonInterval, type ReplayDesign, type ReplayResult } from './compare/procedure-evaluation.js';

const { values: args } = benchArgs({
  options: {
    runs: { type: 'string', default: '5000' },
    seed: { type: 'string', default: '1' },
    budget: { type: 'string', default: '10,20' },
    'pair-seconds': { type: 'string', default: '20' },
    'round-seconds': { type: 'string', default: '14' },
    rounds: { type: 'string', default: '2' },
    'within-sd': { type: 'string', default: '0.04' },
    'epoch-sd': { type: 'string', default: '0.045' },
    change: { type: 'string', default: '0,0.05,0.1' },
    design: { type: 'string', default: '{}' },
    markdown: { type: 'boolean', default: false },
  },
});
const list = (s: string): number[] => s.split(',').map(Number);
const runs = Number(args.runs);
const pairSeconds = Number(args['pair-seconds']);
const roundSeconds = Number(args['round-seconds']);
const { threshold, alpha, minEpochs, spendingPower, holdWithoutFarthest } = DEFAULTS.compare.design;
const design: ReplayDesign = { threshold, alpha, minEpochs, spendingPower, holdWithoutFarthest, ...(JSON.parse(args.design) as ReplayDesign) };

/** Standard normal by Box–Muller. */
function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

interface Row {
  budget: number;
  rounds: number;
  withinSd: number;
  epochSd: number;
  change: number;
}

/** A stream of simulated epoch values for one comparison. */
function simulatedEpochs({ rounds, withinSd, epochSd, change }: Row, random: () => number): () => number {
  return () => {
    let noise = 0;
    for (let i = 0; i < rounds; i++) noise += withinSd * gaussian(random);
    return Math.log1p(change) + epochSd * gaussian(random) + noise / rounds;
  };
}

function simulateRow(row: Row, seed: number) {
  const random = mulberry32(seed);
  const epochSeconds = pairSeconds + row.rounds * roundSeconds;
  const maxEpochs = maxEpochsFor(row.budget, epochSeconds, design.minEpochs ?? 4);
  const tenMinutes = Math.floor(600 / epochSeconds);
  const results: ReplayResult[] = [];
  for (let i = 0; i < runs; i++) results.push(runToVerdict(simulatedEpochs(row, random), { ...design, maxEpochs }));
  const share = (pred: (r: ReplayResult) => boolean): number => results.filter(pred).length / runs;
  const decided = results.filter((r) => r.outcome !== 'inconclusive');
  return {
    epochSeconds,
    maxEpochs,
    regression: share((r) => r.outcome === 'regression'),
    noChange: share((r) => r.outcome === 'no change'),
    improvement: share((r) => r.outcome === 'improvement'),
    inconclusive: share((r) => r.outcome === 'inconclusive'),
    regression10: share((r) => r.outcome === 'regression' && r.epochs <= tenMinutes),
    noChange10: share((r) => r.outcome === 'no change' && r.epochs <= tenMinutes),
    meanMinutes: decided.length ? (decided.reduce((s, r) => s + r.epochs, 0) / decided.length) * (epochSeconds / 60) : NaN,
  };
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const signed = (x: number): string => `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(x * 100)}%`;
const header = [
  'budget min',
  'rounds/epoch',
  's/epoch',
  'last look',
  'sd/round',
  'sd/pair',
  'true change',
  'regression',
  '≤10 min',
  'no change',
  '≤10 min',
  'improvement',
  'inconclusive',
  'mean min to verdict',
];
const print = (cells: (string | number)[]): void => console.log(args.markdown ? `| ${cells.join(' | ')} |` : cells.map((c) => String(c).padStart(12)).join(''));
console.log(`design ${JSON.stringify(design)}`);
console.log(`${runs} runs per row; ${pairSeconds} s to restart and warm a pair, ${roundSeconds} s per round; seed ${args.seed}`);
console.log('outcome shares over all runs; "≤10 min" = that outcome within 10 minutes; minutes over runs that reached a verdict');
print(header);
if (args.markdown) print(header.map(() => '---'));
const started = Date.now();
let seed = Number(args.seed);
for (const budget of list(args.budget)) {
  for (const rounds of list(args.rounds)) {
    for (const withinSd of list(args['within-sd'])) {
      for (const epochSd of list(args['epoch-sd'])) {
        for (const change of list(args.change)) {
          const r = simulateRow({ budget, rounds, withinSd, epochSd, change }, seed++);
          print([
            budget,
            rounds,
            r.epochSeconds,
            r.maxEpochs,
            pct(withinSd),
            pct(epochSd),
            signed(change),
            pct(r.regression),
            pct(r.regression10),
            pct(r.noChange),
            pct(r.noChange10),
            pct(r.improvement),
            pct(r.inconclusive),
            r.meanMinutes.toFixed(1),
          ]);
        }
      }
    }
  }
}

const margin = (p: number): string => (100 * (wilsonInterval(Math.round(p * runs), runs)[1] - p)).toFixed(1);
console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s; 95% binomial margin at ${runs} runs: ±${margin(0.05)} points at 5%, ±${margin(0.8)} at 80%)`);
