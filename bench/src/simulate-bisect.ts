#!/usr/bin/env node
// How `gwprof bisect`'s plan behaves at a given scatter of one point between processes, by
// simulation (backs docs/validation/bisect.md): a history of --points commits with planted steps
// (--plants, as commit:relative change), each count drawn with lognormal noise of each --sd (one
// draw a process), the plan driven round by round as run-bisect does (two points a round) with the
// defaults' design and each --max-counts. It counts, over --runs seeds, the steps named where
// nothing was planted, how often each plant was named, the bisections left with an unresolved range,
// and the counts each took. Pure: drives no gateway.
//
//   node bench/dist/simulate-bisect.js [--runs 1000] [--points 16] [--plants 6:0.07,12:0.017] \
//     [--sd 0.001,0.003,0.006,0.012] [--max-counts 3,5]
import { benchArgs } from './args.js';
import { mulberry32, planBisection, type BisectDesign, type BisectPlan, type PlannedPoint } from '@gwprof/analysis';
import { DEFAULTS } from '@gwprof/collect';

const { values: args } = benchArgs({
  options: {
    runs: { type: 'string', default: '1000' },
    points: { type: 'string', default: '16' },
    plants: { type: 'string', default: '6:0.07,12:0.017' },
    sd: { type: 'string', default: '0.001,0.003,0.006,0.012' },
    'max-counts': { type: 'string', default: '3,5' },
  },
});
const list = (s: string): number[] => s.split(',').map(Number);
const plants = args.plants.split(',').map((p) => p.split(':').map(Number) as [number, number]);
const truth = Array.from({ length: Number(args.points) }, (_, i) => plants.reduce((v, [at, change]) => (i >= at ? v * (1 + change) : v), 1e6));
const spans = (step: { good: number; bad: number }, at: number) => step.good < at && at <= step.bad;

/** One bisection to its end: its plan and the counts it took. */
function bisect(sd: number, seed: number, design: BisectDesign): { plan: BisectPlan; counts: number } {
  const random = mulberry32(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const points: PlannedPoint[] = truth.map(() => ({ perRequest: [], skipped: false }));
  for (let counts = 0; ; ) {
    const plan = planBisection(points, design);
    if (plan.pending.length === 0) return { plan, counts };
    for (const i of plan.pending.slice(0, 2)) {
      points[i] = { ...points[i]!, perRequest: [...points[i]!.perRequest, truth[i]! * Math.exp(sd * gauss())] };
      counts++;
    }
  }
}

const percentile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const runs = Number(args.runs);
const { threshold, splitFraction, minPointSd } = DEFAULTS.bisect;
console.log(
  `| sd | --max-counts | false steps | ${plants.map(([at, c]) => `+${(c * 100).toFixed(1)}% at ${at} named`).join(' | ')} | unresolved | counts: median, 95th, max |`,
);
console.log(`| ---: | ---: | ---: | ${plants.map(() => '---:').join(' | ')} | ---: | ---: |`);
for (const sd of list(args.sd))
  for (const maxCountsPerPoint of list(args['max-counts'])) {
    const design = { threshold, splitFraction, minPointSd, maxCountsPerPoint };
    let falseSteps = 0;
    let unresolved = 0;
    const named = plants.map(() => 0);
    const counts: number[] = [];
    for (let seed = 1; seed <= runs; seed++) {
      const { plan, counts: n } = bisect(sd, seed, design);
      counts.push(n);
      falseSteps += plan.steps.filter((s) => !plants.some(([at]) => spans(s, at))).length;
      plants.forEach(([at], k) => {
        if (plan.steps.some((s) => spans(s, at))) named[k]!++;
      });
      if (plan.unresolvedRanges.length > 0) unresolved++;
    }
    counts.sort((a, b) => a - b);
    const share = (n: number) => `${n} of ${runs}`;
    console.log(
      `| ${(sd * 100).toFixed(1)}% | ${maxCountsPerPoint} | ${falseSteps} | ${named.map(share).join(' | ')} | ${share(unresolved)} | ${percentile(counts, 0.5)}, ${percentile(counts, 0.95)}, ${counts[counts.length - 1]} |`,
    );
  }
