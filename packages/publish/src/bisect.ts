/** The publish pass of a bisection: analysis from bisect.json, then summary.md and index.html from both. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { analyzeBisection } from '@gwprof/analysis';
import { readBisectResult, writeBisectResult, writeJsonAtomic, type PublishedBisect } from '@gwprof/results';
import { renderBisectHtml, renderBisectMarkdown } from '@gwprof/render';

export interface BisectCopies {
  markdown?: string;
  json?: string;
}

export function publishBisect(runDir: string, copies: BisectCopies = {}): PublishedBisect {
  const bisect = readBisectResult(runDir);
  const published: PublishedBisect = { ...bisect, analysis: analyzeBisection(bisect) };
  writeBisectResult(runDir, published);
  const markdown = renderBisectMarkdown(published);
  writeFileSync(path.join(runDir, 'summary.md'), markdown);
  writeFileSync(path.join(runDir, 'index.html'), renderBisectHtml(published));
  if (copies.markdown) writeFileSync(path.resolve(copies.markdown), markdown);
  if (copies.json) writeJsonAtomic(path.resolve(copies.json), published);
  return published;
}
