/**
 * A soak rendered from its results.json: the verdict with its evidence (each memory series' trend
 * and interval, the classes that grew in every snapshot diff, a crash), the intervals as a table,
 * and in the HTML report memory, throughput, latency and the process's resources over time.
 */
import { calmReading, rssNetOfHeap, rssNetOfHeapUnderLoad, soakMemoryMeasure } from '@gwprof/analysis';
import type { SoakInterval, SoakMemoryMeasure, SoakResult, SoakSnapshot, SoakTrend } from '@gwprof/results';
import { escapeHtml, escapeMarkdown, markdownCode } from '../escape.js';
import { NONE, fixed } from '../format.js';
import { htmlPage, htmlTable } from '../html-page.js';
import { lineChart, type LineSeries } from '../svg-chart.js';
import { type Column, formatMarkdownTable, formatTextTable } from '../text-table.js';
import { reloadHtml, reloadMarkdown, reloadTerminal } from './reload-report.js';
import { allocationSitesHtml, allocationSitesMarkdown, allocationSitesText } from './allocation-sites.js';

const MB = 1e6;
const mb = (bytes: number | null | undefined): string => fixed(bytes == null ? null : bytes / MB, 1);
const mbOrNull = (bytes: number | null): number | null => (bytes === null ? null : bytes / MB);

/** "1h05m", "12m30s": when an interval ended, from the soak's start. */
export function soakClock(sec: number): string {
  const h = Math.floor(sec / 3600);
  const m = Math.floor((sec % 3600) / 60);
  const s = Math.floor(sec % 60);
  if (h >= 24) return `${Math.floor(h / 24)}d${String(h % 24).padStart(2, '0')}h`;
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : `${m}m${String(s).padStart(2, '0')}s`;
}

const SERIES_NAMES: Record<SoakTrend['series'], string> = {
  heapAfterGc: 'heap after GC',
  external: 'external memory',
  rssNetOfHeap: 'RSS net of heap, under load',
  rssAnonAfterCalm: 'RssAnon after the calm',
  allocatedAfterCalm: "allocator's live bytes after the calm",
};

const rightAligned = (headers: string[]): Column[] => headers.map((header) => ({ header, align: 'right' }));

/** What every soak's interval table shows first (the load) and last (the gateway's CPU, the harness). */
const LOAD_COLUMNS = rightAligned(['at', 'ok req/s', 'failed', 'p50 ms', 'p99 ms']);
const TAIL_COLUMNS = rightAligned(['CPU %', 'harness RSS MB', 'harness heap after GC MB']);

const INTERVAL_COLUMNS: Column[] = [
  ...LOAD_COLUMNS,
  ...rightAligned(['heap after GC MB', 'external MB', 'RSS MB', 'RSS net of heap MB', 'fds', 'resources', 'loop delay p99 ms', 'GC %']),
  ...TAIL_COLUMNS,
];

/** A native gateway's intervals: no heap, no preload's samples, its memory from /proc after each calm. */
const NATIVE_INTERVAL_COLUMNS: Column[] = [...LOAD_COLUMNS, ...rightAligned(['RSS after calm MB', 'RssAnon after calm MB']), ...TAIL_COLUMNS];

/** The same with the allocator's own statistics after each calm, where the soak read them. */
const ALLOCATOR_INTERVAL_COLUMNS: Column[] = [
  ...LOAD_COLUMNS,
  ...rightAligned(['RSS after calm MB', 'RssAnon after calm MB', 'allocated MB', 'allocator resident MB', 'allocator retained MB']),
  ...TAIL_COLUMNS,
];

const loadCells = (interval: SoakInterval): string[] => [
  soakClock(interval.endSec),
  fixed(interval.okRps, 1),
  String(interval.requests.failed + interval.requests.dropped),
  fixed(interval.latencyMs?.p50, 1),
  fixed(interval.latencyMs?.p99, 1),
];

