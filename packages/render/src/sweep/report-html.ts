import { traceSplitHtml } from './trace-split.js';
import { failureDetail } from '@gwprof/analysis';
import type { RateCapacity, RunResult, StepRecord } from '@gwprof/results';
import { hasBuckets } from './bucket-rows.js';
import { LITTLES_LAW_HEADERS, capacityFacts, littlesLawCells, rateCapacityFacts } from './capacity-facts.js';
import { escapeHtml } from '../escape.js';
import { NONE, fixed, integer, shareAsPercent } from '../format.js';
import { bucketTableData, type BucketUnit } from './bucket-table.js';
import { type HtmlColumn, factsTable, htmlPage, htmlTable } from '../html-page.js';
import { relativeHref } from '../links.js';
import { configFacts } from './run-facts.js';
import { environmentFacts } from '../facts.js';
import { failureBreakdown, failureLabel } from '../failures.js';
import { functionDisplayName, functionLocation } from '../function-names.js';
import { bucketsChart, cpuChart, latencyChart, memoryChart, stepSeriesCharts, throughputChart } from './run-charts.js';
import { runUnattributedLines } from './unattributed.js';
import { ALLOCATION_NOTE, allocationFramesNote, allocationTableData, hasAllocations, kB } from './allocation-table.js';
import {
  stepMethod,
  steadyStateHeaders,
  failedStepReasons,
  failedSteps,
  fanoutNotes,
  harnessBoundLines,
  levelCell,
  overallVerdict,
  stepLabel,
  stepTable,
  stepWarningLines,
  steadyStateCells,
} from './step-rows.js';
import { stepAnalysisOf } from './step-analysis.js';
import { topFunctionsOf } from './top-functions.js';

export interface ReportHtmlOptions {
  /** Page title; defaults to "gwprof <run id>". */
  title?: string;
  /** Top self-time functions listed per step. */
  topFunctions?: number;
}

/** Failure messages are shown up to this length; they are samples, not logs. */
const SAMPLE_MESSAGE_MAX = 2000;

