import type { RunResult, TopFunction } from '@gwprof/results';
import { bucketColumns } from './buckets.js';
import { functionDisplayName, functionLocation } from '../function-names.js';
import { NONE, fixed, integer, shareAsPercent } from '../format.js';
import { stepAnalysisOf } from './step-analysis.js';
import { hasBuckets, missingBucketsLabel, runBucketColumns, stepBuckets } from './bucket-rows.js';
import { type Column, formatMarkdownTable, formatTextTable } from '../text-table.js';
import { levelCell, levelHeader } from './step-rows.js';
import { unattributedHint, unattributedLine, type BucketsOfOne } from './unattributed.js';

/** Shares of the sampled time (seed 000's table), or CPU milliseconds per successful request. */
export type BucketUnit = 'share' | 'ms';

/** Header and rows: a row per step, a column per bucket. */
export function bucketTableData(run: RunResult, unit: BucketUnit): { columns: Column[]; rows: string[][] } {
  const buckets = runBucketColumns(run).filter((b) => unit === 'share' || b !== 'idle');
  const withNodeGc = unit === 'share' && (run.analysis?.steps ?? []).some((a) => a.gc !== null);
  const columns: Column[] = [
    { header: levelHeader(run), align: 'right' },
    unit === 'share' ? { header: 'samples', align: 'right' } : { header: 'busy ms/req', align: 'right' },
    ...buckets.map((b): Column => ({ header: unit === 'share' ? `${b} %` : b, align: 'right' })),
    ...(withNodeGc ? [{ header: 'Node gc %', align: 'right' } as Column] : []),
  ];
  const rows = run.steps.map((step) => {
    const entry = stepBuckets(run, step);
    const analysis = stepAnalysisOf(run, step);
    const nodeGc = withNodeGc ? [shareAsPercent(analysis?.gc?.nodeShare, 1)] : [];
    if (entry.kind !== 'shares') return [levelCell(step), missingBucketsLabel(entry), ...buckets.map(() => NONE), ...nodeGc];
    if (unit === 'share') {
      return [
        levelCell(step),
        entry.samples === null ? NONE : integer(entry.samples),
        ...buckets.map((b) => shareAsPercent(entry.shares[b] ?? 0, 1)),
        ...nodeGc,
      ];
    }
    const perRequest = analysis?.bucketMsPerOkRequest ?? null;
    return [levelCell(step), fixed(analysis?.busyMsPerOkRequest, 2), ...buckets.map((b) => (perRequest ? fixed(perRequest[b] ?? 0, 2) : NONE))];
  });
  return { columns, rows };
}

/**
 * The CPU-bucket table for the terminal: % of sampled time (one decimal), or ms per successful
 * request. Empty string when no step has buckets (profiling off), so callers can skip the section.
 */
export function renderBucketTable(run: RunResult, unit: BucketUnit = 'share'): string {
  if (!hasBuckets(run)) return '';
  const { columns, rows } = bucketTableData(run, unit);
  // A terminal's 120 columns: the caption gives the unit, and buckets nothing fell in stay in summary.md.
  const kept = columns.map((_, i) => i < 2 || rows.some((row) => !/^(0\.0+|–)$/.test(row[i] ?? '')));
  const headers = columns.filter((_, i) => kept[i]).map((column) => ({ ...column, header: column.header.replace(/ %$/, '') }));
  return formatTextTable(
    headers,
    rows.map((row) => row.filter((_, i) => kept[i])),
  );
}

/** The same table as GitHub markdown; empty string when no step has buckets. */
export function renderBucketTableMarkdown(run: RunResult, unit: BucketUnit = 'share'): string {
  if (!hasBuckets(run)) return '';
  const { columns, rows } = bucketTableData(run, unit);
  return formatMarkdownTable(columns, rows);
}

/** What `gwprof buckets` shows of one profile: its bucket shares as bars, then its top functions. */
export interface ProfileBuckets extends BucketsOfOne {
  samples: number;
  samplingIntervalUs: number;
  buckets: Record<string, number>;
  topFunctions: TopFunction[];
}

/** One profile's buckets as a bar chart in text, then its top self-time functions. */
export function renderProfileBuckets(file: string, profile: ProfileBuckets): string {
  if (profile.samples === 0) return `${file}: the profile has no samples: nothing to attribute`;
  const names = bucketColumns([profile.buckets]);
  const width = Math.max(...names.map((n) => n.length));
  const lines = [`${file}: ${integer(profile.samples)} samples, ~${Math.round(profile.samplingIntervalUs)} µs apart`, ''];
  for (const name of names) {
    const share = profile.buckets[name] ?? 0;
    lines.push(`${name.padEnd(width)}  ${shareAsPercent(share, 1).padStart(5)}%  ${'█'.repeat(Math.round(share * 40))}`);
  }
  lines.push('', 'top self-time functions:');
  for (const f of profile.topFunctions) {
    const location = functionLocation(f);
    lines.push(`${shareAsPercent(f.selfShare, 1).padStart(5)}%  ${f.bucket.padEnd(width)}  ${functionDisplayName(f)}${location ? `  ${location}` : ''}`);
  }
  const unattributed = unattributedLine('this profile', profile);
  if (unattributed) lines.push('', unattributed, unattributedHint([profile]));
  return lines.join('\n');
}
