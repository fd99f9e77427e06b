import { escapeHtml } from './escape.js';
import type { Fact } from './facts.js';

/**
 * The report pages run no script at all, and this policy makes the browser enforce it: no script,
 * no request for any resource (only data: images), inline styles only. An injected tag that slipped
 * through escaping could still not run or phone home.
 */
export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'";

const REPORT_CSS = `
:root { color-scheme: light; --fg: #1d1f21; --muted: #666; --line: #ddd; --bad: #b00020; --ok: #1b7f3b; --warn: #9a6700; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); margin: 0 auto; padding: 16px 24px 48px; max-width: 1400px; }
h1 { font-size: 22px; margin: 8px 0; } h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 16px 0 6px; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
pre { background: #f6f8fa; padding: 6px 8px; border-radius: 4px; white-space: pre-wrap; word-break: break-all; margin: 4px 0; max-height: 12em; overflow: auto; }
table { border-collapse: collapse; margin: 6px 0; }
th, td { border: 1px solid var(--line); padding: 3px 8px; vertical-align: top; }
th { background: #f3f4f6; text-align: left; } td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.failed td { background: #fdecee; } tr.unsteady td { background: #fff8e1; } .status-failed { color: var(--bad); font-weight: 700; } .status-ok { color: var(--ok); } .status-unsteady { color: var(--warn); font-weight: 700; }
.verdict { display: inline-block; padding: 6px 12px; border-radius: 4px; font-weight: 700; margin: 6px 0; }
.verdict.ok { background: #e6f4ea; color: var(--ok); } .verdict.bad { background: #fdecee; color: var(--bad); } .verdict.warn { background: #fff4ce; color: var(--warn); }
.meta { color: var(--muted); } .note { color: var(--warn); }
.charts { display: flex; flex-wrap: wrap; gap: 16px; }
svg.chart { background: #fff; border: 1px solid var(--line); border-radius: 4px; max-width: 100%; height: auto; }
svg .grid { stroke: #eee; } svg .axis { stroke: #888; } svg text { font-size: 11px; fill: #333; }
svg .chart-title { font-size: 13px; font-weight: 600; } svg .axis-title { fill: var(--muted); } svg .tick.failed { fill: var(--bad); font-weight: 700; }
svg .empty { fill: var(--muted); font-style: italic; }
details { margin: 4px 0; } summary { cursor: pointer; }
ul.facts { padding-left: 20px; }
.delta-bad, .verdict-regression { color: var(--bad); font-weight: 700; } .delta-good, .verdict-improvement { color: var(--ok); }
.verdict-inconclusive { color: var(--warn); }
`;

export interface PageSpec {
  title: string;
  body: string;
}

/** A complete, self-contained HTML document: inline CSS, no script, no external resource. */
export function htmlPage(spec: PageSpec): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(REPORT_CSP)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(spec.title)}</title>
<link rel="icon" href="data:,">
<style>${REPORT_CSS}</style>
</head>
<body>
${spec.body}
</body>
</html>
`;
}

export interface HtmlColumn {
  header: string;
  numeric?: boolean;
}

/** A table from already-escaped cell HTML. Row classes let a failed step stand out. */
export function htmlTable(columns: HtmlColumn[], rows: Array<{ cells: string[]; className?: string; attrs?: string }>, attrs = ''): string {
  const head = columns.map((c) => `<th${c.numeric ? ' class="num"' : ''}>${escapeHtml(c.header)}</th>`).join('');
  const body = rows
    .map(
      (row) =>
        `<tr${row.className ? ` class="${escapeHtml(row.className)}"` : ''}${row.attrs ? ` ${row.attrs}` : ''}>${row.cells
          .map((cell, i) => `<td${columns[i]?.numeric ? ' class="num"' : ''}>${cell}</td>`)
          .join('')}</tr>`,
    )
    .join('\n');
  return `<table${attrs ? ` ${attrs}` : ''}><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** A two-column table of facts, every label and value escaped. */
export function factsTable(facts: Fact[], attrs = ''): string {
  return htmlTable(
    [{ header: 'what' }, { header: 'value' }],
    facts.map((f) => ({ cells: [escapeHtml(f.label), `<span class="mono">${escapeHtml(f.value)}</span>`] })),
    attrs,
  );
}