const tailCells = (interval: SoakInterval): string[] => [
  fixed(interval.gatewayCpuPercent, 0),
  mb(interval.harnessRssBytes),
  mb(interval.harnessHeapAfterGcBytes),
];

function nativeIntervalRow(interval: SoakInterval): string[] {
  return [...loadCells(interval), mb(interval.nativeCalm?.rssBytes), mb(interval.nativeCalm?.rssAnonBytes), ...tailCells(interval)];
}

function allocatorIntervalRow(interval: SoakInterval): string[] {
  const { nativeCalm } = interval;
  const allocator = nativeCalm?.allocator;
  return [
    ...loadCells(interval),
    mb(nativeCalm?.rssBytes),
    mb(nativeCalm?.rssAnonBytes),
    mb(allocator?.allocatedBytes),
    mb(allocator?.residentBytes),
    mb(allocator?.retainedBytes),
    ...tailCells(interval),
  ];
}

const measureOf = (soak: SoakResult): SoakMemoryMeasure => soak.analysis?.memoryMeasure ?? soakMemoryMeasure(soak.intervals);
const isNative = (soak: SoakResult): boolean => measureOf(soak) !== 'node-heap';

/** The interval table's columns and rows for this soak's kind of gateway. */
function intervalTable(soak: SoakResult): { columns: Column[]; row: (interval: SoakInterval) => string[] } {
  if (!isNative(soak)) return { columns: INTERVAL_COLUMNS, row: intervalRow };
  return soak.config.allocator
    ? { columns: ALLOCATOR_INTERVAL_COLUMNS, row: allocatorIntervalRow }
    : { columns: NATIVE_INTERVAL_COLUMNS, row: nativeIntervalRow };
}

/**
 * What a native soak's verdict stands on, and what that cannot see: RSS holds what the allocator
 * keeps as well as what is live, so a leak is seen only once it outgrows what the allocator already
 * holds, and no smaller than the soak's own resolution (the upper end of the slope's interval).
 */
export function nativeMeasureNote(soak: SoakResult): string | null {
  const measure = measureOf(soak);
  if (measure === 'node-heap') return null;
  const sites = soak.allocationSites
    ? "the allocation sites below are valgrind's DHAT's, counted after the soak"
    : "allocation sites are counted (valgrind's DHAT) after a leak verdict, or with --sites always";
  return measure === 'native-allocator' ? allocatorNote(soak, sites) : rssAnonNote(soak, sites);
}

/** What the upper end of the judged series' interval says: the smallest steady leak this soak could tell from none. */
function resolutionOf(soak: SoakResult, series: SoakTrend['series'], shownPast: string): string {
  const trend = soak.analysis?.trends.find((t) => t.series === series);
  const high = trend?.bytesPerRequest?.high;
  if (high == null || trend?.verdict === 'leak') return '';
  return high > 0
    ? ` This soak's slope reaches at most ${fixed(high, 1)} bytes per request (the upper end of its 90% interval): a larger steady leak would have shown${shownPast}.`
    : ` ${SERIES_NAMES[series]} did not grow after the warm-up (the upper end of the slope's 90% interval: ${fixed(high, 1)} bytes per request).`;
}

function rssAnonNote(soak: SoakResult, sites: string): string {
  const source = soak.config.allocator;
  const firstError = soak.intervals.map((i) => i.nativeCalm?.allocator?.error).find((e) => e != null);
  const statistics = source
    ? `Its allocator's statistics (${source.description}) were asked for at each calm and none was read${firstError ? ` (${firstError})` : ''}`
    : 'It reads no allocator statistics';
  return (
    `The verdict stands on RssAnon (the anonymous part of the gateway's RSS, from /proc) read after each ${soak.config.calmSec} s calm: a native process has no forced GC, so it is memory as the process and its allocator hold it. ` +
    "It counts freed memory the allocator keeps (its caches, arenas and fragmentation) as used, and leaked blocks that land in memory the allocator already holds raise it only once that is used up: a leak whose total stays below the allocator's retention is invisible, and a slow one shows late. " +
    `${statistics}; ${sites}.${resolutionOf(soak, 'rssAnonAfterCalm', " once past the allocator's retention")}`
  );
}

