#!/usr/bin/env node
// What the split (`sweep --trace`) costs a gateway (issue 58, proof item 4; backs docs/traces.md
// "What it costs" and docs/validation/traces.md). Its cost has two parts, measured apart:
//
//   node bench/dist/split-cost.js throughput --gateway hive [--level 20] [--pairs 4] [--duration 10] [--warmup 5] [--subgraphs node]
//       What the harness does more (the engine's header and sample, the subgraphs' call logs) taking
//       CPU from the gateway at its peak: `gwprof sweep` at one level plain and with
//       `--trace --no-gateway-spans`, in pairs of alternating order; per pair traced ÷ plain of ok
//       req/s and of the gateway's CPU per ok request; their median, range and 95% interval.
//   node bench/dist/split-cost.js instructions --gateway hive [--epochs 3] [--batches 2] [--aa]
//       What the gateway does more when requests carry a traceparent (it parses and forwards it):
//       its instructions per validated request under callgrind, as `compare --measure instructions`
//       counts them, a plain process beside one told to forward (GWPROF_TRACE_CONTEXT=1) whose
//       requests carry a traceparent, a fresh pair each epoch. --aa: both plain (the count's noise).
//
// Both print a markdown report on stdout and progress on stderr; [--out bench/results/split-cost]
// gets a JSON file of every reading (split-cost-<mode>-<gateway>-<date>.json).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { benchArgs } from './args.js';
import { fixed, repoRoot } from './common.js';
import { againstBudget, percentChange, summarizeRatios, type RatioSummary } from './split-cost/ratios.js';
import { pairRatios, throughputPairs, type SweepPlan, type ThroughputRun } from './split-cost/throughput.js';
import { countedEpochs, type CountedEpoch } from './split-cost/instructions.js';

const { values, positionals } = benchArgs(
  {
    allowPositionals: true,
    options: {
      gateway: { type: 'string', default: 'hive' },
      level: { type: 'string', default: '20' },
      pairs: { type: 'string', default: '4' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '5' },
      subgraphs: { type: 'string', default: 'node' },
      epochs: { type: 'string', default: '3' },
      batches: { type: 'string', default: '2' },
      aa: { type: 'boolean', default: false },
      budget: { type: 'string', default: '3' },
      out: { type: 'string', default: path.join(repoRoot, 'bench', 'results', 'split-cost') },
    },
  },
  { usage: 'throughput|instructions', min: 1 },
);
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};
const budget = Number(values.budget) / 100;
const date = new Date().toISOString().slice(0, 10);
mkdirSync(values.out, { recursive: true });
const jsonFile = (mode: string) => path.join(values.out, `split-cost-${mode}-${values.gateway.replace(/\W+/g, '-')}-${date}${values.aa ? '-aa' : ''}.json`);

const mode = positionals[0];
if (mode === 'throughput') await throughput();
else if (mode === 'instructions') await instructions();
else {
  log(`split-cost: unknown mode ${mode}: throughput or instructions`);
  process.exit(2);
}

