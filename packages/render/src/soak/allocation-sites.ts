/**
 * A native soak's allocation sites of the bytes still live (valgrind's DHAT after the soak): the
 * table of sites by bytes live per request, the largest sites' stacks, beside the RssAnon slope the
 * verdict read, and what valgrind could not see in the binary.
 */
import type { SoakAllocationSites, SoakResult } from '@gwprof/results';
import { escapeHtml, escapeMarkdown, markdownCode } from '../escape.js';
import { fixed, integer } from '../format.js';
import { htmlTable } from '../html-page.js';
import { type Column, formatMarkdownTable, formatTextTable } from '../text-table.js';

const COLUMNS: Column[] = [
  { header: 'bytes live/request', align: 'right' },
  { header: 'blocks live/request', align: 'right' },
  { header: 'bytes allocated/request', align: 'right' },
  { header: 'site', align: 'left' },
];

/** Stacks shown in full, the largest sites first, and frames of each. */
const STACKS_SHOWN = 3;
const FRAMES_SHOWN = 12;

const siteName = (site: SoakAllocationSites['sites'][number]): string => `${site.name}${site.where ? ` (${site.where})` : ''}`;

function rows(sites: SoakAllocationSites): string[][] {
  return sites.sites.map((site) => [
    fixed(site.bytesLivePerRequest, 1),
    fixed(site.blocksLivePerRequest, 2),
    fixed(site.bytesAllocatedPerRequest, 1),
    siteName(site),
  ]);
}

/** How the sites were counted: the tool, why, and the two runs. */
function heading(sites: SoakAllocationSites): string {
  const why = sites.reason === 'leak' ? 'after the leak verdict' : 'as asked (--sites always)';
  const [shorter, longer] = sites.runs;
  const runs = shorter && longer ? `: ${integer(sites.countedRequests)} requests counted between a run of ${shorter.ok} and one of ${longer.ok}` : '';
  return `Allocation sites of the bytes still live (${sites.tool}, ${why}${runs})`;
}

/** All sites' live bytes per request beside the slope the verdict read (the allocator's live bytes, or RssAnon): how much of the growth valgrind saw. */
function totalsLine(soak: SoakResult, sites: SoakAllocationSites): string | null {
  if (!sites.totals) return null;
  const trends = soak.analysis?.trends ?? [];
  const allocated = trends.find((t) => t.series === 'allocatedAfterCalm')?.bytesPerRequest?.slope;
  const anon = trends.find((t) => t.series === 'rssAnonAfterCalm')?.bytesPerRequest?.slope;
  const beside =
    allocated != null
      ? `; the allocator's live bytes grew ${fixed(allocated, 1)} bytes per request in the soak`
      : anon == null
        ? ''
        : `; RssAnon grew ${fixed(anon, 1)} bytes per request in the soak`;
  const ended = sites.runs.some((run) => run.endedBy === 'shutdown')
    ? ' The gateway handled the signal meant to end it as it was, so it was stopped by its own shutdown, which may have freed what it held.'
    : '';
  return `In all: ${fixed(sites.totals.bytesLivePerRequest, 1)} bytes live per request, ${fixed(sites.totals.blocksAllocatedPerRequest, 1)} blocks allocated per request${beside}.${ended}`;
}

function stacks(sites: SoakAllocationSites): Array<{ name: string; frames: string[] }> {
  return sites.sites.slice(0, STACKS_SHOWN).map((site) => ({ name: siteName(site), frames: site.frames.slice(0, FRAMES_SHOWN) }));
}

export function allocationSitesText(soak: SoakResult): string | null {
  const sites = soak.allocationSites;
  if (!sites) return null;
  if (sites.error) return `${heading(sites)}: not counted: ${sites.error}`;
  const parts = [`${heading(sites)}:`];
  parts.push(sites.sites.length ? formatTextTable(COLUMNS, rows(sites)) : 'No site held more live bytes after the counted requests.');
  const totals = totalsLine(soak, sites);
  if (totals) parts.push(totals);
  const [top] = stacks(sites);
  if (top) parts.push(`The largest site's stack:\n${top.frames.map((frame) => `  ${frame}`).join('\n')}`);
  for (const line of sites.unseen) parts.push(`Not seen: ${line}.`);
  return parts.join('\n');
}

export function allocationSitesMarkdown(soak: SoakResult): string[] {
  const sites = soak.allocationSites;
  if (!sites) return [];
  const lines = [`## ${escapeMarkdown(heading(sites))}`, ''];
  if (sites.error) return [...lines, `Not counted: ${escapeMarkdown(sites.error)}`, ''];
  lines.push(
    sites.sites.length
      ? formatMarkdownTable(
          COLUMNS,
          rows(sites).map((row) => [...row.slice(0, 3), markdownCode(row[3]!, true)]),
        )
      : 'No site held more live bytes after the counted requests.',
    '',
  );
  const totals = totalsLine(soak, sites);
  if (totals) lines.push(escapeMarkdown(totals), '');
  for (const stack of stacks(sites)) lines.push(`${markdownCode(stack.name, true)}:`, '', '```text', ...stack.frames, '```', '');
  for (const line of sites.unseen) lines.push(`- Not seen: ${escapeMarkdown(line)}.`);
  const files = sites.runs.flatMap((run) => (run.file ? [`[${run.file}](${run.file})`] : []));
  lines.push('', `DHAT's profiles (valgrind's \`dh_view.html\` opens them): ${files.join(', ')}.`, '');
  return lines;
}

export function allocationSitesHtml(soak: SoakResult): string {
  const sites = soak.allocationSites;
  if (!sites) return '';
  const title = `<h2>${escapeHtml(heading(sites))}</h2>`;
  if (sites.error) return `${title}<p>Not counted: ${escapeHtml(sites.error)}</p>`;
  const table = sites.sites.length
    ? htmlTable(
        COLUMNS.map((c) => ({ header: c.header, numeric: c.align === 'right' })),
        rows(sites).map((row) => ({ cells: [...row.slice(0, 3).map(escapeHtml), `<code>${escapeHtml(row[3]!)}</code>`] })),
      )
    : '<p>No site held more live bytes after the counted requests.</p>';
  const totals = totalsLine(soak, sites);
  const stackList = stacks(sites)
    .map((stack) => `<details><summary><code>${escapeHtml(stack.name)}</code></summary><pre>${escapeHtml(stack.frames.join('\n'))}</pre></details>`)
    .join('');
  const unseen = sites.unseen.map((line) => `<li>Not seen: ${escapeHtml(line)}.</li>`).join('');
  return [title, table, totals ? `<p>${escapeHtml(totals)}</p>` : '', stackList, unseen ? `<ul>${unseen}</ul>` : ''].join('\n');
}
