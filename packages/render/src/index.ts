export { renderStepTable, type TerminalOptions } from './step-table.js';
export { renderBucketTable, renderBucketTableMarkdown } from './bucket-table.js';
export { renderTopFunctions } from './top-functions.js';
export { renderSummaryMarkdown } from './summary-markdown.js';
export { BUCKET_DISPLAY_ORDER } from './buckets.js';
export { escapeHtml, escapeMarkdown } from './escape.js';
