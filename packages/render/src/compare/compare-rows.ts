/** The plain-text pieces every compare renderer shares: rows, labels, verdict words. */
import {
  loadLabel,
  type AllocationComparison,
  type AllocationMove,
  type BucketDelta,
  type CompareLevel,
  type FunctionMove,
  type MetricComparison,
  type PublishedCompare,
} from '@gwprof/results';
import { NONE, ciRange, fixed, metricValue, signedPercent } from '../format.js';
import { functionDisplayName, functionLocation } from '../function-names.js';
import { upstreamUnseenWarning } from '../upstream-unseen.js';
import { allocationBannerWord } from './allocation-verdict.js';
import { upstreamUnseenBySide } from '@gwprof/analysis';

const METRIC_LABELS: Record<string, string> = {
  rps: 'throughput (ok req/s)',
  cpuMsPerOkRequest: 'gateway CPU per ok request',
  instructionsPerOkRequest: 'gateway instructions per ok request',
  allocationsPerOkRequest: 'gateway allocations per ok request (calls into its allocator)',
  allocatedBytesPerOkRequest: "gateway bytes allocated per ok request (V8's heap)",
  p50: 'p50 latency',
  p99: 'p99 latency',
  rssMaxMB: 'peak RSS',
  fanout: 'fan-out',
};

export function metricLabel(metric: string): string {
  return METRIC_LABELS[metric] ?? metric;
}

/**
 * Whether a metric moved in the bad direction, for colouring: for the gated metric the level's
 * verdict says so; for the others only an interval that excludes 0 does (a point estimate's sign,
 * +0.0% included, colours nothing). null: no colour.
 */
export function changeIsWorse(m: MetricComparison, level: CompareLevel): boolean | null {
  if (m === level.gating) {
    const outcome = level.decision?.outcome;
    return outcome === 'regression' ? true : outcome === 'improvement' ? false : null;
  }
  if (!m.interval || (m.interval[0] <= 0 && m.interval[1] >= 0)) return null;
  const up = m.interval[0] > 0;
  return m.higherIsBetter ? !up : up;
}

/** Two finished runs compared: deltas, no interval, no verdict. */
export function isDeltasOnly(compare: PublishedCompare): boolean {
  return compare.mode === 'runs';
}

export const METRIC_HEADERS = ['metric', 'unit', 'baseline', 'candidate', 'change', 'interval', 'windows b/c'];

/** The metric table's headers for a level: a comparison by instructions counts batches, not windows. */
export function metricHeaders(level: Pick<CompareLevel, 'gating'>): string[] {
  return level.gating.metric === 'instructionsPerOkRequest' ? [...METRIC_HEADERS.slice(0, -1), 'batches b/c'] : METRIC_HEADERS;
}

/** A metric row: medians per side, the change (ratio of geometric means), its interval and level. */
export function metricCells(m: MetricComparison): string[] {
  const interval = m.interval ? `${ciRange(m.interval)} ${Math.round((m.confidence ?? 0) * 100)}%` : NONE;
  // Geometric means: the change compares exactly these (with equal windows per side in each block).
  const side = (s: MetricComparison['baseline']) => metricValue(Number.isNaN(s.geometricMean) ? s.median : s.geometricMean);
  return [metricLabel(m.metric), m.unit, side(m.baseline), side(m.candidate), signedPercent(m.relativeChange), interval, `${m.baseline.n}/${m.candidate.n}`];
}

/**
 * The level's decision in one sentence, read off the interval that decided it: words and numbers
 * are the same statement.
 */
