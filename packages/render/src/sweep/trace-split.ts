/** `--trace`: where the traced requests' time went, per step (a table), and the slowest requests' waterfalls (inline SVG). */
import type { RunResult, StepTraceSplit, TraceSplit, TracedRequest } from '@gwprof/results';
import { escapeHtml, escapeMarkdown } from '../escape.js';
import { ms } from '../format.js';
import { htmlTable } from '../html-page.js';
import { formatMarkdownTable } from '../text-table.js';
import { stepLabel } from './step-rows.js';

export const TRACE_SPLIT_HEADERS = [
  'step',
  'requests',
  'n',
  'latency ms',
  'before 1st call',
  'subgraph critical path',
  'gaps',
  'after last answer',
  'parallel',
  'calls/req',
];

export const TRACE_SPLIT_NOTE =
  'Means over the traced requests with subgraph calls (all of them, and those at or above their 99th percentile of latency), ms; the parts before the 1st call, on the critical path, in gaps and after the last answer add up to the latency (calls are clipped to their request; "clipped" is the most any request lost to the processes\' clocks disagreeing). The critical path is, at each moment, the call the gateway was waiting on (the one in flight that finished last); "parallel" is time with two or more calls in flight. docs/traces.md';

/** The split's rows: per traced step, its requests, then its p99 requests. */
export function traceSplitRows(run: RunResult): string[][] {
  const rows: string[][] = [];
  for (const split of run.analysis?.traceSplits ?? []) {
    const step = run.steps.find((s) => s.id === split.stepId);
    const label = step ? stepLabel(step) : split.stepId;
    if (!split.all) {
      rows.push([label, 'all', String(split.sampled), split.missing ?? 'no split', '', '', '', '', '', '']);
      continue;
    }
    rows.push(splitCells(label, 'all', split.all));
    if (split.p99) rows.push(splitCells(label, 'p99', split.p99));
  }
  return rows;
}

function splitCells(label: string, which: string, split: TraceSplit): string[] {
  const critical = Object.entries(split.criticalPathMs)
    .filter(([, value]) => value > 0)
    .map(([name, value]) => `${name} ${ms(value)}`)
    .join(' · ');
  return [
    label,
    which,
    String(split.requests),
    ms(split.latencyMs),
    ms(split.beforeFirstCallMs),
    critical || '–',
    ms(split.gapsMs),
    ms(split.afterLastCallMs),
    ms(split.parallelMs),
    split.callsPerRequest.toFixed(1),
  ];
}

export const GATEWAY_PHASES_HEADERS = [
  'step',
  'requests with spans',
  "the gateway's own spans: mean ms per request (spans per request)",
  'client spans vs proxy calls',
];

export const GATEWAY_PHASES_NOTE =
  "The spans the gateway exported over OTLP for the traced requests, by the gateway's own names, longest first. Spans nest (a fetch inside an execute inside the request): they do not add up. The last column pairs each request's client spans with the calls the subgraphs saw, in start order: the span's duration minus the call's (median, and the 90th percentile of its size) and the call's start minus the span's (median). docs/traces.md";

/** One row per step whose gateway was told to export spans. */
export function gatewayPhaseRows(run: RunResult): string[][] {
  const rows: string[][] = [];
  for (const split of run.analysis?.traceSplits ?? []) {
    const spans = split.gatewaySpans;
    if (!spans) continue;
    const step = run.steps.find((s) => s.id === split.stepId);
    const phases = spans.phasesMs.map((phase) => `${phase.name} ${ms(phase.meanMs)} (×${phase.perRequest})`).join(' · ');
    const agreement = spans.fetchAgreement;
    rows.push([
      step ? stepLabel(step) : split.stepId,
      String(spans.requests),
      phases || (spans.note ?? '–'),
      agreement
        ? `${agreement.pairs} pairs: span − call median ${ms(agreement.medianDiffMs)}, p90 |Δ| ${ms(agreement.p90AbsDiffMs)}; start offset ${ms(agreement.medianStartOffsetMs)}`
        : '–',
    ]);
  }
  return rows;
}

