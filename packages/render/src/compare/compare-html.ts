import { loadLevel, type CompareLevel, type MoveNoise, type PublishedCompare } from '@gwprof/results';
import { ALLOCATION_CALLER_HEADERS, allocationCallerCells, allocationVerdictLine } from './allocation-verdict.js';
import { escapeHtml } from '../escape.js';
import { NONE, fixed, integer, ms, signedPercent } from '../format.js';
import {
  INSTRUCTION_FUNCTION_HEADERS,
  instructionBucketLine,
  instructionFunctionCells,
  instructionFunctionMoves,
  instructionMovesNote,
} from './instruction-moves.js';
import {
  ALLOCATION_HEADERS,
  allocationBucketLine,
  allocationLine,
  allocationMoveCells,
  allocationMovesHeading,
  largestAllocationMoves,
  FUNCTION_HEADERS,
  metricHeaders,
  changeIsWorse,
  decisionText,
  designText,
  functionCells,
  bucketMovesLine,
  functionMovesHeading,
  isDeltasOnly,
  largestMoves,
  goldensText,
  measureLines,
  metricCells,
  metricLabel,
  movedBeyondNoise,
  overallVerdictText,
  upstreamUnseenCompareLines,
  verdictTone,
  windowLabel,
} from './compare-rows.js';
import { reproduceCommand } from '../reproduce-command.js';
import { factsTable, htmlPage, htmlTable } from '../html-page.js';
import { relativeHref } from '../links.js';
import { environmentFacts } from '../facts.js';
import { failureBreakdown } from '../failures.js';
import { dotPlot, lineChart } from '../svg-chart.js';
import { failedWindows } from '@gwprof/analysis';

/** "c20" or "r300": the level in element ids. */
function levelTag(level: CompareLevel): string {
  return `${/req\/s/.test(level.label) ? 'r' : 'c'}${level.level}`;
}

const SIDE_COLORS = { baseline: '#1f77b4', candidate: '#ff7f0e' } as const;

function metricsTable(level: CompareLevel): string {
  const rows = [level.gating, ...level.metrics].map((m) => {
    const cells = metricCells(m).map(escapeHtml);
    const worse = changeIsWorse(m, level);
    cells[4] = `<span class="${worse === null ? '' : worse ? 'delta-bad' : 'delta-good'}">${cells[4]}</span>`;
    return { cells, attrs: `data-metric="${escapeHtml(m.metric)}"` };
  });
  return htmlTable(
    metricHeaders(level).map((header, i) => ({ header, numeric: i >= 2 })),
    rows,
    `class="compare-table" id="compare-table-${levelTag(level)}"`,
  );
}

/** "[+0.310, +0.530]", or – without noise. */
function noiseCell(noise: MoveNoise | null): string {
  if (!noise) return NONE;
  const signed = (v: number) => `${v >= 0 ? '+' : ''}${fixed(v, 3)}`;
  return `[${signed(noise.interval[0])}, ${signed(noise.interval[1])}]`;
}

/** Every bucket with its move and the move's interval; the ones beyond their noise in bold. */
function bucketTable(level: CompareLevel): string {
  if (level.buckets.length === 0) return '<p class="meta">No CPU buckets (profiling off).</p>';
  const moved = new Set(movedBeyondNoise(level.buckets).map((b) => b.bucket));
  const table = htmlTable(
    [
      { header: 'bucket' },
      { header: 'baseline ms/req', numeric: true },
      { header: 'candidate ms/req', numeric: true },
      { header: 'change ms/req', numeric: true },
      { header: 'interval', numeric: true },
    ],
    level.buckets.map((b) => ({
      cells: [
        moved.has(b.bucket) ? `<b>${escapeHtml(b.bucket)}</b>` : escapeHtml(b.bucket),
        fixed(b.baselineMsPerOkRequest, 3),
        fixed(b.candidateMsPerOkRequest, 3),
        `${b.deltaMsPerOkRequest >= 0 ? '+' : ''}${fixed(b.deltaMsPerOkRequest, 3)}`,
        noiseCell(b.noise),
      ],
      attrs: `data-moved="${moved.has(b.bucket)}"`,
    })),
    `class="bucket-deltas" id="bucket-deltas-${levelTag(level)}"`,
  );
  return `${table}<p class="meta">${escapeHtml(bucketMovesLine(level.buckets))}</p>`;
}