export function decisionText(level: CompareLevel, threshold: number | null): string {
  const d = level.decision;
  if (!d) return 'one run per side: no decision';
  const counted = level.gating.metric === 'instructionsPerOkRequest';
  const what = counted ? 'instructions' : 'CPU';
  const blocks = counted ? '' : ` (${d.blocks} block${d.blocks === 1 ? '' : 's'})`;
  const where = `${what} per ok request ${signedPercent(d.relativeChange)} over ${d.epochs} epoch${d.epochs === 1 ? '' : 's'}${blocks}`;
  if (!d.interval) return `${where}: no verdict yet (${d.reason})`;
  const interval = `${Math.round((1 - 2 * d.alpha) * 100)}% interval [${signedPercent(d.interval.low)}, ${signedPercent(d.interval.high)}], adjusted for a look after every epoch up to ${d.maxEpochs}`;
  const limit = threshold === null ? 'the threshold' : `±${Number((threshold * 100).toFixed(2))}%`;
  const meaning: Record<typeof d.outcome, string> = {
    'no change': `it lies within ${limit}: no change that large`,
    regression: `it lies above 0: the candidate ${counted ? 'executes more instructions' : 'uses more CPU'} per request`,
    improvement: `it lies below 0: the candidate ${counted ? 'executes fewer instructions' : 'uses less CPU'} per request`,
    continue: `it holds 0 and reaches past ${limit}: not decided`,
  };
  return `${where}; ${interval}; ${meaning[d.outcome]}`;
}

/** What the verdict measured and what it cannot see, one line each; [] for files published before it was stated. */
/** What each side's answers were checked against, for the setup: the goldens, or none (--expect-none). */
export function goldensText(config: PublishedCompare['config']): string {
  if (config.expectNone) return 'none (--expect-none): status, JSON and errors only';
  const baseline = config.expect ?? 'none recorded';
  return config.candidateExpect ? `baseline ${baseline}, candidate ${config.candidateExpect} (its own)` : `${baseline} (both sides)`;
}

export function measureLines(compare: PublishedCompare): string[] {
  const m = compare.analysis.measure;
  if (!m || compare.mode === 'runs') return [];
  return [`Measured: ${m.measured}.`, `It cannot see: ${m.cannotSee.join('; ')}.`, ...m.notes.map((note) => `Note: ${note}.`)];
}

/** The moves of 0.005 ms per request or more, largest first (the record keeps buckets in display order). */
export function largestMoves<T extends BucketDelta | FunctionMove>(moves: readonly T[], n = 5): T[] {
  return moves
    .filter((m) => Math.abs(m.deltaMsPerOkRequest) >= 0.005)
    .sort((x, y) => Math.abs(y.deltaMsPerOkRequest) - Math.abs(x.deltaMsPerOkRequest))
    .slice(0, n);
}

/** The moves beyond their own noise, largest first. */
export function movedBeyondNoise<T extends BucketDelta | FunctionMove>(moves: readonly T[]): T[] {
  return largestMoves(
    moves.filter((m) => m.noise?.moved === true),
    moves.length,
  );
}

/** "fetch +0.42 ms/req (2.91 → 3.33) [+0.31, +0.53]". */
export function bucketMoveText(b: BucketDelta): string {
  return `${b.bucket} ${signedMs(b.deltaMsPerOkRequest)} ms/req (${fixed(b.baselineMsPerOkRequest, 3)} → ${fixed(b.candidateMsPerOkRequest, 3)})${b.noise ? ` [${signedMs(b.noise.interval[0])}, ${signedMs(b.noise.interval[1])}]` : ''}`;
}

/**
 * What the bucket moves say in one line: the ones beyond their noise; or none, and the largest
 * within it; or, for two finished runs (noise unknown), the largest.
 */
export function bucketMovesLine(buckets: readonly BucketDelta[]): string {
  const noise = buckets.find((b) => b.noise)?.noise;
  const largest = largestMoves(buckets, 3).map(bucketMoveText).join(', ');
  if (!noise)
    return largest
      ? `CPU buckets that moved most (ms per successful request; one run per side, noise unknown): ${largest}`
      : 'No CPU bucket moved by 0.005 ms per request or more.';
  const moved = movedBeyondNoise(buckets);
  const family = `intervals from the epochs' paired differences, holding for all ${noise.familySize} buckets together at ${Math.round(noise.familyConfidence * 100)}%`;
  if (moved.length > 0) return `CPU buckets that moved beyond their noise (ms per successful request; ${family}): ${moved.map(bucketMoveText).join(', ')}`;
  return `No CPU bucket moved beyond its noise (${family})${largest ? `; the largest moves: ${largest}` : ''}.`;
}

