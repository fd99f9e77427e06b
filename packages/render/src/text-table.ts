import { visibleWidth } from './ansi.js';
import { escapeMarkdown } from './escape.js';

export type Align = 'left' | 'right';

export interface Column {
  header: string;
  align?: Align;
}

function pad(text: string, width: number, align: Align): string {
  const fill = ' '.repeat(Math.max(0, width - visibleWidth(text)));
  return align === 'right' ? fill + text : text + fill;
}

/**
 * A terminal table with columns aligned by visible width (cells may carry ANSI colors).
 * Header, a dashed rule, then the rows; two spaces between columns.
 */
export function formatTextTable(columns: Column[], rows: string[][], indent = ''): string {
  const widths = columns.map((col, i) => Math.max(visibleWidth(col.header), ...rows.map((row) => visibleWidth(row[i] ?? ''))));
  const line = (cells: string[]) =>
    indent +
    cells
      .map((cell, i) => pad(cell, widths[i] ?? 0, columns[i]?.align ?? 'left'))
      .join('  ')
      .trimEnd();
  const rule = indent + widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(columns.map((c) => c.header)), rule, ...rows.map(line)].join('\n');
}

/**
 * A GitHub-flavoured markdown table. Cells are taken as already-safe markdown: callers escape
 * untrusted text with escapeMarkdown / markdownCode first. Stray newlines and pipes are still
 * neutralised here because they would break the row.
 */
export function formatMarkdownTable(columns: Column[], rows: string[][]): string {
  const cell = (text: string) => text.replace(/\r?\n/g, ' ').replace(/(?<!\\)\|/g, '\\|');
  const header = `| ${columns.map((c) => escapeMarkdown(c.header)).join(' | ')} |`;
  const rule = `| ${columns.map((c) => (c.align === 'right' ? '---:' : '---')).join(' | ')} |`;
  const body = rows.map((row) => `| ${columns.map((_, i) => cell(row[i] ?? '')).join(' | ')} |`);
  return [header, rule, ...body].join('\n');
}
