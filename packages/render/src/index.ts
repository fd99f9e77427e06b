// Terminal
export { renderStepTable } from './step-table.js';
export { renderBucketTable, renderProfileBuckets } from './bucket-table.js';
export { runUnattributedLines } from './unattributed.js';
export { allocationFramesNote, renderAllocationTable } from './allocation-table.js';
export { renderCapacityLines } from './capacity-facts.js';
export { renderCompareTable } from './compare-table.js';
// Markdown
export { renderSummaryMarkdown } from './summary-markdown.js';
export { renderCompareMarkdown } from './compare-markdown.js';
// HTML
export { renderReportHtml } from './report-html.js';
export { renderCompareReportHtml } from './compare-html.js';
export { renderFlameGraphHtml } from './flamegraph-html.js';
// pprof, for `pprof -diff_base`
export { encodePprofProfile, pprofDiffCommand } from './pprof-profile.js';
export { renderSoakHtml, renderSoakMarkdown, renderSoakTerminal, soakClock, soakVerdictLine, thinIntervals } from './soak-report.js';