/** The heading of the functions' table: how many moved beyond their noise, and over what family. */
export function functionMovesHeading(functions: readonly FunctionMove[]): string {
  const noise = functions.find((f) => f.noise)?.noise;
  if (!noise) return 'Functions whose self time per successful request moved most (one run per side, noise unknown)';
  const moved = functions.filter((f) => f.noise?.moved).length;
  return `Functions whose self time per successful request moved most: ${moved === 0 ? 'none' : moved} beyond its noise (intervals holding for all ${noise.familySize.toLocaleString('en-US')} functions seen, together, at ${Math.round(noise.familyConfidence * 100)}%)`;
}

export const FUNCTION_HEADERS = ['change ms/req', 'interval', 'beyond noise', 'baseline', 'candidate', 'bucket', 'function', 'location'];

export function functionCells(f: FunctionMove): string[] {
  const interval = f.noise ? `[${signedMs(f.noise.interval[0])}, ${signedMs(f.noise.interval[1])}]` : NONE;
  const beyond = f.noise ? (f.noise.moved ? 'yes' : 'no') : NONE;
  return [
    signedMs(f.deltaMsPerOkRequest),
    interval,
    beyond,
    fixed(f.baselineMsPerOkRequest, 3),
    fixed(f.candidateMsPerOkRequest, 3),
    f.bucket,
    functionDisplayName(f),
    functionLocation(f),
  ];
}

/**
 * What each side allocated per successful request, the change with its interval from the epochs,
 * GC beside it, and, when the candidate allocates more beyond noise, whether the gc bucket grew
 * with it: a regression that is really more garbage says so.
 */
export function allocationLine(level: Pick<CompareLevel, 'allocation' | 'buckets'>): string | null {
  const a = level.allocation;
  if (!a) return null;
  const change = a.baselineBytesPerOkRequest > 0 ? a.deltaBytesPerOkRequest / a.baselineBytesPerOkRequest : null;
  const interval = a.noise
    ? ` [${signedKb(a.noise.interval[0])}, ${signedKb(a.noise.interval[1])}] ${Math.round(a.noise.confidence * 100)}%`
    : ' (one run per side, noise unknown)';
  const gc =
    a.gcMsPerOkRequest.baseline !== null && a.gcMsPerOkRequest.candidate !== null
      ? `; GC ${fixed(a.gcMsPerOkRequest.baseline, 3)} → ${fixed(a.gcMsPerOkRequest.candidate, 3)} ms/req (Node's account)`
      : '';
  const head = `Allocation per successful request: ${kb(a.baselineBytesPerOkRequest)} → ${kb(a.candidateBytesPerOkRequest)} kB (${signedKb(a.deltaBytesPerOkRequest)} kB, ${signedPercent(change)})${interval}${gc}`;
  if (!a.noise) return `${head}.`;
  if (!a.noise.moved) return `${head}: within its noise.`;
  if (a.deltaBytesPerOkRequest < 0) return `${head}: the candidate allocates less, beyond noise.`;
  const gcBucket = level.buckets.find((b) => b.bucket === 'gc');
  const gcGrew = gcBucket?.noise?.moved && gcBucket.deltaMsPerOkRequest > 0;
  return `${head}: the candidate allocates more, beyond noise${gcGrew ? `, and the gc bucket grew with it (${signedMs(gcBucket.deltaMsPerOkRequest)} ms/req): part of the CPU change is collecting the extra garbage` : ''}.`;
}

/** Each allocating bucket's bytes per request on both sides, largest move first; moves beyond noise say so. */
export function allocationBucketLine(allocation: Pick<AllocationComparison, 'buckets'>): string | null {
  if (allocation.buckets.length === 0) return null;
  const parts = allocation.buckets.map((b) => {
    const beyond = b.noise?.moved ? ', beyond noise' : '';
    return `${b.bucket} ${kb(b.baselineBytesPerOkRequest)} → ${kb(b.candidateBytesPerOkRequest)} (${signedKb(b.deltaBytesPerOkRequest)}${beyond})`;
  });
  return `By bucket, kB per successful request: ${parts.join('; ')}.`;
}

