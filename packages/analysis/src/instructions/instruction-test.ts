/**
 * The verdict of a comparison by instructions. Each epoch is a fresh pair of processes under
 * callgrind; its x is the mean log of the candidate's batches (instructions per successful
 * request) minus the mean log of the baseline's. The same group-sequential test as for time
 * (epoch-test.ts) decides on the epochs' x, with its variance floored at the noise measured
 * between processes, since counts can repeat exactly and a zero spread proves nothing.
 */
import type { AllocationKind, InstructionBatch, LevelDecision, MetricComparison } from '@gwprof/results';
import { decideEpochs, epochValues, type EpochBlock, type EpochTestDesign } from '../compare/epoch-test.js';
import { blockLogRatio, summarize } from '../compare/compare-windows.js';
import { comparisonVerdict, type ComparisonVerdict } from '../compare/verdict.js';
import { mean } from '../descriptive.js';
import { studentTQuantile } from '../compare/student-t.js';
import { disturbedEpochs, disturbedNote } from './disturbed-epochs.js';

/** Instructions are counted at one level: requests one at a time. */
export const INSTRUCTION_LEVEL = 1;

/** The epoch test's design, the statistic being the mean; minEpochSd is the measured noise between processes. */
export type InstructionTestDesign = Omit<EpochTestDesign, 'statistic' | 'holdWithoutFarthest'>;

function usable(batch: InstructionBatch): number | null {
  const v = batch.instructionsPerOkRequest;
  return v !== null && v > 0 && Number.isFinite(v) ? v : null;
}

/** Each epoch with batches on both sides, as one observation: its x. */
export function instructionObservations(batches: readonly InstructionBatch[]): EpochBlock[] {
  return epochObservations(batches, usable);
}

/** Each epoch with a per-request value on both sides: the log of the candidate's over the baseline's. */
function epochObservations(batches: readonly InstructionBatch[], perRequest: (b: InstructionBatch) => number | null): EpochBlock[] {
  const epochs = [...new Set(batches.map((b) => b.epoch))].sort((a, b) => a - b);
  return epochs.flatMap((epoch) => {
    const values = (side: InstructionBatch['side']) =>
      batches
        .filter((b) => b.epoch === epoch && b.side === side)
        .map(perRequest)
        .filter((v): v is number => v !== null);
    const baseline = values('baseline');
    const candidate = values('candidate');
    return baseline.length > 0 && candidate.length > 0 ? [{ epoch, x: blockLogRatio(baseline, candidate) }] : [];
  });
}

/** A batch with any request that failed validation: the comparison is invalid. */
export function failedBatches(batches: readonly InstructionBatch[]): InstructionBatch[] {
  return batches.filter((b) => b.ok < b.requests);
}

export function decideInstructions(batches: readonly InstructionBatch[], design: InstructionTestDesign): LevelDecision {
  return decidePerRequest(batches, design, usable);
}

/**
 * The test on any per-request figure of the batches (instructions, allocations), over the epochs
 * the instructions do not set aside (epochs far from the others on both sides).
 */
export function decidePerRequest(
  batches: readonly InstructionBatch[],
  design: InstructionTestDesign,
  perRequest: (b: InstructionBatch) => number | null,
): LevelDecision {
  const disturbed = disturbedEpochs(batches, design.threshold);
  const setAside = new Set(disturbed.map((d) => d.epoch));
  const observations = epochObservations(batches, perRequest).filter((o) => !setAside.has(o.epoch));
  const looks = planInLooks(
    design,
    observations.map((o) => o.epoch),
    Math.max(0, ...batches.map((b) => b.epoch)),
  );
  const base = {
    alpha: design.alpha,
    maxEpochs: looks.maxEpochs,
    blocks: observations.length,
    ...(disturbed.length > 0 ? { setAsideEpochs: disturbed.map((d) => d.epoch) } : {}),
  };
  if (observations.length === 0)
    return { ...base, outcome: 'continue', epochs: 0, relativeChange: 0, interval: null, reason: 'no epoch with batches on both sides yet' };
  const decision = decideEpochs(epochValues(observations), { ...design, ...looks });
  const note = disturbedNote(disturbed);
  return {
    ...base,
    outcome: decision.outcome,
    epochs: decision.epochs,
    relativeChange: decision.relativeChange,
    interval: decision.interval,
    reason: note ? `${decision.reason}; ${note}` : decision.reason,
  };
}

