import type { RunResult } from '@gwprof/results';
import { NONE, integer, shareAsPercent } from './format.js';
import { hasBuckets, missingBucketsLabel, runBucketColumns, stepBuckets } from './bucket-rows.js';
import { type Column, formatMarkdownTable, formatTextTable } from './text-table.js';

/** Header and rows of the seed-000 table: a row per concurrency, a column per bucket in %. */
function bucketTableData(run: RunResult): { columns: Column[]; rows: string[][] } {
  const buckets = runBucketColumns(run);
  const columns: Column[] = [
    { header: 'conc', align: 'right' },
    { header: 'samples', align: 'right' },
    ...buckets.map((b): Column => ({ header: `${b} %`, align: 'right' })),
  ];
  const rows = run.steps.map((step) => {
    const entry = stepBuckets(step);
    if (entry.kind !== 'shares') {
      return [String(step.concurrency), missingBucketsLabel(entry), ...buckets.map(() => NONE)];
    }
    return [
      String(step.concurrency),
      entry.samples === null ? NONE : integer(entry.samples),
      ...buckets.map((b) => shareAsPercent(entry.shares[b] ?? 0, 1)),
    ];
  });
  return { columns, rows };
}

/**
 * The CPU-bucket table for the terminal (percent of all samples, one decimal).
 * Empty string when no step has buckets (profiling off), so callers can skip the section.
 */
export function renderBucketTable(run: RunResult): string {
  if (!hasBuckets(run)) return '';
  const { columns, rows } = bucketTableData(run);
  return formatTextTable(columns, rows);
}

/** The same table as GitHub markdown; empty string when no step has buckets. */
export function renderBucketTableMarkdown(run: RunResult): string {
  if (!hasBuckets(run)) return '';
  const { columns, rows } = bucketTableData(run);
  return formatMarkdownTable(columns, rows);
}