function allocatorNote(soak: SoakResult, sites: string): string {
  const source = soak.config.allocator;
  return (
    `The verdict stands on the allocator's live bytes (${source ? source.description : 'its Prometheus endpoint'}) read after each ${soak.config.calmSec} s calm: bytes the program holds in allocations, without the freed pages the allocator keeps, so the calm's length does not move them (what the program itself keeps after a burst, in its pools or caches, does). ` +
    "They cannot see memory allocated outside that allocator (mapped by hand with mmap, another allocator linked in, thread stacks, the kernel's buffers); RssAnon from /proc, shown beside and not judged, holds those and the pages the allocator keeps. " +
    `${sites[0]!.toUpperCase()}${sites.slice(1)}.${resolutionOf(soak, 'allocatedAfterCalm', '')}`
  );
}

function intervalRow(interval: SoakInterval): string[] {
  const { gateway, calm } = interval;
  return [
    ...loadCells(interval),
    mb(calm?.heapUsedBytes),
    mb(calm?.externalBytes),
    mb(gateway?.mean.rssBytes),
    mb(rssNetOfHeapUnderLoad(interval)),
    gateway?.max.openFds == null ? NONE : String(gateway.max.openFds),
    gateway ? String(gateway.max.activeResources) : NONE,
    fixed(gateway?.max.eventLoopDelayP99Ms, 1),
    fixed(interval.gcShare == null ? null : interval.gcShare * 100, 1),
    ...tailCells(interval),
  ];
}

/** At most `max` intervals, evenly spread, always the first and the last: a week of them stays readable. */
export function thinIntervals(intervals: readonly SoakInterval[], max: number): SoakInterval[] {
  if (intervals.length <= max) return [...intervals];
  const step = (intervals.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => intervals[Math.round(i * step)]!);
}

/** The judged series' trends, then those read beside the verdict (named so). */
function trendRows(soak: SoakResult): string[][] {
  const analysis = soak.analysis;
  if (!analysis) return [];
  return [...analysis.trends.map((t) => trendRow(t)), ...(analysis.besideTrends ?? []).map((t) => trendRow(t, ' (beside, not judged)'))];
}

function trendRow(trend: SoakTrend, note = ''): string[] {
  const { mbPerHour: h, bytesPerRequest: b } = trend;
  const range = (low: number | null, high: number | null, digits: number) =>
    low === null || high === null ? NONE : `[${low.toFixed(digits)}, ${high.toFixed(digits)}]`;
  return [
    `${SERIES_NAMES[trend.series]}${note}`,
    trend.judgedUntilSec ? `${trend.points} (to ${soakClock(trend.judgedUntilSec)}: the first snapshot)` : String(trend.points),
    `${fixed(h.slope, 2)} ${range(h.low, h.high, 2)}`,
    b ? `${fixed(b.slope, 1)} ${range(b.low, b.high, 1)}` : NONE,
    trend.pUp < 0.001 ? '<0.001' : trend.pUp.toFixed(3),
    trend.verdict,
  ];
}

const TREND_COLUMNS: Column[] = [
  { header: 'series', align: 'left' },
  { header: 'intervals', align: 'right' },
  { header: 'MB/hour [90% interval]', align: 'left' },
  { header: 'bytes/request [90% interval]', align: 'left' },
  { header: 'p (rising)', align: 'right' },
  { header: 'says', align: 'left' },
];

/** The verdict and its one-line reason. */
export function soakVerdictLine(soak: SoakResult): string {
  const analysis = soak.analysis;
  if (!analysis) return 'Verdict: none (the soak has not been analysed)';
  return `Verdict: ${analysis.verdict.toUpperCase()} — ${analysis.reason}`;
}

