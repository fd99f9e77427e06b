/**
 * A reload soak's part of the report: how many swaps were made and seen, the requests failed and
 * the p99 latency in the window around each seen reload against the windows without one, and the
 * memory after the reloads against the last calm before them.
 */
import type { SoakReloadAnalysis, SoakReloadConfig, SoakResult } from '@gwprof/results';
import { escapeHtml, escapeMarkdown } from '../escape.js';
import { NONE, fixed } from '../format.js';
import { htmlTable } from '../html-page.js';
import { type Column, formatMarkdownTable, formatTextTable } from '../text-table.js';

const MB = 1e6;

const EFFECT_COLUMNS: Column[] = [
  { header: 'reload', align: 'right' },
  { header: 'at s', align: 'right' },
  { header: 'seen after s', align: 'right' },
  { header: 'ok', align: 'right' },
  { header: 'failed', align: 'right' },
  { header: 'p99 ms', align: 'right' },
  { header: 'p99 / without reloads', align: 'right' },
];

function howLine(config: SoakReloadConfig): string {
  const how =
    config.how === 'files'
      ? `its schema file rewritten (${config.detail.join(', ')})`
      : config.how === 'command'
        ? `"${config.detail[0]}" run`
        : `${config.detail[0]} sent to its server process`;
  const seenBy =
    config.seenBy.kind === 'introspection'
      ? `its introspection listing the marker field ${config.seenBy.field} (variant B) or not (A)`
      : `a log line matching /${config.seenBy.pattern}/`;
  return `A swap every ${config.everySec} s after the warm-up: ${how}; a reload counts once seen, by ${seenBy}, within ${config.seenWithinSec} s.`;
}

function countsLine(r: SoakReloadAnalysis): string {
  const speed = r.seenAfterSec ? ` (served after ${fixed(r.seenAfterSec.median, 2)} s median, ${fixed(r.seenAfterSec.max, 2)} s at most)` : '';
  const unseen = r.unseen > 0 ? `; ${r.unseen} not seen in time (not counted as reloads, their windows left out)` : '';
  const failed = r.swapFailed > 0 ? `; ${r.swapFailed} swap(s) failed` : '';
  return `Reloads: ${r.made} swaps made, ${r.seen} seen${speed}${unseen}${failed}.`;
}

function windowsLine(r: SoakReloadAnalysis, config: SoakReloadConfig): string {
  const { aroundReloads: a, withoutReloads: w } = r;
  const length = config.window.beforeSec + config.window.afterSec;
  const ratio = r.p99Ratio === null ? '' : `: ${fixed(r.p99Ratio, 2)}× the p99 without reloads`;
  const late =
    r.seenAfterSec && r.seenAfterSec.max > config.window.afterSec
      ? ` Some reloads were served ${fixed(r.seenAfterSec.max, 2)} s after their swap, past their window's end: give a --reload-window longer than that.`
      : '';
  return (
    `Around the ${a.windows} seen reload(s) (windows of ${length} s, ${config.window.beforeSec} s before each): ${a.failed} failed of ${a.ok + a.failed}, p99 ${fixed(a.medianP99Ms, 1)} ms median, ${fixed(a.maxP99Ms, 1)} ms at most${ratio}. ` +
    `Without reloads (${w.windows} windows as long): ${w.failed} failed of ${w.ok + w.failed}, p99 ${fixed(w.medianP99Ms, 1)} ms median, ${fixed(w.maxP99Ms, 1)} ms at most.${late}`
  );
}

const sizeOf = (bytes: number): string => (Math.abs(bytes) >= MB ? `${fixed(bytes / MB, 2)} MB` : `${fixed(bytes / 1e3, 1)} kB`);

function memoryLine(r: SoakReloadAnalysis): string | null {
  const m = r.memory;
  if (!m) return null;
  const name = m.series === 'heapAfterGc' ? 'heap after GC' : 'RssAnon after the calm';
  if (m.beforeBytes === null) return `Memory (${name}): no calm before the first reload (warm-up 0), so nothing to set the reloads against.`;
  const after = m.afterBytes === null ? NONE : fixed(m.afterBytes / MB, 1);
  const perReload = m.bytesPerReload === null ? '' : `: ${fixed((m.afterBytes! - m.beforeBytes) / MB, 2)} MB, ${sizeOf(m.bytesPerReload)} per reload`;
  return `Memory (${name}): ${fixed(m.beforeBytes / MB, 1)} MB at the last calm before the first reload, ${after} MB at the last calm, after ${m.reloadsBy} seen reload(s)${perReload}. This mixes reloads with the requests served meanwhile: the same soak without --reload-every is the control.`;
}

function effectRow(e: SoakReloadAnalysis['effects'][number]): string[] {
  return [
    String(e.index),
    fixed(e.atSec, 1),
    fixed(e.seenAfterSec, 2),
    String(e.ok),
    String(e.failed),
    fixed(e.p99Ms, 1),
    e.p99Ratio === null ? NONE : `${fixed(e.p99Ratio, 2)}×`,
  ];
}

/** The reload part's sentences, or null for a soak without reloads. */
export function reloadLines(soak: SoakResult): string[] | null {
  const config = soak.config.reload;
  const r = soak.analysis?.reloads;
  if (!config || !r) return null;
  return [howLine(config), countsLine(r), windowsLine(r, config), ...[memoryLine(r)].filter((l): l is string => l !== null)];
}

/** The seen reloads with the largest p99 ratio or any failure first, at most `max`. */
function worstEffects(r: SoakReloadAnalysis, max: number): SoakReloadAnalysis['effects'] {
  return [...r.effects].sort((a, b) => b.failed - a.failed || (b.p99Ratio ?? 0) - (a.p99Ratio ?? 0)).slice(0, max);
}

export function reloadTerminal(soak: SoakResult): string | null {
  const lines = reloadLines(soak);
  if (!lines) return null;
  const effects = worstEffects(soak.analysis!.reloads!, 10);
  return [...lines, effects.length > 0 ? `The worst windows:\n${formatTextTable(EFFECT_COLUMNS, effects.map(effectRow))}` : ''].filter(Boolean).join('\n');
}

export function reloadMarkdown(soak: SoakResult): string[] {
  const lines = reloadLines(soak);
  if (!lines) return [];
  const effects = soak.analysis!.reloads!.effects;
  const table = effects.length > 0 ? [formatMarkdownTable(EFFECT_COLUMNS, effects.slice(0, 200).map(effectRow)), ''] : [];
  return ['## Reloads under load', '', escapeMarkdown(lines.join(' ')), '', ...table];
}

export function reloadHtml(soak: SoakResult): string {
  const lines = reloadLines(soak);
  if (!lines) return '';
  const effects = soak.analysis!.reloads!.effects.slice(0, 400);
  const table = htmlTable(
    EFFECT_COLUMNS.map((c) => ({ header: c.header, numeric: true })),
    effects.map((e) => ({ cells: effectRow(e).map(escapeHtml) })),
  );
  return `<section id="reloads"><h2>Reloads under load</h2>${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}${effects.length > 0 ? table : ''}</section>`;
}
