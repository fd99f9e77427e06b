#!/usr/bin/env node
// What a gateway's own tracing costs it (issue 58 item 3, seed 003's overhead table): `gwprof
// compare` of the gateway plain (baseline) against the same gateway exporting every request's spans
// over OTLP/HTTP (candidate), at equal load. The candidate's spans go to gwprof's receiver running
// in a process of its own (otlp-sink.js), as a collector would take them; the comparison sends no
// traceparent, so the gateway traces every request as a root (sampling 1.0: Hive Gateway's
// parent-based ratio of 1, Grafbase's `sampling = 1.0`, Hive Router's `collect.sampling: 1.0`,
// Apollo Router's `sampler: always_on`), each by the settings `sweep --trace` writes for it
// (packages/collect/src/gateways/). Prints the verdict and the change of CPU per request,
// throughput and latency with their intervals, and the spans the sink received.
//
//   node bench/dist/tracing-cost.js --gateway hive|grafbase|hive-router|apollo-router [--concurrency 10] [--budget 4] [--base-port 4850] [--out FILE.json]
// Ports: the baseline's gateway at base, its subgraphs base+1..4; the candidate's at base+5, base+11..14.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { CompareResult, MetricComparison } from '@gwprof/results';
import { benchArgs } from './args.js';
import { repoRoot } from './common.js';
import { runCompareCli } from './compare/driver.js';

const { values } = benchArgs({
  options: {
    gateway: { type: 'string', default: 'hive' },
    concurrency: { type: 'string', default: '10' },
    budget: { type: 'string', default: '4' },
    'base-port': { type: 'string', default: '4850' },
    out: { type: 'string' },
  },
});
const log = (line: string) => process.stderr.write(`${line}\n`);

const root = repoRoot;
const sink = spawn(process.execPath, [`${root}/bench/dist/otlp-sink.js`], { stdio: ['ignore', 'pipe', 'inherit'] });
const lines = createInterface({ input: sink.stdout! });
const read = (): Promise<string> => new Promise((resolve) => lines.once('line', resolve));
const endpoint = await read();
log(`OTLP receiver at ${endpoint}; comparing ${values.gateway} plain (baseline) with its spans exported (candidate)`);

const base = Number(values['base-port']);
const ports = (from: number): string => [1, 2, 3, 4].map((i) => from + i).join(',');
const flags = [
  ...['-c', values.concurrency!, '--budget', values.budget!, '--no-profile', '--candidate-env', `GWPROF_OTLP_ENDPOINT=${endpoint}`],
  ...['--gateway-port', String(base), '--subgraph-ports', ports(base), '--candidate-port', String(base + 5), '--candidate-subgraph-ports', ports(base + 10)],
];
const comparison = runCompareCli<CompareResult>({ root, gateway: values.gateway!, flags, label: `tracing-cost-${values.gateway}`, log });
const received = read();
sink.kill('SIGTERM');
const reception = JSON.parse(await received) as { spans: number; rejected: number };

const analysis = comparison.result?.analysis;
const level = analysis?.levels[0];
const row = (metric: MetricComparison | undefined): string =>
  metric
    ? `${metric.metric} (${metric.unit}): baseline ${metric.baseline.mean.toFixed(3)}, candidate ${metric.candidate.mean.toFixed(3)}, change ${percent(metric.relativeChange)}${
        metric.interval ? ` [${percent(metric.interval[0])}, ${percent(metric.interval[1])}] at ${Math.round((metric.confidence ?? 0) * 100)}%` : ''
      }`
    : 'n/a';
const report = [
  `gateway ${values.gateway}, c=${values.concurrency}, budget ${values.budget} min: verdict ${analysis?.verdict ?? 'none'} (exit ${comparison.exitCode}), ${comparison.minutes.toFixed(1)} min`,
  `gating ${row(level?.gating)}`,
  ...['rps', 'p50', 'p99'].map((name) => row(level?.metrics.find((metric) => metric.metric === name))),
  `spans received by the sink: ${reception.spans} (exports not decoded: ${reception.rejected})`,
  ...(analysis?.verdictReasons ?? []).map((reason) => `reason: ${reason}`),
];
process.stdout.write(`${report.join('\n')}\n`);
if (values.out) writeFileSync(values.out, `${JSON.stringify({ report, reception, compare: comparison.result }, null, 1)}\n`);

function percent(value: number | null): string {
  return value === null ? 'n/a' : `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}%`;
}
