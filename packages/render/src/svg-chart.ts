/**
 * A small inline-SVG chart kit (line charts, stacked bars, dot plots) so the report needs no chart
 * library and no script. Every label is escaped; numbers are formatted before they get here.
 */
import { escapeHtml } from './escape.js';

export interface LineSeries {
  name: string;
  color: string;
  /** One value per x category; null leaves a gap (no data at that level). */
  values: Array<number | null>;
  dashed?: boolean;
}

export interface XMarker {
  /** Index into the x categories. */
  index: number;
  label: string;
}

export interface LineChartSpec {
  id: string;
  title: string;
  /** Categorical x axis: concurrency levels, equally spaced whatever their values. */
  xLabels: string[];
  xTitle: string;
  yTitle: string;
  series: LineSeries[];
  /** x categories to flag (failed steps): their tick label is red and marked. */
  flaggedX?: boolean[];
  markers?: XMarker[];
  formatValue?: (v: number) => string;
  width?: number;
  height?: number;
}

const MARGIN = { top: 34, right: 16, bottom: 46, left: 64 };

/** "Nice" tick step (1, 2, 2.5, 5 × 10^k) covering [0, max] with about `count` ticks. */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1];
  const raw = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw) as number;
  const ticks: number[] = [];
  for (let v = 0; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  if ((ticks[ticks.length - 1] ?? 0) < max) ticks.push(Number((ticks.length * step).toPrecision(12)));
  return ticks;
}

function defaultFormat(v: number): string {
  if (Math.abs(v) >= 1000) return `${Number((v / 1000).toPrecision(3))}k`;
  return Number(v.toPrecision(3)).toString();
}

function f(n: number): string {
  return Number(n.toFixed(1)).toString();
}

interface Frame {
  width: number;
  height: number;
  plotW: number;
  plotH: number;
  xAt: (i: number) => number;
  yAt: (v: number) => number;
  ticks: number[];
}

function frame(categories: number, maxValue: number, width: number, height: number): Frame {
  const plotW = width - MARGIN.left - MARGIN.right;
  const plotH = height - MARGIN.top - MARGIN.bottom;
  const ticks = niceTicks(maxValue);
  const top = ticks[ticks.length - 1] ?? 1;
  const band = plotW / Math.max(1, categories);
  return {
    width,
    height,
    plotW,
    plotH,
    ticks,
    xAt: (i) => MARGIN.left + band * (i + 0.5),
    yAt: (v) => MARGIN.top + plotH - (v / top) * plotH,
  };
}

function axes(fr: Frame, xLabels: string[], xTitle: string, yTitle: string, fmt: (v: number) => string, flagged?: boolean[]): string {
  const parts: string[] = [];
  const x0 = MARGIN.left;
  const y0 = MARGIN.top + fr.plotH;
  for (const t of fr.ticks) {
    const y = fr.yAt(t);
    parts.push(`<line class="grid" x1="${x0}" x2="${f(x0 + fr.plotW)}" y1="${f(y)}" y2="${f(y)}"/>`);
    parts.push(`<text class="tick y" x="${x0 - 6}" y="${f(y + 4)}" text-anchor="end">${escapeHtml(fmt(t))}</text>`);
  }
  parts.push(`<line class="axis" x1="${x0}" x2="${x0}" y1="${MARGIN.top}" y2="${f(y0)}"/>`);
  parts.push(`<line class="axis" x1="${x0}" x2="${f(x0 + fr.plotW)}" y1="${f(y0)}" y2="${f(y0)}"/>`);
  xLabels.forEach((label, i) => {
    const x = fr.xAt(i);
    const bad = flagged?.[i] === true;
    parts.push(`<line class="axis" x1="${f(x)}" x2="${f(x)}" y1="${f(y0)}" y2="${f(y0 + 4)}"/>`);
    parts.push(`<text class="tick x${bad ? ' failed' : ''}" x="${f(x)}" y="${f(y0 + 17)}" text-anchor="middle">${escapeHtml(label)}${bad ? ' ✗' : ''}</text>`);
  });
  parts.push(`<text class="axis-title" x="${f(x0 + fr.plotW / 2)}" y="${fr.height - 6}" text-anchor="middle">${escapeHtml(xTitle)}</text>`);
  parts.push(
    `<text class="axis-title" transform="translate(14 ${f(MARGIN.top + fr.plotH / 2)}) rotate(-90)" text-anchor="middle">${escapeHtml(yTitle)}</text>`,
  );
  return parts.join('');
}

