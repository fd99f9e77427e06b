import { escapeMarkdown } from './escape.js';
import type { Fact } from './facts.js';
import { formatMarkdownTable } from './text-table.js';

/** Untrusted text shortened so one gateway message cannot swamp a report. */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A two-column markdown table of facts, values escaped. */
export function factsMarkdownTable(facts: Fact[], maxValueLength = 500): string {
  return formatMarkdownTable(
    [{ header: 'what' }, { header: 'value' }],
    facts.map((f) => [escapeMarkdown(f.label), escapeMarkdown(truncate(f.value, maxValueLength))]),
  );
}

/** A fenced code block whose fence is longer than any backtick run inside, so the text cannot close it. */
export function fencedBlock(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}
