// Terminal
export { renderStepTable } from './sweep/step-table.js';
export { renderBucketTable, renderProfileBuckets } from './sweep/bucket-table.js';
export { runUnattributedLines } from './sweep/unattributed.js';
export { allocationFramesNote, renderAllocationTable } from './sweep/allocation-table.js';
export { renderCapacityLines } from './sweep/capacity-facts.js';
export { renderCompareTable } from './compare/compare-table.js';
// Markdown
export { renderSummaryMarkdown } from './sweep/summary-markdown.js';
export { renderCompareMarkdown } from './compare/compare-markdown.js';
// HTML
export { renderReportHtml } from './sweep/report-html.js';
export { renderCompareReportHtml } from './compare/compare-html.js';
export { renderFlameGraphHtml } from './flamegraph/flamegraph-html.js';
// pprof, for `pprof -diff_base`
export { encodePprofProfile, pprofDiffCommand } from './compare/pprof-profile.js';
export { renderSoakHtml, renderSoakMarkdown, renderSoakTerminal, soakClock, soakVerdictLine, thinIntervals } from './soak/soak-report.js';
export { renderBisectTable } from './bisect/bisect-table.js';
export { renderBisectMarkdown } from './bisect/bisect-markdown.js';
export { renderBisectHtml } from './bisect/bisect-html.js';