/** Legend entries laid out left to right under the title. */
function legend(entries: Array<{ name: string; color: string; dashed?: boolean; swatch: 'line' | 'box' }>, x: number, y: number): string {
  let cursor = x;
  const parts: string[] = [];
  for (const e of entries) {
    if (e.swatch === 'line') {
      parts.push(
        `<line x1="${cursor}" x2="${cursor + 16}" y1="${y - 4}" y2="${y - 4}" stroke="${escapeHtml(e.color)}" stroke-width="2.5"${e.dashed ? ' stroke-dasharray="4 3"' : ''}/>`,
      );
    } else {
      parts.push(`<rect x="${cursor}" y="${y - 10}" width="12" height="12" fill="${escapeHtml(e.color)}"/>`);
    }
    parts.push(`<text class="legend" x="${cursor + 20}" y="${y}">${escapeHtml(e.name)}</text>`);
    cursor += 28 + e.name.length * 7;
  }
  return `<g class="legend">${parts.join('')}</g>`;
}

function svgOpen(id: string, title: string, width: number, height: number): string {
  return `<svg id="${escapeHtml(id)}" class="chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(title)}"><title>${escapeHtml(title)}</title>`;
}

/** A line chart over categorical x (concurrency levels). */
export function lineChart(spec: LineChartSpec): string {
  const width = spec.width ?? 640;
  const height = spec.height ?? 300;
  const fmt = spec.formatValue ?? defaultFormat;
  const all = spec.series.flatMap((s) => s.values.filter((v): v is number => v !== null && Number.isFinite(v)));
  const fr = frame(spec.xLabels.length, Math.max(0, ...all), width, height);
  const parts = [svgOpen(spec.id, spec.title, width, height)];
  parts.push(`<text class="chart-title" x="${MARGIN.left}" y="14">${escapeHtml(spec.title)}</text>`);
  parts.push(axes(fr, spec.xLabels, spec.xTitle, spec.yTitle, fmt, spec.flaggedX));

  for (const marker of spec.markers ?? []) {
    if (marker.index < 0 || marker.index >= spec.xLabels.length) continue;
    const x = fr.xAt(marker.index);
    parts.push(
      `<g class="marker"><line x1="${f(x)}" x2="${f(x)}" y1="${MARGIN.top}" y2="${f(MARGIN.top + fr.plotH)}" stroke="#b00" stroke-dasharray="5 4"/><text x="${f(x + 4)}" y="${MARGIN.top + 12}" fill="#b00">${escapeHtml(marker.label)}</text></g>`,
    );
  }

  for (const s of spec.series) {
    // Break the line where a value is missing rather than drawing through it.
    const segments: string[][] = [[]];
    s.values.forEach((v, i) => {
      if (v === null || !Number.isFinite(v)) segments.push([]);
      else segments[segments.length - 1]?.push(`${f(fr.xAt(i))},${f(fr.yAt(v))}`);
    });
    const stroke = escapeHtml(s.color);
    const group = [`<g class="series" data-series="${escapeHtml(s.name)}">`];
    for (const seg of segments) {
      if (seg.length > 1) {
        group.push(`<polyline fill="none" stroke="${stroke}" stroke-width="2"${s.dashed ? ' stroke-dasharray="5 4"' : ''} points="${seg.join(' ')}"/>`);
      }
    }
    s.values.forEach((v, i) => {
      if (v === null || !Number.isFinite(v)) return;
      group.push(
        `<circle cx="${f(fr.xAt(i))}" cy="${f(fr.yAt(v))}" r="3.5" fill="${stroke}"><title>${escapeHtml(`${s.name} @ ${spec.xLabels[i] ?? ''}: ${fmt(v)}`)}</title></circle>`,
      );
    });
    group.push('</g>');
    parts.push(group.join(''));
  }
  parts.push(
    legend(
      spec.series.map((s) => ({ ...s, swatch: 'line' as const })),
      MARGIN.left,
      28,
    ),
  );
  parts.push('</svg>');
  return parts.join('');
}

export interface StackedBarSpec {
  id: string;
  title: string;
  xLabels: string[];
  xTitle: string;
  stacks: Array<{ name: string; color: string }>;
  /** Per x category, per stack, a share in [0, 1]; null when the category has no data. */
  shares: Array<number[] | null>;
  /** Text shown on a category without data ("no samples"). */
  emptyLabels?: string[];
  width?: number;
  height?: number;
}