export function allocationMovesHeading(functions: readonly AllocationMove[]): string {
  const noise = functions.find((f) => f.noise)?.noise;
  const moved = functions.filter((f) => f.noise?.moved).length;
  const frames = '; by physical frames: a function V8 inlined is charged to its caller';
  return noise
    ? `Functions whose allocation per successful request moved most: ${moved === 0 ? 'none' : moved} beyond its noise (intervals holding for all ${noise.familySize.toLocaleString('en-US')} allocating functions, together, at ${Math.round(noise.familyConfidence * 100)}%${frames})`
    : `Functions whose allocation per successful request moved most (noise unknown${frames})`;
}

export const ALLOCATION_HEADERS = ['change kB/req', 'interval', 'beyond noise', 'baseline', 'candidate', 'bucket', 'function', 'location'];

export function allocationMoveCells(f: AllocationMove): string[] {
  const interval = f.noise ? `[${signedKb(f.noise.interval[0])}, ${signedKb(f.noise.interval[1])}]` : NONE;
  const beyond = f.noise ? (f.noise.moved ? 'yes' : 'no') : NONE;
  return [
    signedKb(f.deltaBytesPerOkRequest),
    interval,
    beyond,
    kb(f.baselineBytesPerOkRequest),
    kb(f.candidateBytesPerOkRequest),
    f.bucket,
    functionDisplayName(f),
    functionLocation(f),
  ];
}

/** The allocation moves of 0.1 kB per request or more, largest first. */
export function largestAllocationMoves(allocation: AllocationComparison | null, n = 10): AllocationMove[] {
  return (allocation?.functions ?? []).filter((f) => Math.abs(f.deltaBytesPerOkRequest) >= 100).slice(0, n);
}

const kb = (bytes: number) => fixed(bytes / 1000, 1);
const signedKb = (bytes: number) => `${bytes >= 0 ? '+' : ''}${fixed(bytes / 1000, 1)}`;

function signedMs(value: number): string {
  return `${value >= 0 ? '+' : ''}${fixed(value, 3)}`;
}

export function overallVerdictText(compare: PublishedCompare): string {
  const words: Record<PublishedCompare['analysis']['verdict'], string> = {
    regression: 'REGRESSION',
    'no change': 'NO CHANGE',
    improvement: 'IMPROVEMENT',
    inconclusive: 'INCONCLUSIVE',
    invalid: 'INVALID COMPARISON',
    error: 'NO VERDICT (THE COMPARISON FAILED)',
    'deltas only': 'DELTAS ONLY',
  };
  const instructions = words[compare.analysis.verdict] ?? String(compare.analysis.verdict).toUpperCase();
  const allocations = allocationBannerWord(compare.analysis.allocationVerdict);
  return allocations ? `${instructions}; ${allocations}` : instructions;
}

/** Good, bad or neutral for the overall verdict banner. */
export function verdictTone(compare: PublishedCompare): 'ok' | 'bad' | 'warn' {
  const v = compare.analysis.verdict;
  if (compare.analysis.allocationVerdict?.decision.outcome === 'regression' && v !== 'inconclusive') return 'bad';
  if (v === 'no change' || v === 'improvement') return 'ok';
  if (v === 'regression' || v === 'invalid' || v === 'error') return 'bad';
  return 'warn';
}

/** "epoch 2 block 5 · window 3 candidate c=20". */
export function windowLabel(w: PublishedCompare['windows'][number]): string {
  return `epoch ${w.epoch} block ${w.block} · window ${w.position + 1} ${w.side} ${loadLabel(w.step.load)}`;
}

