import type { CompareLevel, PublishedCompare } from '@gwprof/results';
import { escapeHtml } from './escape.js';
import { NONE, fixed, integer, ms, shareAsPercent, signedPoints } from './format.js';
import {
  bucketsMovedMost,
  changeIsWorse,
  failedTrials,
  isDeltasOnly,
  metricLabel,
  metricRow,
  overallVerdictText,
  verdictTone,
} from './compare-rows.js';
import { reproduceCommand } from './reproduce-command.js';
import { type HtmlColumn, factsTable, htmlPage, htmlTable } from './html-page.js';
import { relativeHref } from './links.js';
import { environmentFacts } from './run-facts.js';
import { failureBreakdown } from './step-rows.js';
import { dotPlot } from './svg-chart.js';

const SIDE_COLORS = { baseline: '#1f77b4', candidate: '#ff7f0e' } as const;

function metricsTable(compare: PublishedCompare, level: CompareLevel): string {
  const deltasOnly = isDeltasOnly(compare);
  const columns: HtmlColumn[] = [
    { header: 'metric' },
    { header: 'unit' },
    { header: 'baseline', numeric: true },
    { header: 'candidate', numeric: true },
    { header: 'delta', numeric: true },
    ...(deltasOnly ? [] : [{ header: '95% CI', numeric: true }, { header: 'verdict' }, { header: 'trials b/c', numeric: true }]),
  ];
  const rows = level.metrics.map((m) => {
    const row = metricRow(m);
    const worse = changeIsWorse(m);
    const deltaClass = worse === null ? '' : worse ? 'delta-bad' : 'delta-good';
    const cells = [
      escapeHtml(row.label),
      escapeHtml(row.unit),
      escapeHtml(row.baseline),
      escapeHtml(row.candidate),
      `<span class="${deltaClass}">${escapeHtml(row.delta)}</span>`,
    ];
    if (!deltasOnly) {
      cells.push(escapeHtml(row.ci), `<span class="verdict-${escapeHtml(row.verdict.replace(/\s+/g, '-'))}">${escapeHtml(row.verdict)}</span>`, escapeHtml(row.trials));
    }
    return { cells, attrs: `data-metric="${escapeHtml(m.metric)}" data-verdict="${escapeHtml(m.verdict)}"` };
  });
  return htmlTable(columns, rows, `class="compare-table" id="compare-table-c${level.concurrency}"`);
}

function bucketTable(level: CompareLevel): string {
  if (level.buckets.length === 0) return '<p class="meta">No CPU buckets (profiling off).</p>';
  const moved = new Set(bucketsMovedMost(level.buckets).map((b) => b.bucket));
  const sorted = [...level.buckets].sort((a, b) => Math.abs(b.deltaPoints) - Math.abs(a.deltaPoints));
  return htmlTable(
    [{ header: 'bucket' }, { header: 'baseline %', numeric: true }, { header: 'candidate %', numeric: true }, { header: 'delta', numeric: true }],
    sorted.map((b) => ({
      cells: [
        moved.has(b.bucket) ? `<b>${escapeHtml(b.bucket)}</b>` : escapeHtml(b.bucket),
        shareAsPercent(b.baseline),
        shareAsPercent(b.candidate),
        escapeHtml(signedPoints(b.deltaPoints)),
      ],
    })),
    `class="bucket-deltas" id="bucket-deltas-c${level.concurrency}"`,
  );
}

function trialCharts(compare: PublishedCompare, level: CompareLevel): string {
  if (isDeltasOnly(compare)) return '';
  const charts = level.metrics.map((m) =>
    dotPlot({
      id: `trials-c${level.concurrency}-${m.metric.replace(/[^\w-]/g, '_')}`,
      title: `${metricLabel(m.metric)} (${m.unit})`,
      yTitle: m.unit,
      width: 360,
      groups: [
        { name: 'baseline', color: SIDE_COLORS.baseline, values: m.baseline.values, median: m.baseline.median },
        { name: 'candidate', color: SIDE_COLORS.candidate, values: m.candidate.values, median: m.candidate.median },
      ],
    }),
  );
  return `<h3>Trial values (dots; bar = median)</h3><div class="charts trial-charts">${charts.join('')}</div>`;
}

