// Terminal
export { renderStepTable, type TerminalOptions } from './step-table.js';
export { renderBucketTable, renderBucketTableMarkdown, renderProfileBuckets } from './bucket-table.js';
export { renderTopFunctions } from './top-functions.js';
export { renderCompareTable } from './compare-table.js';
// Markdown
export { renderSummaryMarkdown } from './summary-markdown.js';
export { renderCompareMarkdown } from './compare-markdown.js';
// HTML
export { renderReportHtml, type ReportHtmlOptions } from './report-html.js';
export { renderCompareReportHtml } from './compare-html.js';
export { renderFlameGraphHtml, type FlameGraphOptions } from './flamegraph-html.js';
// Helpers other packages may want (tests, CLI)

export { escapeHtml, escapeMarkdown, escapeTerminal } from './escape.js';
export { findExternalResourceLoads, type ResourceLoad } from './external-resources.js';
export { encodePprofProfile, pprofDiffCommand, decodePprofProfile } from './pprof-profile.js';