async function throughput(): Promise<void> {
  const started = new Date().toISOString();
  const plan: SweepPlan = {
    gateway: values.gateway,
    level: Number(values.level),
    durationSec: Number(values.duration),
    warmupSec: Number(values.warmup),
    subgraphs: values.subgraphs,
    out: path.join(values.out, 'runs'),
    stamp: started.slice(0, 16).replace(/\D/g, ''),
  };
  const file = jsonFile('throughput');
  const done: ThroughputRun[] = [];
  throughputPairs(plan, Number(values.pairs), log, (run) => {
    done.push(run);
    log(
      `pair ${run.pair} ${run.traced ? 'traced' : 'plain '}: ${run.status}, ${run.okRps.toFixed(1)} ok req/s, gateway ${fixed(run.gatewayCpuMsPerOkRequest, 3)} CPU ms/req, harness cores ${fixed(run.harnessCoresBusyPercent, 0)}% busy, gateway cores ${fixed(run.gatewayCoresBusyPercent, 0)}%${run.traced ? `, traced ${run.tracedWithCalls}/${run.tracedRequests} with calls` : ''}`,
    );
    writeFileSync(file, `${JSON.stringify({ mode: 'throughput', started, plan, runs: done }, null, 1)}\n`);
  });
  const rps = summarizeRatios(pairRatios(done, (r) => r.okRps));
  const cpu = summarizeRatios(pairRatios(done, (r) => r.gatewayCpuMsPerOkRequest));
  const lines = [
    `${plan.gateway}, c=${plan.level}, ${done.length / 2} pairs of sweeps (${plan.durationSec} s windows, subgraphs ${plan.subgraphs}), ${started}`,
    '',
    '| pair | plain ok req/s | traced ok req/s | traced ÷ plain | plain CPU ms/req | traced CPU ms/req | statuses |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...[...new Set(done.map((r) => r.pair))].map((pair) => {
      const p = done.find((r) => r.pair === pair && !r.traced)!;
      const t = done.find((r) => r.pair === pair && r.traced)!;
      return `| ${pair} | ${p.okRps.toFixed(1)} | ${t.okRps.toFixed(1)} | ${(t.okRps / p.okRps).toFixed(3)} | ${fixed(p.gatewayCpuMsPerOkRequest, 3)} | ${fixed(t.gatewayCpuMsPerOkRequest, 3)} | ${p.status}, ${t.status} |`;
    }),
    '',
    summaryLine('ok req/s, traced ÷ plain', rps, budget, true),
    summaryLine('gateway CPU per ok request, traced ÷ plain', cpu, budget, false),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  writeFileSync(
    file,
    `${JSON.stringify({ mode: 'throughput', started, plan, runs: done, okRps: rps, gatewayCpuPerOkRequest: cpu, report: lines }, null, 1)}\n`,
  );
}

async function instructions(): Promise<void> {
  const started = new Date().toISOString();
  const file = jsonFile('instructions');
  const epochs: CountedEpoch[] = [];
  await countedEpochs({ gateway: values.gateway, epochs: Number(values.epochs), batches: Number(values.batches), aa: values.aa, log }, (epoch) => {
    epochs.push(epoch);
    writeFileSync(file, `${JSON.stringify({ mode: 'instructions', started, aa: values.aa, epochs }, null, 1)}\n`);
  });
  const candidate = values.aa ? 'plain (A/A)' : 'traced';
  const ratios = summarizeRatios(epochs.map((e) => e.candidatePerRequest / e.baselinePerRequest));
  const lines = [
    `${values.gateway}, ${epochs.length} epochs (fresh pairs under callgrind), ${values.batches} batches a side each, ${started}`,
    '',
    `| epoch | plain M instr/req (batches) | ${candidate} M instr/req (batches) | ${candidate} ÷ plain | subgraph calls carrying its trace id, per request |`,
    '| ---: | ---: | ---: | ---: | ---: |',
    ...epochs.map(
      (e) =>
        `| ${e.epoch} | ${(e.baselinePerRequest / 1e6).toFixed(3)} (${e.baseline.map((b) => (b / 1e6).toFixed(3)).join(', ')}) | ${(e.candidatePerRequest / 1e6).toFixed(3)} (${e.candidate.map((b) => (b / 1e6).toFixed(3)).join(', ')}) | ${(e.candidatePerRequest / e.baselinePerRequest).toFixed(4)} | ${fixed(e.forwardedPerRequest, 2)} |`,
    ),
    '',
    summaryLine(`instructions per ok request, ${candidate} ÷ plain`, ratios, budget, false, 2),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  writeFileSync(file, `${JSON.stringify({ mode: 'instructions', started, aa: values.aa, epochs, ratios, report: lines }, null, 1)}\n`);
}

function summaryLine(what: string, s: RatioSummary, limit: number, costIsBelowOne: boolean, digits = 1): string {
  const interval = s.interval ? `[${percentChange(s.interval[0], digits)}, ${percentChange(s.interval[1], digits)}]` : 'none (one pair)';
  return `${what}: median ${percentChange(s.median, digits)}, range ${percentChange(s.min, digits)} to ${percentChange(s.max, digits)}, geometric mean ${percentChange(s.geometricMean, digits)}, ${Math.round(s.confidence * 100)}% interval ${interval}; against a ${limit * 100}% budget: ${againstBudget(s, limit, costIsBelowOne)}`;
}