function link(path: string | undefined, text: string, className: string): string | null {
  const href = relativeHref(path);
  return href === null ? null : `<a class="${className}" href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;
}

function headerSection(run: RunResult): string {
  const verdict = overallVerdict(run);
  const reasons = failedSteps(run).flatMap((step) => {
    const detail = failureDetail(step);
    return failedStepReasons(step).map(
      (r) => `<li><b class="status-failed">${stepLabel(step)} FAILED</b>: ${escapeHtml(r)}${detail ? ` — ${escapeHtml(detail)}` : ''}</li>`,
    );
  });
  const fixes = (run.analysis?.fixes ?? []).map((fix) => `<p class="fix"><b>To fix:</b> ${escapeHtml(fix)}</p>`).join('');
  return `<header id="summary">
<h1>gwprof run <span class="mono">${escapeHtml(run.runId)}</span></h1>
<p class="meta">gateway <b class="mono" id="gateway-name">${escapeHtml(run.config.gateway)}</b> · started ${escapeHtml(run.startedAt)}${
    run.finishedAt ? ` · finished ${escapeHtml(run.finishedAt)}` : ''
  } · state ${escapeHtml(run.state)} · ${escapeHtml(run.tool.name)} ${escapeHtml(run.tool.version)}</p>
<div id="verdict" class="verdict ${verdict.ok ? 'ok' : 'bad'}">${escapeHtml(verdict.text)}</div>
${reasons.length > 0 ? `<ul id="failed-reasons">${reasons.join('')}</ul>` : ''}
${fixes}
${run.error ? `<p class="status-failed">Harness error: ${escapeHtml(run.error)}</p>` : ''}
</header>`;
}

function chartsSection(run: RunResult): string {
  if (run.steps.length === 0) return '<section id="charts"><h2>Curves</h2><p>No steps recorded.</p></section>';
  return `<section id="charts"><h2>Throughput and latency against concurrency</h2>
<div class="charts">${throughputChart(run)}${latencyChart(run)}</div>
<h2>Resources</h2>
<div class="charts">${cpuChart(run)}${memoryChart(run)}</div>
<p class="meta">Failed levels are marked ✗ on the x axis. rps counts successful responses only; latency is of successful responses.</p>
</section>`;
}

function stepsSection(run: RunResult): string {
  const columns: HtmlColumn[] = [...stepTable(run).columns.map((c) => ({ header: c.header, numeric: c.align === 'right' })), { header: 'profile' }];
  const rows = run.steps.map((step) => {
    const cells = stepTable(run)
      .cells(step, '')
      .map((cell) => escapeHtml(cell));
    cells[1] =
      step.status === 'ok'
        ? '<span class="status-ok">ok</span>'
        : step.status === 'failed'
          ? '<span class="status-failed">FAILED</span>'
          : `<span class="status-unsteady">${step.status}</span>`;
    const links = [
      link(stepAnalysisOf(run, step)?.flamegraph ?? undefined, 'flame graph', 'flamegraph-link'),
      link(step.profile?.cpuprofile, '.cpuprofile', 'cpuprofile-link'),
      link(stepAnalysisOf(run, step)?.allocation?.flamegraph ?? undefined, 'allocation flame graph', 'alloc-flamegraph-link'),
      link(step.profile?.heap?.heapprofile, '.heapprofile', 'heapprofile-link'),
    ].filter((l): l is string => l !== null);
    cells.push(links.length > 0 ? links.join(' · ') : NONE);
    return {
      cells,
      className: step.status,
      attrs: `data-level="${levelCell(step)}" data-status="${step.status}"`,
    };
  });
  const artifacts = Object.entries(run.artifacts)
    .map(([name, path]) => link(path, name, 'artifact-link'))
    .filter((l): l is string => l !== null);
  return `<section id="steps"><h2>Steps</h2>
${htmlTable(columns, rows, 'id="steps-table"')}
<p class="meta">CPU % is of one core. fan-out = subgraph requests per gateway response.</p>
${artifacts.length > 0 ? `<p id="artifacts">Other artifacts: ${artifacts.join(' · ')}</p>` : ''}
</section>`;
}

function steadyStateSection(run: RunResult): string {
  if (run.steps.length === 0) return '';
  const table = htmlTable(
    steadyStateHeaders(run).map((header, i) => ({ header, numeric: i !== 3 && i !== 5 })),
    run.steps.map((step) => ({ cells: steadyStateCells(run, step).map(escapeHtml), className: step.status, attrs: `data-level="${levelCell(step)}"` })),
    'id="steady-state-table"',
  );
  const reasons = run.steps.flatMap((step) => step.steadiness.reasons.map((r) => `<li class="note"><b>${stepLabel(step)} unsteady</b>: ${escapeHtml(r)}</li>`));
  const bound = harnessBoundLines(run).map((line) => `<li class="note"><b>harness-bound</b> ${escapeHtml(line)}</li>`);
  const sharing = fanoutNotes(run).map((note) => `<li class="note">${escapeHtml(note)}</li>`);
  const series = run.steps
    .filter((step) => step.series.length > 0)
    .map(
      (step) =>
        `<details class="step-series" data-level="${levelCell(step)}"><summary>${stepLabel(step)}: second by second</summary>${stepSeriesCharts(step)}</details>`,
    );
  return `<section id="steady-state"><h2>Steady state</h2>
<p class="meta">${escapeHtml(stepMethod(run))} Only responses completed inside the window count; requests in flight at its end are shown. Little's ratio = rps × mean latency / concurrency: 1.0 in a steady closed loop.</p>
${table}
${reasons.length + bound.length + sharing.length > 0 ? `<ul id="steady-notes">${[...reasons, ...bound, ...sharing].join('')}</ul>` : ''}
${series.join('\n')}
</section>`;
}

function stepFailures(step: StepRecord): string {
  const samples = step.failureSamples.map(
    (s) =>
      `<li class="failure-sample" data-kind="${escapeHtml(s.kind)}"><b>${escapeHtml(failureLabel(s.kind))}</b> ×${escapeHtml(integer(s.count))}<pre>${escapeHtml(
        s.message.length > SAMPLE_MESSAGE_MAX ? `${s.message.slice(0, SAMPLE_MESSAGE_MAX)}…` : s.message,
      )}</pre></li>`,
  );
  const reasons =
    step.status === 'failed'
      ? `<ul>${failedStepReasons(step)
          .map((r) => `<li class="status-failed">${escapeHtml(r)}</li>`)
          .join('')}</ul>`
      : '';
  return `<div class="step-failures" data-level="${levelCell(step)}">
<h3>${stepLabel(step)}: ${step.status === 'failed' ? '<span class="status-failed">FAILED</span>' : 'ok'} · ${escapeHtml(
    integer(step.requests.failed),
  )} failed of ${escapeHtml(integer(step.requests.total))} · ${escapeHtml(failureBreakdown(step.failureCounts))}</h3>
${reasons}${samples.length > 0 ? `<ul class="failure-samples">${samples.join('')}</ul>` : ''}
</div>`;
}

function failuresSection(run: RunResult): string {
  const steps = run.steps.filter((s) => s.status === 'failed' || s.requests.failed > 0 || s.failureSamples.length > 0);
  const warnings = run.steps.filter((s) => s.orderWarnings > 0);
  const warningText =
    warnings.length > 0
      ? `<p class="note">Key-order warnings (data correct, keys not in the query's order): ${warnings
          .map((s) => `${stepLabel(s)}: ${escapeHtml(integer(s.orderWarnings))}`)
          .join(', ')}</p>`
      : '';
  const stepWarnings = stepWarningLines(run);
  const warningList =
    stepWarnings.length > 0 ? `<h3>Warnings</h3><ul id="step-warnings">${stepWarnings.map((w) => `<li class="note">${escapeHtml(w)}</li>`).join('')}</ul>` : '';
  return `<section id="failures"><h2>Failures</h2>
${steps.length === 0 ? '<p class="status-ok">No failed requests in any step.</p>' : steps.map(stepFailures).join('\n')}
${warningText}
${warningList}
</section>`;
}

function bucketHtmlTable(run: RunResult, unit: BucketUnit, id: string): string {
  const { columns, rows } = bucketTableData(run, unit);
  return htmlTable(
    columns.map((c) => ({ header: c.header, numeric: c.align === 'right' })),
    rows.map((cells) => ({ cells: cells.map(escapeHtml) })),
    `id="${id}"`,
  );
}

function bucketsSection(run: RunResult, topN: number): string {
  if (!hasBuckets(run)) {
    return '<section id="buckets"><h2>CPU buckets</h2><p class="meta">No CPU profile in this run (profiling off or no samples).</p></section>';
  }
  return `<section id="buckets"><h2>CPU buckets</h2>
<div class="charts">${bucketsChart(run)}</div>
<h3>Share of the gateway's sampled time (%)</h3>
${bucketHtmlTable(run, 'share', 'buckets-table')}
<h3>CPU milliseconds per successful request</h3>
${bucketHtmlTable(run, 'ms', 'bucket-ms-table')}
<p class="meta">Shares move when idle time or another bucket moves; ms per request do not. Each sample weighs the time it stands for. "Node gc %" is Node's own account of GC pauses in the same window, the gc bucket's ground truth.</p>
${unattributedList(run)}
${bucketDrillDown(run)}
${topFunctionsBlock(run, topN)}
</section>`;
}

/** Bytes allocated per successful request by bucket beside Node's GC, and each step's top allocators. */
function allocationSection(run: RunResult): string {
  if (!hasAllocations(run)) return '';
  const { columns, rows } = allocationTableData(run);
  const table = htmlTable(
    columns.map((c) => ({ header: c.header, numeric: c.align === 'right' })),
    rows.map((cells) => ({ cells: cells.map(escapeHtml) })),
    'id="allocation-table"',
  );
  const blocks = run.steps.flatMap((step) => {
    const allocation = stepAnalysisOf(run, step)?.allocation;
    if (!allocation || allocation.topAllocators.length === 0) return [];
    const graph = link(allocation.flamegraph ?? undefined, 'allocation flame graph', 'alloc-flamegraph-link');
    return [
      `<details class="top-allocators" data-level="${levelCell(step)}"><summary>${stepLabel(step)}: top ${allocation.topAllocators.length} allocating functions${graph ? ` · ${graph}` : ''}</summary>${htmlTable(
        [{ header: 'kB/req', numeric: true }, { header: '% of bytes', numeric: true }, { header: 'bucket' }, { header: 'function' }, { header: 'location' }],
        allocation.topAllocators.map((fn) => ({
          cells: [
            escapeHtml(kB(fn.bytesPerOkRequest)),
            shareAsPercent(fn.share, 1),
            escapeHtml(fn.bucket),
            `<span class="mono">${escapeHtml(functionDisplayName(fn))}</span>`,
            `<span class="mono">${escapeHtml(functionLocation(fn))}</span>`,
          ],
        })),
      )}</details>`,
    ];
  });
  return `<section id="allocations"><h2>What each request allocated</h2>
<h3>kB per successful request, beside GC</h3>
${table}
<p class="meta">${escapeHtml(ALLOCATION_NOTE)}</p>${allocationFramesNote(run) ? `<p class="meta">${escapeHtml(allocationFramesNote(run)!)}</p>` : ''}
${blocks.join('\n')}
</section>`;
}

/** What no rule placed, per step, and how to place it. */
function unattributedList(run: RunResult): string {
  const lines = runUnattributedLines(run);
  return lines.length > 0 ? `<ul id="unattributed">${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>` : '';
}

/** Per step and bucket, the functions that cost the most per successful request, with their files. */
function bucketDrillDown(run: RunResult): string {
  const blocks = run.steps.flatMap((step) => {
    const analysis = stepAnalysisOf(run, step);
    const buckets = Object.entries(analysis?.bucketFunctions ?? {}).filter(([, fns]) => fns.length > 0);
    if (buckets.length === 0) return [];
    const perBucket = buckets.map(
      ([bucket, fns]) =>
        `<h4>${escapeHtml(bucket)} · ${escapeHtml(fixed(analysis?.bucketMsPerOkRequest?.[bucket], 3))} ms/req</h4>${htmlTable(
          [{ header: 'ms/req', numeric: true }, { header: '% of bucket', numeric: true }, { header: 'function' }, { header: 'location' }],
          fns.map((fn) => ({
            cells: [
              escapeHtml(fixed(fn.msPerOkRequest, 3)),
              shareAsPercent(fn.shareOfBucket, 1),
              `<span class="mono">${escapeHtml(functionDisplayName(fn))}</span>`,
              `<span class="mono">${escapeHtml(functionLocation(fn))}</span>`,
            ],
          })),
        )}`,
    );
    return [
      `<details class="bucket-drilldown" data-level="${levelCell(step)}"><summary>${stepLabel(step)}: what each bucket holds</summary>${perBucket.join('')}</details>`,
    ];
  });
  return blocks.length > 0 ? `<h3>Drill-down: top functions per bucket</h3>${blocks.join('\n')}` : '';
}

function topFunctionsBlock(run: RunResult, n: number): string {
  const blocks = run.steps
    .map((step) => ({ step, top: topFunctionsOf(stepAnalysisOf(run, step), n) }))
    .filter((b) => b.top.length > 0)
    .map(
      ({ step, top }) =>
        `<details class="top-functions" data-level="${levelCell(step)}"><summary>${stepLabel(step)}: top ${top.length} self-time functions</summary>${htmlTable(
          [{ header: 'self %', numeric: true }, { header: 'bucket' }, { header: 'function' }, { header: 'location' }],
          top.map((fn) => ({
            cells: [
              shareAsPercent(fn.selfShare, 1),
              escapeHtml(fn.bucket),
              `<span class="mono">${escapeHtml(functionDisplayName(fn))}</span>`,
              `<span class="mono">${escapeHtml(functionLocation(fn))}</span>`,
            ],
          })),
        )}</details>`,
    );
  return blocks.length > 0 ? `<h3>Top self-time functions</h3>${blocks.join('\n')}` : '';
}

function rateCapacitySection(capacity: RateCapacity): string {
  const facts = rateCapacityFacts(capacity).map((f) => `<li><b>${escapeHtml(f.label)}</b>: ${escapeHtml(f.value)}</li>`);
  const notes = capacity.notes.map((n) => `<li class="note">${escapeHtml(n)}</li>`);
  return `<section id="capacity"><h2>Capacity (fixed-rate ladder)</h2><ul class="facts">${[...facts, ...notes].join('')}</ul>
<p class="meta">Latency runs from each request's intended send time, so queueing at the gateway shows in full (no coordinated omission).</p></section>`;
}

function capacitySection(run: RunResult): string {
  if (run.analysis?.rateCapacity) return rateCapacitySection(run.analysis.rateCapacity);
  const capacity = run.analysis?.capacity;
  if (!capacity) return '<section id="capacity"><h2>Capacity</h2><p class="meta">No capacity analysis in this run.</p></section>';
  const facts = capacityFacts(capacity)
    .map((f) => `<li><b>${escapeHtml(f.label)}</b>: ${escapeHtml(f.value)}</li>`)
    .join('');
  const little =
    capacity.littlesLaw.length > 0
      ? `<h3>Little's law check (concurrency ≈ throughput × mean latency)</h3>${htmlTable(
          LITTLES_LAW_HEADERS.map((header, i) => ({ header, numeric: i < 5 })),
          capacity.littlesLaw.map((check) => ({
            cells: littlesLawCells(check).map((c, i) => (i === 5 && check.flag !== 'ok' ? `<b class="note">${escapeHtml(c)}</b>` : escapeHtml(c))),
            className: check.flag === 'ok' ? 'ok' : 'flagged',
          })),
          'id="littles-law"',
        )}`
      : '';
  const notes =
    capacity.notes.length > 0
      ? `<h3>Notes</h3><ul id="capacity-notes">${capacity.notes.map((n) => `<li class="note">${escapeHtml(n)}</li>`).join('')}</ul>`
      : '';
  return `<section id="capacity"><h2>Capacity</h2><ul class="facts">${facts}</ul>${little}${notes}</section>`;
}

function environmentSection(run: RunResult): string {
  return `<section id="environment"><h2>Environment</h2>
${factsTable(environmentFacts(run.environment), 'id="environment-table"')}
<h3>Configuration</h3>
${factsTable(configFacts(run.config), 'id="config-table"')}
</section>`;
}

/**
 * profiles/<run-id>/index.html: one self-contained page (inline CSS and SVG, no script, no external
 * resource) that opens from file://. Every string from the run is escaped.
 */
export function renderReportHtml(run: RunResult, opts: ReportHtmlOptions = {}): string {
  return htmlPage({
    title: opts.title ?? `gwprof ${run.runId}`,
    body: [
      headerSection(run),
      chartsSection(run),
      stepsSection(run),
      steadyStateSection(run),
      failuresSection(run),
      bucketsSection(run, opts.topFunctions ?? 10),
      allocationSection(run),
      capacitySection(run),
      traceSplitHtml(run),
      environmentSection(run),
    ]
      .filter(Boolean)
      .join('\n'),
  });
}