/** The terminal's account: intervals (thinned), the trends, the growing classes, the crash. */
export function renderSoakTerminal(soak: SoakResult): string {
  const table = intervalTable(soak);
  const parts = [formatTextTable(table.columns, thinIntervals(soak.intervals, 24).map(table.row))];
  if (soak.analysis) {
    parts.push(
      `Memory after the ${soak.config.warmupSec} s warm-up (Theil–Sen slope, Sen's 90% interval, Mann–Kendall):\n${formatTextTable(TREND_COLUMNS, trendRows(soak))}`,
    );
    const note = nativeMeasureNote(soak);
    if (note) parts.push(note);
    for (const c of soak.analysis.growingClasses)
      parts.push(`grew in every snapshot: ${c.name} +${mb(c.growthBytes)} MB retained${c.retainerPath ? `; held by ${c.retainerPath.join(' → ')}` : ''}`);
    const harness = harnessLine(soak);
    if (harness) parts.push(harness);
  }
  const reloads = reloadTerminal(soak);
  if (reloads) parts.push(reloads);
  if (soak.crash) parts.push(crashText(soak));
  const sites = allocationSitesText(soak);
  if (sites) parts.push(sites);
  parts.push(soakVerdictLine(soak));
  return parts.join('\n\n');
}

function crashText(soak: SoakResult): string {
  const crash = soak.crash!;
  const how = crash.signal ? `signal ${crash.signal}` : `exit code ${crash.exitCode}`;
  return `The gateway died at ${soakClock(crash.atSec)} (${how}). Last log lines:\n${crash.logTail.map((l) => `  ${l}`).join('\n')}`;
}

/** The harness's own memory slopes after the warm-up, the evidence that it stays bounded; null before two intervals. */
function harnessLine(soak: SoakResult): string | null {
  const analysis = soak.analysis;
  if (!analysis || analysis.harnessRssMbPerHour === null) return null;
  const heap = analysis.harnessHeapMbPerHour == null ? '' : `, heap after its own GC ${fixed(analysis.harnessHeapMbPerHour, 2)} MB/hour`;
  return `Harness after the warm-up: RSS ${fixed(analysis.harnessRssMbPerHour, 2)} MB/hour${heap}`;
}

export function renderSoakMarkdown(soak: SoakResult): string {
  const { config } = soak;
  const load = config.load.kind === 'open' ? `${config.load.rate} req/s (${config.load.arrivals})` : `${config.load.concurrency} connections`;
  const lines = [
    `# gwprof soak ${escapeMarkdown(soak.runId)}`,
    '',
    `**${escapeMarkdown(soakVerdictLine(soak))}**`,
    '',
    `${markdownCode(config.gateway)} at ${load}${config.rateFrom ? `, ${config.rateFrom.fraction * 100}% of a probed closed-loop peak of ${config.rateFrom.probedPeakRps.toFixed(0)} req/s` : ''}, for ${soakClock(config.durationSec)} in intervals of ${config.intervalSec} s, each ending in a ${config.calmSec} s calm ${isNative(soak) ? `after which its memory is read from /proc${config.allocator ? ` and its allocator's statistics from ${config.allocator.description}` : ''} (a native gateway: no forced GC exists for it)` : 'with a forced full GC'}. State: ${soak.state}.`,
    '',
  ];
  if (soak.analysis) {
    lines.push('## Memory trend after the warm-up', '', formatMarkdownTable(TREND_COLUMNS, trendRows(soak)), '');
    const readings = isNative(soak)
      ? nativeMeasureNote(soak)
      : "Heap and external memory are read after the forced GC at each calm; RSS net of heap is the mean of RSS minus heap total over each interval's load.";
    lines.push(
      `A series is a leak when its 90% interval lies above ${config.leakThresholdBytesPerRequest} bytes per successful request and it rises (Mann–Kendall p < 0.01), and no leak when the interval lies below. ${readings}`,
      '',
    );
    if (!isNative(soak)) lines.push(...growingClassesMarkdown(soak));
    const harness = harnessLine(soak);
    if (harness) lines.push(`${harness}.`, '');
  }
  lines.push(...reloadMarkdown(soak));
  if (soak.crash) lines.push('## Crash', '', fencedCrash(soak), '');
  lines.push(...allocationSitesMarkdown(soak));
  const shown = thinIntervals(soak.intervals, 200);
  const table = intervalTable(soak);
  lines.push(
    '## Intervals',
    '',
    shown.length < soak.intervals.length ? `${shown.length} of ${soak.intervals.length} intervals, evenly spread.\n` : '',
    formatMarkdownTable(table.columns, shown.map(table.row)),
    '',
  );
  lines.push(...snapshotsMarkdown(soak));
  return lines.join('\n');
}