/** The design in a sentence or two, for the comment's and the page's setup. */
export function designText(compare: PublishedCompare): { measurement: string; test: string } | null {
  const d = compare.config.design;
  if (!d) return null;
  if (d.measure === 'instructions' && d.instructions) return instructionDesignText(compare, d.instructions);
  const seeds = d.seedPerEpoch ? '; both sides share a fresh V8 seed each epoch' : '';
  const flags = d.v8Flags.length > 0 ? `; V8 flags on both sides: ${d.v8Flags.join(' ')}` : '';
  const gc = d.gcBeforeWindow ? '; a full GC forced on each side before each of its windows' : '';
  const windows = `${d.windowsPerSide} window${d.windowsPerSide === 1 ? '' : 's'}`;
  const how = d.simultaneous
    ? `${windows} in which both sides are loaded at the same time, each at the level on the shared gateway core`
    : `${windows} per side in random order`;
  return {
    measurement: `each epoch restarts both sides, warms ${compare.epochs.some((e) => e.warmedTogether) ? 'both up at the same time, each' : 'each up'} until its CPU per request stops falling (at most ${d.warmupSec} s), then measures ${d.blocksPerEpoch} block${d.blocksPerEpoch === 1 ? '' : 's'} per level of ${how}, ${d.windowSec} s each after a ${d.leadInSec} s lead-in${gc}${seeds}${flags}`,
    test: `t-test on epoch means of CPU ms per ok request, repeated after every epoch with error spending (α ${d.alpha} per direction, split across levels, ${looksText(compare)}), first look after ${d.minEpochs} epochs; no change within ±${Number((d.threshold * 100).toFixed(2))}%; budget ${d.budgetMinutes} min${budgetShortText(compare)}`,
  };
}

function instructionDesignText(
  compare: PublishedCompare,
  i: NonNullable<NonNullable<PublishedCompare['config']['design']>['instructions']>,
): { measurement: string; test: string } {
  const d = compare.config.design!;
  // A native gateway gets neither V8 flags nor a GC before its batches: only Node sides are told of.
  const node = (compare.instructionEpochs ?? []).some((e) => e.sides.baseline.node || e.sides.candidate.node);
  const nodeOnly = node ? `, each Node side's after a full GC; V8 flags on Node sides: ${i.v8Flags.join(' ')}` : '';
  return {
    measurement: `each epoch starts both sides at once under callgrind (${i.valgrindArgs.join(' ')}), sends each ${i.warmupRequests} uncounted requests one at a time, then counts ${i.batchesPerEpoch} batch${i.batchesPerEpoch === 1 ? '' : 'es'} of the scenario's first ${i.batchRequests} requests per side${nodeOnly}`,
    test: `t-test on epoch means of instructions per ok request (sd floored at ${(i.minEpochSd * 100).toFixed(2)}%), repeated after every epoch with error spending (α ${d.alpha} per direction, ${looksText(compare)}), first look after ${d.minEpochs} epochs; no change within ±${Number((d.threshold * 100).toFixed(2))}%; budget ${d.budgetMinutes} min${budgetShortText(compare)}`,
  };
}

/** The plan of looks in words: how far it reached, and whether the pace re-fixed it after every epoch. */
function looksText(compare: PublishedCompare): string {
  const plan = compare.plan;
  if (!plan) return 'no look reached: the run stopped before its plan of looks was fixed';
  return plan.lastLooks ? `up to ${plan.maxEpochs} epochs, re-planned from the epochs' pace after each` : `up to ${plan.maxEpochs} epochs`;
}

/** When the budget could not fit the epochs a verdict needs: by how much, and the --budget that would. */
function budgetShortText(compare: PublishedCompare): string {
  const fit = compare.budgetFit;
  if (!fit || fit.budgetMinutesNeeded === null) return '';
  return `; the budget fit ${fit.epochsThatFit} of the ${fit.epochsNeeded} epochs a verdict needs at ${(fit.epochSeconds / 60).toFixed(1)} min an epoch: --budget ${fit.budgetMinutesNeeded} would fit them`;
}

/** One line per side whose successful answers reached none of the subgraphs gwprof counts, in some of its windows. */
export function upstreamUnseenCompareLines(compare: Pick<PublishedCompare, 'windows'>): string[] {
  return upstreamUnseenBySide(compare.windows).map(
    ({ side, unseen, windows }) =>
      `${upstreamUnseenWarning(`The ${side}'s subgraphs`, 'its gateway answered successfully', ` in ${unseen} of its ${windows} windows`)}.`,
  );
}
