import type { StepAnalysis, TopFunction } from '@gwprof/results';
import { escapeMarkdown, markdownCode } from '../escape.js';
import { shareAsPercent } from '../format.js';
import { type Column, formatMarkdownTable } from '../text-table.js';

export function functionDisplayName(fn: Pick<TopFunction, 'functionName'>): string {
  return fn.functionName.trim() === '' ? '(anonymous)' : fn.functionName;
}

/**
 * Source location, shortened for reading: file:// dropped and everything before the last
 * node_modules/ cut, so "graphql/language/parser.js:120" names the package.
 */
export function functionLocation(fn: Pick<TopFunction, 'url' | 'line'>): string {
  if (!fn.url) return '';
  let url = fn.url.replace(/^file:\/\//, '');
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) url = url.slice(nm + 'node_modules/'.length);
  // TopFunction.line is already 1-based (0 when V8 gives none).
  return fn.line > 0 ? `${url}:${fn.line}` : url;
}

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