function trialsTable(compare: PublishedCompare): string {
  if (compare.trials.length === 0) return '';
  const rows = compare.trials.map((t) => {
    const s = t.step;
    const flamegraph = compare.analysis.trials.find((a) => a.stepId === s.id)?.flamegraph ?? null;
    const links = [flamegraph ? relativeHref(flamegraph) : null].filter((h): h is string => h !== null);
    return {
      cells: [
        escapeHtml(t.side),
        String(t.index),
        String(t.step.concurrency),
        s.status === 'ok' ? '<span class="status-ok">ok</span>' : '<span class="status-failed">FAILED</span>',
        escapeHtml(fixed(s.rps, 1)),
        escapeHtml(fixed(s.gateway.cpuMsPerOkRequest, 2)),
        escapeHtml(ms(s.latencyMs?.p50)),
        escapeHtml(ms(s.latencyMs?.p99)),
        escapeHtml(fixed(s.gateway.rssMaxMB, 0)),
        escapeHtml(fixed(s.fanout, 2)),
        escapeHtml(failureBreakdown(s.failureCounts)),
        links.length > 0 ? links.map((h) => `<a class="flamegraph-link" href="${escapeHtml(h)}">flame graph</a>`).join(' ') : NONE,
      ],
      className: s.status === 'failed' ? 'failed' : 'ok',
      attrs: `data-side="${escapeHtml(t.side)}"`,
    };
  });
  return `<section id="trials"><h2>Trials</h2>${htmlTable(
    [
      { header: 'side' },
      { header: '#', numeric: true },
      { header: 'conc', numeric: true },
      { header: 'status' },
      { header: 'rps', numeric: true },
      { header: 'CPU ms/ok req', numeric: true },
      { header: 'p50 ms', numeric: true },
      { header: 'p99 ms', numeric: true },
      { header: 'RSS MB', numeric: true },
      { header: 'fan-out', numeric: true },
      { header: 'failures' },
      { header: 'profile' },
    ],
    rows,
    'id="trials-table"',
  )}</section>`;
}

function failuresSection(compare: PublishedCompare): string {
  const failed = failedTrials(compare);
  if (failed.length === 0) return '<section id="failures"><h2>Failures</h2><p class="status-ok">No trial failed validation.</p></section>';
  const items = failed.map(
    (t) =>
      `<li><b class="status-failed">${escapeHtml(t.side)} trial ${t.index} c=${t.step.concurrency} FAILED</b>: ${escapeHtml(
        t.step.failures.join('; ') || 'failed',
      )}<ul>${t.step.failureSamples
        .map((s) => `<li class="failure-sample">${escapeHtml(s.kind)} ×${escapeHtml(integer(s.count))}<pre>${escapeHtml(s.message.slice(0, 2000))}</pre></li>`)
        .join('')}</ul></li>`,
  );
  return `<section id="failures"><h2>Failures</h2><ul>${items.join('')}</ul></section>`;
}

/** The report page of a compare run: both sides per level, bucket deltas, trial values as dots. */
export function renderCompareReportHtml(compare: PublishedCompare): string {
  const c = compare.config;
  const tone = verdictTone(compare);
  const header = `<header id="compare-summary">
<h1>gwprof compare <span class="mono">${escapeHtml(compare.runId)}</span></h1>
<p class="meta">baseline <b class="mono">${escapeHtml(c.baseline)}</b> vs candidate <b class="mono">${escapeHtml(c.candidate)}</b> · mode ${escapeHtml(compare.mode)} · state ${escapeHtml(compare.state)} · started ${escapeHtml(compare.startedAt)}</p>
<div id="verdict" class="verdict ${tone}">${escapeHtml(overallVerdictText(compare))}</div>
${compare.analysis.verdictReasons.length > 0 ? `<ul id="verdict-reasons">${compare.analysis.verdictReasons.map((r) => `<li>${escapeHtml(r)}</li>`).join('')}</ul>` : ''}
${compare.stopReason ? `<p>Stopped: ${escapeHtml(compare.stopReason)}</p>` : ''}
</header>`;
  const levels = compare.analysis.levels
    .map(
      (level) => `<section class="compare-level" data-concurrency="${level.concurrency}"><h2>Concurrency ${level.concurrency}</h2>
${metricsTable(compare, level)}
<h3>CPU buckets (% of gateway samples; delta in points)</h3>
${bucketTable(level)}
${trialCharts(compare, level)}
</section>`,
    )
    .join('\n');
  const setup = factsTable(
    [
      { label: 'Baseline env', value: Object.entries(c.baselineEnv).map(([k, v]) => `${k}=${v}`).join(' ') || NONE },
      { label: 'Candidate env', value: Object.entries(c.candidateEnv).map(([k, v]) => `${k}=${v}`).join(' ') || NONE },
      { label: 'Concurrency', value: c.concurrency.join(', ') },
      { label: 'Trial', value: `${c.durationSec} s after ${c.warmupSec} s warm-up` },
      { label: 'Trials per side', value: `${c.minTrials}–${c.maxTrials}${c.budgetMinutes === null ? '' : `, budget ${c.budgetMinutes} min`}` },
      { label: 'Threshold', value: `${Number((c.threshold * 100).toFixed(2))}%` },
      { label: 'Query', value: c.query },
      { label: 'Reproduce', value: reproduceCommand(compare) },
    ],
    'id="config-table"',
  );
  const environment = `<section id="environment"><h2>Environment</h2>${
    compare.environment ? factsTable(environmentFacts(compare.environment), 'id="environment-table"') : '<p class="meta">Not recorded.</p>'
  }<h3>Setup</h3>${setup}</section>`;
  return htmlPage({
    title: `gwprof compare ${compare.runId}`,
    body: [header, `<div id="levels">${levels}</div>`, failuresSection(compare), trialsTable(compare), environment].join('\n'),
  });
}
