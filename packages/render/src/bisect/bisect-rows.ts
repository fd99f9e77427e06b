/** The plain-text pieces of a bisection every renderer shares: the points visited, the steps, what was measured. */
import type { BisectRange, BisectStep, PublishedBisect } from '@gwprof/results';
import { NONE, signedPercent } from '../format.js';
import { instructionCount } from '../compare/instruction-moves.js';

/** What a point's value counts: instructions/req, or a memory bisection's allocations/req or bytes/req. */
export function bisectUnit(bisect: PublishedBisect): string {
  return bisect.analysis.unit ?? 'instructions/req';
}

export function pointHeaders(bisect: PublishedBisect): string[] {
  return ['#', 'point', bisectUnit(bisect), 'change', 'counts', 'note'];
}

/** A point's value as people read it: a count of instructions in k or M, allocations to a tenth. */
function pointValue(bisect: PublishedBisect, value: number): string {
  return bisectUnit(bisect) === 'allocations/req' ? value.toFixed(1) : instructionCount(value);
}

/** One row per point counted or skipped, in history order; the change is from the previous counted point. */
export function pointRows(bisect: PublishedBisect): string[][] {
  const { perRequest } = bisect.analysis;
  let previous: number | null = null;
  const rows: string[][] = [];
  for (const point of bisect.points) {
    const value = perRequest[point.index] ?? null;
    if (value === null && !point.skipped) continue;
    const trusted = value !== null && !point.skipped;
    const change = trusted && previous !== null ? signedPercent(value / previous - 1, 2) : NONE;
    const step = bisect.analysis.steps.find((s) => s.bad === point.index);
    const note = point.skipped ? `skipped (${point.skipped.stage}): ${point.skipped.reason}` : step ? stepNote(step) : '';
    rows.push([String(point.index), point.label, value !== null ? pointValue(bisect, value) : NONE, change, String(point.counts.length), note]);
    if (trusted) previous = value;
  }
  return rows;
}

function stepNote(step: BisectStep): string {
  return step.nearThreshold ? `step within the noise of the threshold` : `${step.kind} step`;
}

/** `0.2.6 → 0.2.8: +3.02% [+2.51%, +3.53%]` with the skipped points it spans. */
export function stepTitle(bisect: PublishedBisect, step: BisectStep): string {
  const skipped = step.skippedBetween.length > 0 ? ` (somewhere in ${step.skippedBetween.length} skipped point(s) between)` : '';
  return `${rangeLine(bisect, step)} ${bisectUnit(bisect)}${skipped}`;
}

/** `0.2.6 → 0.2.8: +3.02% [+2.51%, +3.53%]`: a range's change and its interval. */
export function rangeLine(bisect: PublishedBisect, range: BisectRange): string {
  const interval = range.interval ? ` [${signedPercent(range.interval.low, 2)}, ${signedPercent(range.interval.high, 2)}]` : '';
  return `${bisect.points[range.good]!.label} → ${bisect.points[range.bad]!.label}: ${signedPercent(range.relativeChange, 2)}${interval}`;
}

const percent = (x: number) => `${(x * 100).toFixed(2)}%`;

/** The scatter of one point between processes, how it was measured, and what it can resolve; null in files analysed before it was measured. */
export function noiseLine(bisect: PublishedBisect): string | null {
  const noise = bisect.analysis.noise;
  if (!noise) return null;
  const { threshold, maxCountsPerPoint } = bisect.config;
  const measured =
    noise.measuredSd === null
      ? `not measured (no point counted twice): the floor of ${percent(noise.floor)} assumed`
      : `${percent(noise.measuredSd)} (pooled sd of log counts over ${noise.pointsRepeated} point(s) counted more than once, ${noise.df} df)${noise.sd > noise.measuredSd ? `, below the floor of ${percent(noise.floor)}: the floor used` : ''}`;
  return (
    `Scatter of one point between processes: ${measured}. ` +
    `With up to ${maxCountsPerPoint} counts a point it resolves a change of ${percent(noise.resolvableThreshold)}; ` +
    `the ${percent(threshold)} threshold takes about ${noise.countsForThreshold} count(s) a point. ` +
    `Intervals at ${(noise.confidence * 100).toFixed(0)}%; a step is named only when no change lies outside its interval at ${(noise.stepConfidence * 100).toFixed(3)}% (every neighbouring pair at once).`
  );
}