/** The functions whose self time moved most, each with its interval and whether it is beyond its noise. */
function functionsBlock(level: CompareLevel): string {
  const functions = largestMoves(level.functions, level.functions.length);
  if (functions.length === 0) return '';
  const table = htmlTable(
    FUNCTION_HEADERS.map((header, i) => ({ header, numeric: i < 5 })),
    functions.map((f) => ({
      cells: functionCells(f).map((c, i) => (i >= 6 ? `<span class="mono">${escapeHtml(c)}</span>` : escapeHtml(c))),
      attrs: `data-moved="${f.noise?.moved === true}"`,
    })),
    `class="function-moves" id="function-moves-${levelTag(level)}"`,
  );
  return `<h3>${escapeHtml(functionMovesHeading(level.functions))}</h3>${table}`;
}

/** Where the instructions went: buckets and functions from the profile pair, with what the figures may miss. */
function instructionBlock(level: CompareLevel): string {
  const m = level.instructionMoves;
  if (!m) return '';
  const moved = instructionFunctionMoves(m, 15);
  const table =
    moved.length === 0
      ? ''
      : htmlTable(
          INSTRUCTION_FUNCTION_HEADERS.map((header, i) => ({ header, numeric: i < 3 })),
          moved.map((f) => ({ cells: instructionFunctionCells(f).map((c, i) => (i >= 4 ? `<span class="mono">${escapeHtml(c)}</span>` : escapeHtml(c))) })),
          `class="instruction-moves" id="instruction-moves-${levelTag(level)}"`,
        );
  return `<h3>Where the instructions went</h3><p>${escapeHtml(instructionBucketLine(m))}</p>${table}<p class="meta">${escapeHtml(instructionMovesNote(m))}</p>`;
}

/** Allocation per request of both sides, its change, and the functions whose allocation moved most. */
function allocationBlock(level: CompareLevel): string {
  const line = allocationLine(level);
  if (!line || !level.allocation) return '';
  const moves = largestAllocationMoves(level.allocation);
  const table =
    moves.length === 0
      ? ''
      : `<h4>${escapeHtml(allocationMovesHeading(level.allocation.functions))}</h4>${htmlTable(
          ALLOCATION_HEADERS.map((header, i) => ({ header, numeric: i < 5 })),
          moves.map((f) => ({
            cells: allocationMoveCells(f).map((c, i) => (i >= 6 ? `<span class="mono">${escapeHtml(c)}</span>` : escapeHtml(c))),
            attrs: `data-moved="${f.noise?.moved === true}"`,
          })),
          `class="allocation-moves" id="allocation-moves-${levelTag(level)}"`,
        )}`;
  const graphs = level.allocation.flamegraphs;
  const link = (path: string, text: string) => `<a class="alloc-flamegraph-link" href="${escapeHtml(relativeHref(path) ?? '#')}">${escapeHtml(text)}</a>`;
  const pages = graphs ? `<p>Allocation flame graphs of all windows: ${link(graphs.baseline, 'baseline')} · ${link(graphs.candidate, 'candidate')}</p>` : '';
  const byBucket = allocationBucketLine(level.allocation);
  const buckets = byBucket ? `<p class="allocation-buckets">${escapeHtml(byBucket)}</p>` : '';
  return `<h3>Allocation</h3><p class="allocation-line" id="allocation-${levelTag(level)}">${escapeHtml(line)}</p>${buckets}${table}${pages}`;
}

function profileLinks(level: CompareLevel): string {
  const p = level.pprof;
  if (!p) return '';
  const link = (path: string, text: string, cls: string) => `<a class="${cls}" href="${escapeHtml(relativeHref(path) ?? '#')}">${escapeHtml(text)}</a>`;
  return `<p id="diff-profile-${levelTag(level)}">Flame graphs of all windows: ${link(p.flamegraphs.baseline, 'baseline', 'flamegraph-link')} · ${link(p.flamegraphs.candidate, 'candidate', 'flamegraph-link')}.
Differential profile (CPU per successful request): ${link(p.baseline, p.baseline, 'pprof-link')} → ${link(p.candidate, p.candidate, 'pprof-link')}; in the run folder: <code>${escapeHtml(p.command)}</code></p>`;
}