function gatewayPhaseNotes(run: RunResult): string[] {
  return (run.analysis?.traceSplits ?? []).flatMap((split) => {
    const step = run.steps.find((s) => s.id === split.stepId);
    return split.gatewaySpans?.note && split.gatewaySpans.requests > 0 ? [`${step ? stepLabel(step) : split.stepId}: ${split.gatewaySpans.note}`] : [];
  });
}

/** Lines under the table: what is missing or left out, per step. */
function splitNotes(run: RunResult): string[] {
  const notes: string[] = [];
  for (const split of run.analysis?.traceSplits ?? []) {
    const step = run.steps.find((s) => s.id === split.stepId);
    const label = step ? stepLabel(step) : split.stepId;
    if (split.missing && split.all) notes.push(`${label}: ${split.missing}`);
    if (split.withoutCalls > 0 && split.all)
      notes.push(
        `${label}: ${split.withoutCalls} of ${split.sampled} traced requests reached no subgraph under their own trace id (a call shared with another request, or not forwarded): not in the split`,
      );
    if (split.all) notes.push(`${label}: at most ${ms(Math.max(split.all.maxClippedMs, split.p99?.maxClippedMs ?? 0))} ms of a request's call time clipped`);
  }
  return notes;
}

export function traceSplitMarkdown(run: RunResult): string[] {
  const rows = traceSplitRows(run);
  if (rows.length === 0) return [];
  return [
    '## Where the time went (traced requests)',
    '',
    formatMarkdownTable(
      TRACE_SPLIT_HEADERS.map((header, i) => ({ header, align: i === 1 || i === 5 ? 'left' : 'right' })),
      rows.map((row) => row.map(escapeMarkdown)),
    ),
    '',
    TRACE_SPLIT_NOTE,
    ...splitNotes(run).flatMap((note) => ['', `- ${escapeMarkdown(note)}`]),
    ...gatewayPhasesMarkdown(run),
  ];
}

function gatewayPhasesMarkdown(run: RunResult): string[] {
  const rows = gatewayPhaseRows(run);
  if (rows.length === 0) return [];
  return [
    '',
    "### The gateway's own phases (its OTLP spans)",
    '',
    formatMarkdownTable(
      GATEWAY_PHASES_HEADERS.map((header, i) => ({ header, align: i === 1 ? 'right' : 'left' })),
      rows.map((row) => row.map(escapeMarkdown)),
    ),
    '',
    GATEWAY_PHASES_NOTE,
    ...gatewayPhaseNotes(run).flatMap((note) => ['', `- ${escapeMarkdown(note)}`]),
  ];
}

function gatewayPhasesHtml(run: RunResult): string {
  const rows = gatewayPhaseRows(run);
  if (rows.length === 0) return '';
  const table = htmlTable(
    GATEWAY_PHASES_HEADERS.map((header, i) => ({ header, numeric: i === 1 })),
    rows.map((cells) => ({ cells: cells.map(escapeHtml) })),
    'id="gateway-phases"',
  );
  const notes = gatewayPhaseNotes(run)
    .map((note) => `<li class="note">${escapeHtml(note)}</li>`)
    .join('');
  return `<h3>The gateway's own phases (its OTLP spans)</h3>${table}<p class="meta">${escapeHtml(GATEWAY_PHASES_NOTE)}</p>${notes ? `<ul>${notes}</ul>` : ''}`;
}

