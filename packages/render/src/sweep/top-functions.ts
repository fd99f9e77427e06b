import type { StepAnalysis, TopFunction } from '@gwprof/results';
import { functionDisplayName, functionLocation } from '../function-names.js';
import { escapeMarkdown, markdownCode } from '../escape.js';
import { shareAsPercent } from '../format.js';
import { type Column, formatMarkdownTable } from '../text-table.js';

export function topFunctionsOf(analysis: StepAnalysis | null, n: number): TopFunction[] {
  return [...(analysis?.topFunctions ?? [])].sort((a, b) => b.selfShare - a.selfShare).slice(0, Math.max(0, n));
}

const COLUMNS: Column[] = [{ header: 'self %', align: 'right' }, { header: 'bucket' }, { header: 'function' }, { header: 'location' }];

/** Markdown variant; empty string when the step has no top functions. */
export function renderTopFunctionsMarkdown(analysis: StepAnalysis | null, n = 10): string {
  const top = topFunctionsOf(analysis, n);
  if (top.length === 0) return '';
  const rows = top.map((fn) => [
    shareAsPercent(fn.selfShare, 1),
    escapeMarkdown(fn.bucket),
    markdownCode(functionDisplayName(fn), true),
    fn.url ? markdownCode(functionLocation(fn), true) : '',
  ]);
  return formatMarkdownTable(COLUMNS, rows);
}
