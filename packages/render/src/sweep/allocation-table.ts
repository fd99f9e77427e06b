/**
 * What each step allocated per successful request, beside what GC cost (Node's own account of the
 * same window): the question the gc bucket raises, answered by bucket and by function.
 */
import type { AllocationSummary, RunResult } from '@gwprof/results';
import { bucketColumns } from './buckets.js';
import { NONE, fixed } from '../format.js';
import { stepAnalysisOf } from './step-analysis.js';
import { levelCell, levelHeader } from './step-rows.js';
import { type Column, formatMarkdownTable, formatTextTable } from '../text-table.js';
import { functionDisplayName, functionLocation } from '../function-names.js';

/** kB are 1,000 bytes and MB 1,000,000, as the tables say. */
export const kB = (bytes: number | null | undefined): string => fixed(bytes == null ? null : bytes / 1000, 1);

/** GC ms (Node's account) per MB allocated: what the collector charged for the garbage. */
export function gcMsPerMb(allocation: Pick<AllocationSummary, 'gcMsPerOkRequest' | 'bytesPerOkRequest'>): number | null {
  const { gcMsPerOkRequest: gc, bytesPerOkRequest: bytes } = allocation;
  return gc === null || bytes === null || bytes <= 0 ? null : gc / (bytes / 1e6);
}

function allocationsOf(run: RunResult): Array<AllocationSummary | null> {
  return run.steps.map((step) => stepAnalysisOf(run, step)?.allocation ?? null);
}

export function hasAllocations(run: RunResult): boolean {
  return allocationsOf(run).some((a) => a?.bytesPerOkRequest != null);
}

/** A row per step: kB allocated per request, GC ms per request and per MB, then kB per bucket. */
export function allocationTableData(run: RunResult): { columns: Column[]; rows: string[][] } {
  const allocations = allocationsOf(run);
  // Only buckets that allocated: idle and gc never run JavaScript.
  const maps = allocations.map((a) => a?.bucketBytesPerOkRequest ?? undefined);
  const buckets = bucketColumns(maps).filter((b) => maps.some((m) => (m?.[b] ?? 0) > 0));
  const columns: Column[] = [
    { header: levelHeader(run), align: 'right' },
    { header: 'kB/req', align: 'right' },
    { header: 'GC ms/req', align: 'right' },
    { header: 'GC ms/MB', align: 'right' },
    ...buckets.map((b): Column => ({ header: b, align: 'right' })),
  ];
  const rows = run.steps.map((step, i) => {
    const a = allocations[i];
    if (!a) return [levelCell(step), 'not sampled', NONE, NONE, ...buckets.map(() => NONE)];
    return [
      `${levelCell(step)}${physicalFrames(a) ? ` ${PHYSICAL_MARK}` : ''}`,
      kB(a.bytesPerOkRequest),
      fixed(a.gcMsPerOkRequest, 2),
      fixed(gcMsPerMb(a), 2),
      ...buckets.map((b) => kB(a.bucketBytesPerOkRequest?.[b] ?? 0)),
    ];
  });
  return { columns, rows };
}

export function renderAllocationTable(run: RunResult): string {
  if (!hasAllocations(run)) return '';
  const { columns, rows } = allocationTableData(run);
  return formatTextTable(columns, rows);
}

export function renderAllocationTableMarkdown(run: RunResult): string {
  if (!hasAllocations(run)) return '';
  const { columns, rows } = allocationTableData(run);
  return formatMarkdownTable(columns, rows);
}

/** "12.3 kB/req (21%)  visit  graphql/language/visitor.js:102  [plan]" per top allocator. */
export function topAllocatorLines(allocation: AllocationSummary, n = 5): string[] {
  return allocation.topAllocators.slice(0, n).map((f) => {
    const location = functionLocation(f);
    return `${kB(f.bytesPerOkRequest)} kB/req (${(f.share * 100).toFixed(0)}%)  ${functionDisplayName(f)}${location ? `  ${location}` : ''}  [${f.bucket}]`;
  });
}

const PHYSICAL_MARK = '†';

/** Older files say nothing: their frames were physical. */
const physicalFrames = (a: AllocationSummary): boolean => a.frames !== 'allocating';

/** Why a step is marked: its buckets and functions may hold what inlined callees allocated; null when no step is. */
export function allocationFramesNote(run: RunResult): string | null {
  if (!allocationsOf(run).some((a) => a && physicalFrames(a))) return null;
  return `${PHYSICAL_MARK} by physical frames only: a function V8 inlined has its bytes charged to its caller (no inlining-off profile: --no-allocation-attribution, or the profiler could not take one). The kB/req total is right.`;
}

export const ALLOCATION_NOTE =
  "Bytes allocated on the JavaScript heap per successful request, collected or not (V8's sampling heap profiler, each sample scaled by its chance of being taken; kB = 1,000 bytes), by the bucket the CPU rules give the allocating stack. Buckets and functions are placed by a second profile taken after the window with inlining off, so an inlined function keeps its own bytes. GC ms are Node's own account of GC pauses in the same window.";