/** 100% stacked bars, one per x category. */
export function stackedBarChart(spec: StackedBarSpec): string {
  const width = spec.width ?? 640;
  const height = spec.height ?? 320;
  const fr = frame(spec.xLabels.length, 1, width, height);
  const band = fr.plotW / Math.max(1, spec.xLabels.length);
  const barW = Math.min(60, band * 0.6);
  const parts = [svgOpen(spec.id, spec.title, width, height + 22 * Math.ceil(spec.stacks.length / 6))];
  parts.push(`<text class="chart-title" x="${MARGIN.left}" y="14">${escapeHtml(spec.title)}</text>`);
  parts.push(axes(fr, spec.xLabels, spec.xTitle, '% of samples', (v) => `${Math.round(v * 100)}`));
  spec.shares.forEach((row, i) => {
    const x = fr.xAt(i) - barW / 2;
    if (row === null) {
      parts.push(
        `<text class="empty" x="${f(fr.xAt(i))}" y="${f(MARGIN.top + fr.plotH / 2)}" text-anchor="middle">${escapeHtml(spec.emptyLabels?.[i] ?? 'no data')}</text>`,
      );
      return;
    }
    let acc = 0;
    const bar = [`<g class="bar" data-x="${escapeHtml(spec.xLabels[i] ?? '')}">`];
    row.forEach((share, j) => {
      if (!(share > 0)) return;
      const stack = spec.stacks[j];
      if (!stack) return;
      const yTop = fr.yAt(Math.min(1, acc + share));
      const yBottom = fr.yAt(Math.min(1, acc));
      acc += share;
      bar.push(
        `<rect x="${f(x)}" y="${f(yTop)}" width="${f(barW)}" height="${f(Math.max(0, yBottom - yTop))}" fill="${escapeHtml(stack.color)}" data-bucket="${escapeHtml(stack.name)}"><title>${escapeHtml(`${stack.name} @ ${spec.xLabels[i] ?? ''}: ${(share * 100).toFixed(1)}%`)}</title></rect>`,
      );
    });
    bar.push('</g>');
    parts.push(bar.join(''));
  });
  // Legend below the plot, six entries per line.
  spec.stacks.forEach((stack, j) => {
    const row = Math.floor(j / 6);
    const col = j % 6;
    const lx = MARGIN.left + col * 95;
    const ly = height + 6 + row * 22;
    parts.push(
      `<g class="legend"><rect x="${lx}" y="${ly - 10}" width="12" height="12" fill="${escapeHtml(stack.color)}"/><text class="legend" x="${lx + 16}" y="${ly}">${escapeHtml(stack.name)}</text></g>`,
    );
  });
  parts.push('</svg>');
  return parts.join('');
}

export interface DotPlotSpec {
  id: string;
  title: string;
  /** One group per side, e.g. baseline and candidate. */
  groups: Array<{ name: string; color: string; values: number[]; median?: number }>;
  yTitle: string;
  formatValue?: (v: number) => string;
  width?: number;
  height?: number;
}

/** Each window's value as a dot per group, with the median as a bar: shows spread at a glance. */
export function dotPlot(spec: DotPlotSpec): string {
  const width = spec.width ?? 300;
  const height = spec.height ?? 220;
  const fmt = spec.formatValue ?? defaultFormat;
  const all = spec.groups.flatMap((g) => g.values.filter((v) => Number.isFinite(v)));
  const fr = frame(spec.groups.length, Math.max(0, ...all), width, height);
  const parts = [svgOpen(spec.id, spec.title, width, height)];
  parts.push(`<text class="chart-title" x="${MARGIN.left}" y="14">${escapeHtml(spec.title)}</text>`);
  parts.push(
    axes(
      fr,
      spec.groups.map((g) => g.name),
      '',
      spec.yTitle,
      fmt,
    ),
  );
  spec.groups.forEach((g, i) => {
    const cx = fr.xAt(i);
    const color = escapeHtml(g.color);
    const dots = g.values.filter((v) => Number.isFinite(v));
    dots.forEach((v, k) => {
      // Deterministic jitter so overlapping dots stay visible.
      const dx = ((k % 5) - 2) * 5;
      parts.push(
        `<circle class="window-value" cx="${f(cx + dx)}" cy="${f(fr.yAt(v))}" r="3.5" fill="${color}" fill-opacity="0.75"><title>${escapeHtml(`${g.name} window ${k + 1}: ${fmt(v)}`)}</title></circle>`,
      );
    });
    if (g.median !== undefined && Number.isFinite(g.median)) {
      const y = fr.yAt(g.median);
      parts.push(`<line class="median" x1="${f(cx - 18)}" x2="${f(cx + 18)}" y1="${f(y)}" y2="${f(y)}" stroke="${color}" stroke-width="2.5"/>`);
    }
  });
  parts.push('</svg>');
  return parts.join('');
}