/** The comparison's verdict from its batches; also whether counting more could change it. */
export function judgeInstructions(batches: readonly InstructionBatch[], design: InstructionTestDesign): ComparisonVerdict {
  const decisions = new Map([[INSTRUCTION_LEVEL, decideInstructions(batches, design)]]);
  const invalid = failedBatches(batches).map(
    (b) =>
      `${b.side} batch ${b.epoch}.${b.batch}: ${b.requests - b.ok} of ${b.requests} responses failed validation${b.failureSamples[0] ? ` (${b.failureSamples[0].message})` : ''}`,
  );
  return comparisonVerdict(decisions, invalid, { maxEpochs: decisions.get(INSTRUCTION_LEVEL)!.maxEpochs, label: () => 'instructions per request' });
}

/**
 * A plan re-fixed by epochs (lastLooks) as looks: an epoch set aside or counted on one side only is
 * no look, so the looks left after the nth are the epochs the plan left after that look's epoch.
 * A plan fixed once is kept as it is.
 */
function planInLooks(design: InstructionTestDesign, lookEpochs: readonly number[], epochsSoFar: number): { maxEpochs: number; lastLooks?: number[] } {
  if (!design.lastLooks) return { maxEpochs: design.maxEpochs };
  const lastLooks = lookEpochs.slice(design.minEpochs - 1).map((epoch, i) => {
    const planned = design.lastLooks![epoch - design.minEpochs] ?? design.maxEpochs;
    return design.minEpochs + i + Math.max(0, planned - epoch);
  });
  const maxEpochs = Math.max(design.minEpochs, design.maxEpochs - (epochsSoFar - lookEpochs.length));
  return { maxEpochs, lastLooks };
}

/** The gating metric summarised: each side's batches, and the change from the epochs with a plain 95% interval. */
export function instructionMetric(batches: readonly InstructionBatch[]): MetricComparison {
  return perRequestMetric(batches, usable, 'instructionsPerOkRequest', 'instructions/req');
}

/**
 * A native gateway's allocations per successful request, counted in the same batches (allocation-calls.ts):
 * summarised like the count, never gating; null when no batch of either side has them.
 */
export function allocationMetric(batches: readonly InstructionBatch[]): MetricComparison | null {
  const kind = allocationKind(batches);
  if (kind === null) return null;
  return perRequestMetric(
    batches,
    allocationsPerOkRequest(kind),
    kind === 'allocator calls' ? 'allocationsPerOkRequest' : 'allocatedBytesPerOkRequest',
    allocationUnit(kind),
  );
}

/** What both sides' batches count as allocations; null when the sides do not count the same thing (a Node side against a native one) or neither counts any. */
export function allocationKind(batches: readonly InstructionBatch[]): AllocationKind | null {
  const both = (kind: AllocationKind) =>
    (['baseline', 'candidate'] as const).every((side) => batches.some((b) => b.side === side && allocationsPerOkRequest(kind)(b) !== null));
  if (both('allocator calls')) return 'allocator calls';
  return both('V8 bytes') ? 'V8 bytes' : null;
}

export function allocationUnit(kind: AllocationKind): string {
  return kind === 'allocator calls' ? 'allocations/req' : 'bytes/req';
}

/** A batch's allocations per validated request of that kind; null when it has none or no request passed. */
export function allocationsPerOkRequest(kind: AllocationKind): (b: InstructionBatch) => number | null {
  return (b) => {
    const count = kind === 'allocator calls' ? b.allocationCalls : b.allocatedBytes;
    return count != null && count > 0 && b.ok > 0 ? count / b.ok : null;
  };
}

/** A per-request figure of the batches: each side's values, and the change from the epochs' log ratios with a plain 95% t interval. */
export function perRequestMetric(
  batches: readonly InstructionBatch[],
  perRequest: (b: InstructionBatch) => number | null,
  metric: string,
  unit: string,
): MetricComparison {
  const side = (s: InstructionBatch['side']) =>
    summarize(
      batches
        .filter((b) => b.side === s)
        .map(perRequest)
        .filter((v): v is number => v !== null),
    );
  const xs = epochObservations(batches, perRequest).map((o) => o.x);
  const base = { metric, unit, higherIsBetter: false, baseline: side('baseline'), candidate: side('candidate') };
  if (xs.length === 0) return { ...base, relativeChange: null, interval: null, confidence: null, method: 'no epoch with batches on both sides' };
  const m = mean(xs);
  if (xs.length < 2) return { ...base, relativeChange: Math.expm1(m), interval: null, confidence: null, method: 'one epoch: no interval' };
  const sd = Math.sqrt(xs.reduce((sum, x) => sum + (x - m) ** 2, 0) / (xs.length - 1));
  const half = studentTQuantile(0.975, xs.length - 1) * (sd / Math.sqrt(xs.length));
  return {
    ...base,
    relativeChange: Math.expm1(m),
    interval: [Math.expm1(m - half), Math.expm1(m + half)],
    confidence: 0.95,
    method: `ratio of geometric means from ${xs.length} epochs; 95% t interval, not adjusted for the sequential stop (the verdict's interval is)`,
  };
}
