import type { StepResult, TopFunction } from '@gwprof/results';
import { escapeMarkdown, escapeTerminal, markdownCode } from './escape.js';
import { shareAsPercent } from './format.js';
import { type Column, formatMarkdownTable, formatTextTable } from './text-table.js';

export function functionDisplayName(fn: TopFunction): string {
  return fn.functionName.trim() === '' ? '(anonymous)' : fn.functionName;
}

/**
 * Source location, shortened for reading: file:// dropped and everything before the last
 * node_modules/ cut, so "graphql/language/parser.js:120" names the package.
 */
export function functionLocation(fn: TopFunction): string {
  if (!fn.url) return '';
  let url = fn.url.replace(/^file:\/\//, '');
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) url = url.slice(nm + 'node_modules/'.length);
  // Profiles record 0-based line numbers; people read 1-based ones.
  return fn.line >= 0 ? `${url}:${fn.line + 1}` : url;
}

export function topFunctionsOf(step: StepResult, n: number): TopFunction[] {
  return [...(step.topFunctions ?? [])].sort((a, b) => b.selfShare - a.selfShare).slice(0, Math.max(0, n));
}

const COLUMNS: Column[] = [
  { header: 'self %', align: 'right' },
  { header: 'bucket' },
  { header: 'function' },
  { header: 'location' },
];

/** The step's top self-time functions as a terminal table; a line saying so when there are none. */
export function renderTopFunctions(step: StepResult, n = 10): string {
  const top = topFunctionsOf(step, n);
  if (top.length === 0) return `c=${step.concurrency}: no profile functions`;
  const rows = top.map((fn) => [
    shareAsPercent(fn.selfShare, 1),
    escapeTerminal(fn.bucket),
    escapeTerminal(functionDisplayName(fn)),
    escapeTerminal(functionLocation(fn)),
  ]);
  return `c=${step.concurrency}: top ${top.length} self-time functions\n${formatTextTable(COLUMNS, rows, '  ')}`;
}

/** Markdown variant; empty string when the step has no top functions. */
export function renderTopFunctionsMarkdown(step: StepResult, n = 10): string {
  const top = topFunctionsOf(step, n);
  if (top.length === 0) return '';
  const rows = top.map((fn) => [
    shareAsPercent(fn.selfShare, 1),
    escapeMarkdown(fn.bucket),
    markdownCode(functionDisplayName(fn), true),
    fn.url ? markdownCode(functionLocation(fn), true) : '',
  ]);
  return formatMarkdownTable(COLUMNS, rows);
}