/** Steps the counts found that their full comparison did not confirm, and ranges the noise left unresolved: one line each. */
export function undecidedLines(bisect: PublishedBisect): string[] {
  const { analysis } = bisect;
  return [
    ...(analysis.unconfirmedSteps ?? []).map((s) => {
      const c = bisect.confirmations.find((x) => x.good === s.good && x.bad === s.bad);
      return `found by the counts, not confirmed (the full comparison: ${c?.verdict ?? NONE}, ${signedPercent(c?.relativeChange, 2)}): ${rangeLine(bisect, s)}`;
    }),
    ...(analysis.unresolvedRanges ?? []).map((r) => `unresolved by the noise: ${rangeLine(bisect, r)}`),
  ];
}

/** The confirmation of a step as one line; null when there is none. */
export function confirmationLine(bisect: PublishedBisect, step: BisectStep): string | null {
  const c = bisect.confirmations.find((x) => x.good === step.good && x.bad === step.bad);
  if (!c) return null;
  if (c.error || c.verdict === null) return `Confirmation by a full comparison failed: ${c.error ?? 'no verdict'} (${c.runDir}).`;
  const range = (i: { low: number; high: number } | null) => (i ? ` [${signedPercent(i.low, 2)}, ${signedPercent(i.high, 2)}]` : '');
  if (bisect.config.measure === 'memory') {
    const a = c.allocations;
    if (!a) return `Confirmation by a full comparison gave no allocation verdict (${c.runDir}).`;
    return `Confirmed by a full comparison's allocation verdict: ${a.verdict}, ${signedPercent(a.relativeChange, 2)}${range(a.interval)} (instructions: ${c.verdict}, ${signedPercent(c.relativeChange, 2)}; exit ${c.exitCode}; ${c.runDir}).`;
  }
  return `Confirmed by a full comparison by instructions: ${c.verdict}, ${signedPercent(c.relativeChange, 2)}${range(c.interval)} (exit ${c.exitCode}; ${c.runDir}).`;
}

/** The largest confirmed step in one line; null when there is none. */
export function largestStepLine(bisect: PublishedBisect): string | null {
  const step = bisect.analysis.largestStep;
  return step ? `Largest step: ${rangeLine(bisect, step)} ${bisectUnit(bisect)} (${step.kind}).` : null;
}

/** The allocator's callers that moved most between a memory step's two points, from its confirmation: one line. */
export function allocationCallersLine(bisect: PublishedBisect, step: BisectStep): string | null {
  const functions = bisect.confirmations.find((c) => c.good === step.good && c.bad === step.bad)?.allocations?.functions ?? [];
  if (functions.length === 0) return null;
  const signed = (x: number) => `${x > 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}`;
  return `Allocator calls per request moved most in: ${functions
    .slice(0, 5)
    .map((f) => `${f.functionName} ${signed(f.deltaPerOkRequest)}`)
    .join(', ')}.`;
}

/** What the bisection measured, and what a count cannot see. */
export function bisectStatement(bisect: PublishedBisect): string {
  const { config } = bisect;
  const counted = bisect.points.filter((p) => p.counts.length > 0).length;
  const total = bisect.points.length;
  const what =
    config.measure === 'memory'
      ? `Allocations per validated request (${bisectUnit(bisect) === 'allocations/req' ? "calls into the gateway's allocator that obtain memory" : "bytes allocated on V8's heap"})`
      : 'Instructions per validated request';
  return (
    `${what}, counted under callgrind in one batch of ${config.instructions.batchRequests} requests after ${config.instructions.warmupRequests} uncounted ones, each point in a fresh process; ` +
    `${counted} of ${total} points counted. A step is a change of at least ${(config.threshold * 100).toFixed(1)}% between two neighbouring counted points, clear of the scatter measured between processes; ` +
    `a range whose interval rules out ${(config.threshold * 100).toFixed(1)}% and whose ends differ by less than ${(config.splitFraction * config.threshold * 100).toFixed(2)}% is taken as flat, so steps that cancel inside it are not seen. ` +
    'A count cannot see time spent waiting (I/O, locks, the kernel), cache misses or what another process does: confirm a step by time with `gwprof compare` (the reproduce line without --measure instructions).'
  );
}