export function traceSplitHtml(run: RunResult): string {
  const splits = run.analysis?.traceSplits ?? [];
  if (splits.length === 0) return '';
  const table = htmlTable(
    TRACE_SPLIT_HEADERS.map((header, i) => ({ header, numeric: i !== 0 && i !== 1 && i !== 5 })),
    traceSplitRows(run).map((cells) => ({ cells: cells.map(escapeHtml) })),
    'id="trace-split"',
  );
  const notes = splitNotes(run)
    .map((note) => `<li class="note">${escapeHtml(note)}</li>`)
    .join('');
  const waterfalls = splits.map((split) => stepWaterfalls(run, split)).join('\n');
  return `<section id="traces"><h2>Where the time went (traced requests)</h2>${table}<p class="meta">${escapeHtml(TRACE_SPLIT_NOTE)}</p>${
    notes ? `<ul>${notes}</ul>` : ''
  }${gatewayPhasesHtml(run)}${waterfalls}</section>`;
}

function stepWaterfalls(run: RunResult, split: StepTraceSplit): string {
  if (split.slowest.length === 0) return '';
  const step = run.steps.find((s) => s.id === split.stepId);
  const names = [...new Set(split.slowest.flatMap((request) => request.calls.map((call) => call.subgraph)))].sort();
  return `<details class="waterfalls"><summary>${escapeHtml(step ? stepLabel(step) : split.stepId)}: the ${split.slowest.length} slowest traced requests</summary>${split.slowest
    .map((request) => waterfallSvg(request, names))
    .join('\n')}</details>`;
}

const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#b07aa1', '#edc948', '#9c755f'];
const WIDTH = 760;
const LABEL = 110;
const ROW = 16;

const SPAN_COLOR = '#bab0ac';

/**
 * One request as bars on its own time axis: the request on top, then the gateway's own spans
 * (where it exported them, indented by nesting, in grey), then each subgraph call as the subgraph
 * saw it, in the order they started.
 */
export function waterfallSvg(request: TracedRequest, names: readonly string[]): string {
  const span = Math.max(request.latencyMs, ...request.calls.map((call) => call.endMs), 1e-3);
  const spanRows = (request.spans ?? []).map((s) => ({
    label: `${'·'.repeat(Math.min(s.depth, 4))}${s.name}`.slice(0, 17),
    start: s.startMs,
    end: s.endMs,
    color: SPAN_COLOR,
    title: `gateway span ${s.name} (${s.kind}${s.subgraph ? `, ${s.subgraph}` : ''}): ${ms(s.startMs)}–${ms(s.endMs)} ms (${ms(s.endMs - s.startMs)} ms)`,
  }));
  const x = (t: number): number => LABEL + (Math.min(Math.max(t, 0), span) / span) * (WIDTH - LABEL - 10);
  const rows = [
    { label: 'request', start: 0, end: request.latencyMs, color: '#888', title: `request ${ms(request.latencyMs)} ms` },
    ...spanRows,
    ...request.calls.map((call) => ({
      label: call.subgraph,
      start: call.startMs,
      end: call.endMs,
      color: PALETTE[Math.max(0, names.indexOf(call.subgraph)) % PALETTE.length]!,
      title: `${call.subgraph}: ${ms(call.startMs)}–${ms(call.endMs)} ms (${ms(call.endMs - call.startMs)} ms, ${call.bytes} bytes)`,
    })),
  ];
  const height = 22 + rows.length * ROW;
  const bars = rows
    .map((row, i) => {
      const y = 18 + i * ROW;
      const width = Math.max(1, x(row.end) - x(row.start));
      return `<text x="4" y="${y + 11}">${escapeHtml(row.label)}</text><rect x="${x(row.start).toFixed(1)}" y="${y}" width="${width.toFixed(1)}" height="${ROW - 4}" fill="${row.color}"><title>${escapeHtml(row.title)}</title></rect>`;
    })
    .join('');
  return `<svg class="chart waterfall" xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img"><text x="4" y="12" class="chart-title">${escapeHtml(
    `trace ${request.traceId} · ${ms(request.latencyMs)} ms · ${request.calls.length} subgraph calls${request.spans ? ` · ${request.spans.length} gateway spans` : ''}`,
  )}</text>${bars}</svg>`;
}