/** Each window's CPU per ok request by side, and the blocks' paired changes in order. */
function windowCharts(compare: PublishedCompare, level: CompareLevel): string {
  if (isDeltasOnly(compare)) return '';
  const values = level.gating;
  const dots = dotPlot({
    id: `windows-${levelTag(level)}`,
    title: `${metricLabel(values.metric)} per window (${values.unit})`,
    yTitle: values.unit,
    width: 360,
    groups: [
      { name: 'baseline', color: SIDE_COLORS.baseline, values: values.baseline.values, median: values.baseline.median },
      { name: 'candidate', color: SIDE_COLORS.candidate, values: values.candidate.values, median: values.candidate.median },
    ],
  });
  return `<h3>Windows (dots; bar = median)</h3><div class="charts">${dots}${blockTrail(level)}</div>`;
}

/** Each block's candidate as % of its baseline (geometric, CPU per ok request), block by block. */
function blockTrail(level: CompareLevel): string {
  return lineChart({
    id: `blocks-${levelTag(level)}`,
    title: 'Candidate as % of baseline (CPU per ok request), by block',
    xLabels: level.blocks.map((b) => String(b.block)),
    xTitle: 'block',
    yTitle: '% of baseline',
    series: [{ name: 'candidate / baseline %', color: '#9467bd', values: level.blocks.map((b) => (1 + b.relativeChange) * 100) }],
    formatValue: (v) => `${v.toFixed(1)}`,
  });
}

function windowsTable(compare: PublishedCompare): string {
  if (compare.windows.length === 0) return '';
  const rows = compare.windows.map((w) => {
    const s = w.step;
    return {
      cells: [
        String(w.epoch),
        String(w.block),
        String(w.position + 1),
        escapeHtml(w.side),
        String(loadLevel(s.load)),
        s.status === 'failed' ? '<span class="status-failed">FAILED</span>' : escapeHtml(s.status),
        escapeHtml(fixed(s.rps, 1)),
        escapeHtml(fixed(s.gateway.cpuMsPerOkRequest, 2)),
        escapeHtml(ms(s.latencyMs?.p50)),
        escapeHtml(ms(s.latencyMs?.p99)),
        escapeHtml(fixed(s.gateway.rssMaxMB, 0)),
        escapeHtml(fixed(s.fanout, 2)),
        escapeHtml(failureBreakdown(s.failureCounts)),
      ],
      className: s.status,
      attrs: `data-side="${escapeHtml(w.side)}"`,
    };
  });
  return `<section id="windows"><h2>Windows</h2>${htmlTable(
    ['epoch', 'block', '#', 'side', 'level', 'status', 'rps', 'CPU ms/ok req', 'p50 ms', 'p99 ms', 'RSS MB', 'fan-out', 'failures'].map((header, i) => ({
      header,
      numeric: i !== 3 && i !== 5 && i !== 12,
    })),
    rows,
    'id="windows-table"',
  )}</section>`;
}

function failuresSection(compare: PublishedCompare): string {
  const failed = failedWindows(compare.windows);
  const warnings = upstreamUnseenCompareLines(compare)
    .map((line) => `<p class="note">Warning: ${escapeHtml(line)}</p>`)
    .join('');
  if (failed.length === 0) return `<section id="failures"><h2>Failures</h2><p class="status-ok">No window failed validation.</p>${warnings}</section>`;
  const items = failed.map(
    (w) =>
      `<li><b class="status-failed">${escapeHtml(windowLabel(w))} FAILED</b>: ${escapeHtml(w.step.failures.join('; ') || 'failed')}<ul>${w.step.failureSamples
        .map((s) => `<li class="failure-sample">${escapeHtml(s.kind)} ×${escapeHtml(integer(s.count))}<pre>${escapeHtml(s.message.slice(0, 2000))}</pre></li>`)
        .join('')}</ul></li>`,
  );
  return `<section id="failures"><h2>Failures</h2><ul>${items.join('')}</ul>${warnings}</section>`;
}

/** How the windows were measured and judged, and on which Node; nothing for a comparison of finished runs. */
function designFacts(compare: PublishedCompare): Array<{ label: string; value: string }> {
  const design = designText(compare);
  const nodes = compare.config.nodes;
  return [
    ...(design
      ? [
          { label: 'Measurement', value: design.measurement },
          { label: 'Test', value: design.test },
        ]
      : []),
    ...(nodes ? [{ label: 'Node.js', value: `baseline ${nodes.baseline}, candidate ${nodes.candidate}` }] : []),
  ];
}