function fencedCrash(soak: SoakResult): string {
  return ['```text', crashText(soak).replace(/```/g, "'''"), '```'].join('\n');
}

function growingClassesMarkdown(soak: SoakResult): string[] {
  const classes = soak.analysis?.growingClasses ?? [];
  if (soak.snapshots.length < 3) return ['Classes: fewer than 3 heap snapshots, so no class trend.', ''];
  if (classes.length === 0) return ['No class grew in every snapshot diff.', ''];
  const columns: Column[] = [
    { header: 'class', align: 'left' },
    { header: 'count, first → last', align: 'right' },
    { header: 'retained MB, first → last', align: 'right' },
    { header: 'retainer path', align: 'left' },
  ];
  const edge = <T>(values: Array<T | null>) => [values.find((v) => v !== null) ?? null, [...values].reverse().find((v) => v !== null) ?? null] as const;
  const rows = classes.map((c) => {
    const [c0, c1] = edge(c.counts);
    const [r0, r1] = edge(c.retainedSizes);
    return [
      markdownCode(c.name, true),
      `${c0 ?? NONE} → ${c1 ?? NONE}`,
      `${mb(r0)} → ${mb(r1)}`,
      c.retainerPath ? markdownCode(c.retainerPath.join(' → '), true) : NONE,
    ];
  });
  return ['## Classes that grew in every snapshot diff', '', formatMarkdownTable(columns, rows), ''];
}

/** What writing the snapshot did to the gateway's RSS net of heap: why RSS is read only up to the first one. */
function rssAcross(snapshot: SoakSnapshot): string {
  const around = snapshot.memoryAround;
  if (!around) return '';
  const step = rssNetOfHeap(around.after) - rssNetOfHeap(around.before);
  return `; RSS net of heap ${step >= 0 ? '+' : '−'}${mb(Math.abs(step))} MB across it`;
}

function snapshotsMarkdown(soak: SoakResult): string[] {
  if (soak.snapshots.length === 0) return [];
  const items = soak.snapshots.map(
    (s) =>
      `- ${soakClock(s.atSec)}: ${s.file ? `[${s.file}](${s.file}) (${mb(s.bytes)} MB)` : `removed to bound the disk (summary kept)`}${rssAcross(s)}${s.error ? ` — summary failed: ${escapeMarkdown(s.error)}` : ''}`,
  );
  return ['## Heap snapshots (open in Chrome DevTools, Memory panel)', '', ...items, ''];
}

/** Memory, throughput, latency and resources over time, and the same tables as the markdown. */
export function renderSoakHtml(soak: SoakResult): string {
  const shown = thinIntervals(soak.intervals, 400);
  const xLabels = shown.map((i) => soakClock(i.endSec));
  const chart = (id: string, title: string, yTitle: string, series: LineSeries[]) =>
    lineChart({ id, title, xLabels, xTitle: 'time since start', yTitle, series, width: 900 });
  const judgedSeries: Record<SoakMemoryMeasure, SoakTrend['series']> = {
    'node-heap': 'heapAfterGc',
    'native-rss': 'rssAnonAfterCalm',
    'native-allocator': 'allocatedAfterCalm',
  };
  const judgedTrend = soak.analysis?.trends.find((t) => t.series === judgedSeries[measureOf(soak)]);
  const trendValues = shown.map((i) => {
    const at = calmReading(i)?.atSec;
    return judgedTrend && at !== undefined && at >= soak.config.warmupSec ? judgedTrend.line.interceptMb + judgedTrend.line.slopeMbPerHour * (at / 3600) : null;
  });
  const memory = isNative(soak)
    ? nativeMemoryChart(chart, shown, trendValues, measureOf(soak))
    : chart('memory', 'Memory (MB)', 'MB', [
        { name: 'heap after forced GC', color: '#1f77b4', values: shown.map((i) => (i.calm ? i.calm.heapUsedBytes / MB : null)) },
        { name: 'trend of heap after GC', color: '#1f77b4', dashed: true, values: trendValues },
        { name: 'RSS (mean)', color: '#d62728', values: shown.map((i) => (i.gateway ? i.gateway.mean.rssBytes / MB : null)) },
        { name: 'RSS net of heap (mean under load)', color: '#d62728', dashed: true, values: shown.map((i) => mbOrNull(rssNetOfHeapUnderLoad(i))) },
        { name: 'heap used (mean)', color: '#9467bd', values: shown.map((i) => (i.gateway ? i.gateway.mean.heapUsedBytes / MB : null)) },
        { name: 'external after GC', color: '#2ca02c', values: shown.map((i) => (i.calm ? i.calm.externalBytes / MB : null)) },
        { name: 'harness RSS', color: '#7f7f7f', dashed: true, values: shown.map((i) => i.harnessRssBytes / MB) },
        { name: 'harness heap after its GC', color: '#bcbd22', dashed: true, values: shown.map((i) => mbOrNull(i.harnessHeapAfterGcBytes ?? null)) },
      ]);
  const throughput = chart('throughput', 'Successful and failed requests per second', 'req/s', [
    { name: 'ok req/s', color: '#2ca02c', values: shown.map((i) => i.okRps) },
    { name: 'failed + dropped /s', color: '#d62728', values: shown.map((i) => (i.loadSec > 0 ? (i.requests.failed + i.requests.dropped) / i.loadSec : null)) },
  ]);
  const latency = chart('latency', 'Latency of successful responses (ms)', 'ms', [
    { name: 'p50', color: '#1f77b4', values: shown.map((i) => i.latencyMs?.p50 ?? null) },
    { name: 'p99', color: '#ff7f0e', values: shown.map((i) => i.latencyMs?.p99 ?? null) },
  ]);
  const resources = chart('resources', 'Open file descriptors and pending resources (max per interval)', 'count', [
    { name: 'open fds', color: '#8c564b', values: shown.map((i) => i.gateway?.max.openFds ?? null) },
    { name: 'active resources', color: '#e377c2', values: shown.map((i) => i.gateway?.max.activeResources ?? null) },
  ]);
  const loop = chart('loop', 'Event-loop delay p99 (ms), GC and CPU (%)', 'ms or %', [
    { name: 'loop delay p99 ms', color: '#17becf', values: shown.map((i) => i.gateway?.max.eventLoopDelayP99Ms ?? null) },
    { name: 'GC %', color: '#bcbd22', values: shown.map((i) => (i.gcShare == null ? null : i.gcShare * 100)) },
    { name: 'CPU %', color: '#7f7f7f', values: shown.map((i) => i.gatewayCpuPercent) },
  ]);
  const note = nativeMeasureNote(soak);
  const trends = soak.analysis
    ? htmlTable(
        TREND_COLUMNS.map((c) => ({ header: c.header })),
        trendRows(soak).map((row) => ({ cells: row.map(escapeHtml) })),
      )
    : '';
  const classes = (soak.analysis?.growingClasses ?? [])
    .map(
      (c) =>
        `<li><code>${escapeHtml(c.name)}</code>: +${escapeHtml(mb(c.growthBytes))} MB retained${c.retainerPath ? `, held by <code>${escapeHtml(c.retainerPath.join(' → '))}</code>` : ''}</li>`,
    )
    .join('');
  const snapshots = soak.snapshots
    .map(
      (s) =>
        `<li>${escapeHtml(soakClock(s.atSec))}: ${s.file ? `<a href="${escapeHtml(s.file)}">${escapeHtml(s.file)}</a> (${escapeHtml(mb(s.bytes))} MB)` : 'removed to bound the disk (summary kept)'}${escapeHtml(rssAcross(s))}</li>`,
    )
    .join('');
  const body = [
    `<h1>gwprof soak ${escapeHtml(soak.runId)}</h1>`,
    `<p class="verdict-${escapeHtml(soak.analysis?.verdict.replace(' ', '-') ?? 'none')}"><strong>${escapeHtml(soakVerdictLine(soak))}</strong></p>`,
    `<section id="memory">${memory}</section>`,
    trends ? `<h2>Memory trend after the warm-up</h2>${trends}${note ? `<p>${escapeHtml(note)}</p>` : ''}` : '',
    reloadHtml(soak),
    classes ? `<h2>Classes that grew in every snapshot diff</h2><ul>${classes}</ul>` : '',
    soak.crash ? `<h2>Crash</h2><pre>${escapeHtml(crashText(soak))}</pre>` : '',
    allocationSitesHtml(soak),
    `<section id="throughput">${throughput}</section>`,
    `<section id="latency">${latency}</section>`,
    `<section id="resources">${resources}${loop}</section>`,
    snapshots ? `<h2>Heap snapshots</h2><p>They open in Chrome DevTools (Memory panel, Load).</p><ul>${snapshots}</ul>` : '',
    `<h2>Intervals</h2>${htmlTable(
      intervalTable(soak).columns.map((c) => ({ header: c.header, numeric: c.align === 'right' })),
      thinIntervals(soak.intervals, 200).map((i) => ({ cells: intervalTable(soak).row(i).map(escapeHtml) })),
    )}`,
  ].join('\n');
  return htmlPage({ title: `gwprof soak ${soak.runId}`, body });
}

/**
 * A native gateway's memory over time: RSS and RssAnon after each calm, the allocator's live and
 * resident bytes where they were read, the trend the verdict reads, the harness's own.
 */
function nativeMemoryChart(
  chart: (id: string, title: string, yTitle: string, series: LineSeries[]) => string,
  shown: readonly SoakInterval[],
  trendValues: Array<number | null>,
  measure: SoakMemoryMeasure,
): string {
  const onAllocator = measure === 'native-allocator';
  const allocator: LineSeries[] = onAllocator
    ? [
        {
          name: "allocator's live bytes after the calm",
          color: '#2ca02c',
          values: shown.map((i) => mbOrNull(i.nativeCalm?.allocator?.allocatedBytes ?? null)),
        },
        { name: 'trend of the live bytes', color: '#2ca02c', dashed: true, values: trendValues },
        { name: 'allocator resident', color: '#9467bd', values: shown.map((i) => mbOrNull(i.nativeCalm?.allocator?.residentBytes ?? null)) },
      ]
    : [];
  return chart(
    'memory',
    onAllocator ? "Memory after each calm, from /proc and the allocator's statistics (MB)" : 'Memory after each calm, from /proc (MB)',
    'MB',
    [
      ...allocator,
      { name: 'RssAnon after the calm', color: '#1f77b4', values: shown.map((i) => mbOrNull(i.nativeCalm?.rssAnonBytes ?? null)) },
      ...(onAllocator ? [] : [{ name: 'trend of RssAnon', color: '#1f77b4', dashed: true, values: trendValues }]),
      { name: 'RSS after the calm', color: '#d62728', values: shown.map((i) => mbOrNull(i.nativeCalm?.rssBytes ?? null)) },
      { name: 'harness RSS', color: '#7f7f7f', dashed: true, values: shown.map((i) => i.harnessRssBytes / MB) },
      { name: 'harness heap after its GC', color: '#bcbd22', dashed: true, values: shown.map((i) => mbOrNull(i.harnessHeapAfterGcBytes ?? null)) },
    ],
  );
}
