import type { RunResult, StepRecord } from '@gwprof/results';
import { uslThroughput } from '@gwprof/analysis';
import { bucketColor } from './buckets.js';
import { isRateRun, levelCell, stepLabel } from './step-rows.js';
import { missingBucketsLabel, runBucketColumns, stepBuckets } from './bucket-rows.js';
import { type LineSeries, type XMarker, lineChart, stackedBarChart } from '../svg-chart.js';

function levels(run: RunResult): string[] {
  return run.steps.map(levelCell);
}

/** The x axis: connections, or the offered rate of a rate sweep. */
function levelTitle(run: RunResult): string {
  return isRateRun(run) ? 'offered req/s' : 'concurrency';
}

function failedFlags(run: RunResult): boolean[] {
  return run.steps.map((s) => s.status === 'failed');
}

/** Successful rps per level, the USL prediction dashed, the knee marked when there is one. */
export function throughputChart(run: RunResult): string {
  const markers: XMarker[] = [];
  const knee = run.analysis?.capacity?.knee;
  if (knee) {
    const index = run.steps.findIndex((s) => s.load.kind === 'closed' && s.load.concurrency === knee.concurrency);
    if (index >= 0) markers.push({ index, label: `knee c=${knee.concurrency}` });
  }
  const series: LineSeries[] = [{ name: 'rps (successful)', color: '#1f77b4', values: run.steps.map((s) => s.rps) }];
  if (isRateRun(run)) series.push({ name: 'offered', color: '#7f7f7f', values: run.steps.map((s) => s.rate?.targetRps ?? null), dashed: true });
  const rateKnee = run.analysis?.rateCapacity?.knee;
  if (rateKnee) {
    const index = run.steps.findIndex((s) => s.rate?.targetRps === rateKnee.firstBrokenRps);
    if (index >= 0) markers.push({ index, label: `knee ${rateKnee.lastKeptRps}–${rateKnee.firstBrokenRps} req/s` });
  }
  const usl = run.analysis?.capacity?.usl;
  if (usl) {
    series.push({
      name: 'USL fit',
      color: '#9467bd',
      values: run.steps.map((s) => (s.load.kind === 'closed' ? uslThroughput(s.load.concurrency, usl) : null)),
      dashed: true,
    });
  }
  return lineChart({
    id: 'throughput-chart',
    title: 'Throughput (successful responses per second)',
    xLabels: levels(run),
    xTitle: levelTitle(run),
    yTitle: 'req/s',
    series,
    flaggedX: failedFlags(run),
    markers,
  });
}

/** Latency percentiles against the level; for a rate sweep, from intended send times (against offered rate). */
export function latencyChart(run: RunResult): string {
  const pick = (key: 'p50' | 'p90' | 'p99') => run.steps.map((s) => s.latencyMs?.[key] ?? null);
  return lineChart({
    id: 'latency-chart',
    title: isRateRun(run) ? 'Latency from intended send time against offered rate (ms)' : 'Latency of successful responses (ms)',
    xLabels: levels(run),
    xTitle: levelTitle(run),
    yTitle: 'ms',
    series: [
      { name: 'p50', color: '#2ca02c', values: pick('p50') },
      { name: 'p90', color: '#ff7f0e', values: pick('p90') },
      { name: 'p99', color: '#d62728', values: pick('p99') },
    ],
    flaggedX: failedFlags(run),
  });
}

/** CPU of the gateway against its helpers: subgraphs and load generator must not be the bottleneck. */
export function cpuChart(run: RunResult): string {
  return lineChart({
    id: 'cpu-chart',
    title: 'CPU (% of one core)',
    xLabels: levels(run),
    xTitle: levelTitle(run),
    yTitle: '% CPU',
    series: [
      { name: 'gateway', color: '#1f77b4', values: run.steps.map((s) => s.gateway.cpuPercent) },
      { name: 'subgraphs', color: '#8c564b', values: run.steps.map((s) => s.subgraphs.cpuPercent) },
      { name: 'load generator', color: '#7f7f7f', values: run.steps.map((s) => s.loadgen.cpuPercent) },
    ],
    flaggedX: failedFlags(run),
  });
}

export function memoryChart(run: RunResult): string {
  return lineChart({
    id: 'memory-chart',
    title: 'Gateway peak RSS (MB)',
    xLabels: levels(run),
    xTitle: levelTitle(run),
    yTitle: 'MB',
    series: [{ name: 'gateway RSS max', color: '#17becf', values: run.steps.map((s) => s.gateway.rssMaxMB) }],
    flaggedX: failedFlags(run),
  });
}

/** CPU buckets per level as 100% stacked bars. */
export function bucketsChart(run: RunResult): string {
  const columns = runBucketColumns(run);
  const entries = run.steps.map((step) => stepBuckets(run, step));
  return stackedBarChart({
    id: 'buckets-chart',
    title: 'Gateway CPU by bucket (% of samples)',
    xLabels: levels(run),
    xTitle: levelTitle(run),
    stacks: columns.map((name) => ({ name, color: bucketColor(name, columns) })),
    shares: entries.map((e) => (e.kind === 'shares' ? columns.map((c) => e.shares[c] ?? 0) : null)),
    emptyLabels: entries.map(missingBucketsLabel),
  });
}

/**
 * One step's load second by second: successful and failed responses, p50/p99 latency and the
 * gateway's CPU, with the start of the measured window marked, so a reader can see the warm-up
 * settle and the window hold.
 */
export function stepSeriesCharts(step: StepRecord): string {
  if (step.series.length === 0) return '';
  const xLabels = step.series.map((point) => String(point.t));
  const markers: XMarker[] = [{ index: step.timing.windowStartSec, label: 'window' }];
  const id = `series-${step.id.replace(/[^\w-]/g, '_')}`;
  const throughput = lineChart({
    id: `${id}-throughput`,
    title: `${stepLabel(step)}: responses per second`,
    xLabels,
    xTitle: 'second of the step',
    yTitle: 'per s',
    series: [
      { name: 'ok', color: '#1f77b4', values: step.series.map((p) => p.ok) },
      { name: 'failed', color: '#d62728', values: step.series.map((p) => p.failed) },
      { name: 'gateway CPU %', color: '#7f7f7f', values: step.series.map((p) => p.gatewayCpuPercent), dashed: true },
    ],
    markers,
  });
  const latency = lineChart({
    id: `${id}-latency`,
    title: `${stepLabel(step)}: latency of responses completed in each second (ms)`,
    xLabels,
    xTitle: 'second of the step',
    yTitle: 'ms',
    series: [
      { name: 'p50', color: '#2ca02c', values: step.series.map((p) => p.p50Ms) },
      { name: 'p99', color: '#d62728', values: step.series.map((p) => p.p99Ms) },
    ],
    markers,
  });
  return `<div class="charts">${throughput}${latency}</div>`;
}