function setupSection(compare: PublishedCompare): string {
  const c = compare.config;
  const env = (e: Record<string, string>) =>
    Object.entries(e)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ') || NONE;
  const facts = [
    { label: 'Baseline env', value: env(c.baselineEnv) },
    { label: 'Candidate env', value: env(c.candidateEnv) },
    {
      label: c.load.kind === 'closed' ? 'Concurrency' : 'Rates',
      value:
        c.load.kind === 'closed' ? c.levels.join(', ') : `${c.levels.join(', ')} req/s, ${c.load.arrivals} arrivals, at most ${c.load.maxInFlight} in flight`,
    },
    ...designFacts(compare),
    c.scenarioFile ? { label: 'Scenario file', value: c.scenarioFile } : { label: 'Query', value: c.query ?? NONE },
    { label: 'Goldens', value: goldensText(c) },
    { label: 'Reproduce', value: reproduceCommand(compare) },
  ];
  return `<section id="environment"><h2>Environment</h2>${
    compare.environment ? factsTable(environmentFacts(compare.environment), 'id="environment-table"') : '<p class="meta">Not recorded.</p>'
  }<h3>Setup</h3>${factsTable(facts, 'id="config-table"')}</section>`;
}

/** The report page of a comparison: per level the decision, metrics, what moved, and the windows. */
/** The allocation verdict of a comparison by instructions, and the functions whose allocator calls moved. */
function allocationVerdictHtml(compare: PublishedCompare): string {
  const v = compare.analysis.allocationVerdict;
  if (!v) return '';
  const rows = v.functions.map(
    (f) =>
      `<tr>${allocationCallerCells(f)
        .map((c, i) => `<td${i < 3 ? ' class="num"' : ' class="mono"'}>${escapeHtml(c)}</td>`)
        .join('')}</tr>`,
  );
  const table =
    rows.length > 0
      ? `<table><thead><tr>${ALLOCATION_CALLER_HEADERS.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`
      : '';
  return `<p id="allocation-verdict">${escapeHtml(allocationVerdictLine(v, compare.config.design?.threshold ?? null))}</p>${table}`;
}

export function renderCompareReportHtml(compare: PublishedCompare): string {
  const c = compare.config;
  const header = `<header id="compare-summary">
<h1>gwprof compare <span class="mono">${escapeHtml(compare.runId)}</span></h1>
<p class="meta">baseline <b class="mono">${escapeHtml(c.baseline)}</b> vs candidate <b class="mono">${escapeHtml(c.candidate)}</b> · mode ${escapeHtml(compare.mode)} · state ${escapeHtml(compare.state)} · started ${escapeHtml(compare.startedAt)}</p>
<div id="verdict" class="verdict ${verdictTone(compare)}">${escapeHtml(overallVerdictText(compare))}</div>
${compare.analysis.verdictReasons.length > 0 ? `<ul id="verdict-reasons">${compare.analysis.verdictReasons.map((r) => `<li>${escapeHtml(r)}</li>`).join('')}</ul>` : ''}${(compare.analysis.fixes ?? []).map((fix) => `<p class="fix"><b>To fix:</b> ${escapeHtml(fix)}</p>`).join('')}
${measureLines(compare)
  .map((line) => `<p class="measure">${escapeHtml(line)}</p>`)
  .join('\n')}
${compare.stopReason ? `<p>Stopped: ${escapeHtml(compare.stopReason)}</p>` : ''}
${allocationVerdictHtml(compare)}
</header>`;
  const levels = compare.analysis.levels
    .map(
      (level) => `<section class="compare-level" data-level="${level.level}"><h2>${escapeHtml(level.label)}</h2>
<p class="decision">${escapeHtml(decisionText(level, c.design?.threshold ?? null))}</p>
${metricsTable(level)}
<p class="meta">Change: ratio of the geometric means, candidate over baseline, from paired blocks (${escapeHtml(signedPercent(level.gating.relativeChange))} for ${level.gating.metric === 'instructionsPerOkRequest' ? 'instructions' : 'CPU'}). Table intervals are plain 95% t intervals, not adjusted for the sequential stop: information, not verdicts.</p>
${level.buckets.length > 0 ? `<h3>CPU buckets, ms per successful request</h3>\n${bucketTable(level)}` : ''}
${functionsBlock(level)}
${instructionBlock(level)}
${allocationBlock(level)}
${profileLinks(level)}
${windowCharts(compare, level)}
</section>`,
    )
    .join('\n');
  return htmlPage({
    title: `gwprof compare ${compare.runId}`,
    body: [header, `<div id="levels">${levels}</div>`, failuresSection(compare), windowsTable(compare), setupSection(compare)].join('\n'),
  });
}
