/**
 * Every user page in docs/ (docs/*.md) stays short enough to read in minutes: at most 200 lines,
 * and speaks to its reader about their use: no "this machine" (the one gwprof was measured on is
 * not theirs) and no dates (dated history and evidence go to docs/validation/, whose pages the user
 * pages link to; a date inside a link's target is the linked page's). docs/ARCHITECTURE.md is for
 * contributors, so it is not a user page.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const docsDir = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', 'docs');
const maxLines = 200;
const notUserPages = new Set(['ARCHITECTURE.md']);

/** The markdown files directly in docs/ that a user reads (subfolders such as validation/ excluded). */
function userPages(): string[] {
  return readdirSync(docsDir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md') && !notUserPages.has(entry.name))
    .map((entry) => entry.name)
    .sort();
}

/** Lines as an editor counts them: a final newline ends the last line, it does not start another. */
function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

describe('docs user pages', () => {
  it('finds the user pages', () => {
    expect(userPages()).toContain('methodology.md');
  });

  it.each(userPages())(`docs/%s has at most ${maxLines} lines`, (page) => {
    const lines = lineCount(readFileSync(path.join(docsDir, page), 'utf8'));
    expect(lines, `docs/${page} has ${lines} lines; move evidence to docs/validation/ to bring it to ${maxLines}`).toBeLessThanOrEqual(maxLines);
  });

  it.each(userPages())('docs/%s speaks of no "this machine" and holds no dates', (page) => {
    const prose = readFileSync(path.join(docsDir, page), 'utf8').replace(/\]\([^)\s]*\)/g, ']');
    expect(prose.match(/[^\n]*this machine[^\n]*/gi) ?? [], `docs/${page}: say which machine, or move the figure to docs/validation/`).toEqual([]);
    expect(prose.match(/[^\n]*\b20\d\d-\d\d-\d\d\b[^\n]*/g) ?? [], `docs/${page}: dated figures and history belong in docs/validation/`).toEqual([]);
  });

  it('counts lines as wc -l does for a file ending in a newline', () => {
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
    expect(lineCount('')).toBe(0);
  });
});
