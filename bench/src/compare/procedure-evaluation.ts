/**
 * Error rates and time to a verdict of the sequential compare procedure, estimated by replaying it
 * on recorded windows. Real end-to-end runs are too slow to prove a 5% rate; a recording of many
 * A/A blocks (and A/B ones, or A/A with a synthetic `shift`) resampled a thousand times can.
 *
 * Resampling keeps the epoch structure: a replay is a sequence of epochs, each a recorded epoch,
 * whose blocks are taken in a random order (without replacement while the recording has enough,
 * with replacement beyond). Blocks of one replayed epoch therefore share that epoch's lasting
 * process offsets, as live blocks would.
 *
 * How epochs are drawn matters when the recording has few of them (`EpochDraw`): with replacement,
 * a replay often holds one recorded epoch twice, and its variance estimate then understates how far
 * its mean can fall, so false alarms come out too often; drawn as a shuffled deck (each epoch once
 * before any repeats), a replay of half the recording has a mean less variable than fresh epochs',
 * so they come out too rarely. Reporting both brackets the rate.
 */
import { blockLogRatio, decideSequential, mean, median, mulberry32, type BlockObservation, type SequentialDesign, type SequentialOutcome } from '@gwprof/analysis';

export interface RecordedWindow {
  epoch: number;
  block: number;
  side: 'baseline' | 'candidate';
  /** The gating metric of the window, e.g. gateway CPU ms per successful request (> 0). */
  value: number;
}

export interface EvaluationOptions {
  /** Number of replayed comparisons (≥ 1000 for a rate worth quoting). */
  replays: number;
  seed: number;
  /** Relative change applied to the candidate's values (0.05 multiplies them by 1.05); default 0. */
  shift?: number;
  /**
   * Remove the recording's own mean log ratio before the shift (default true), so the replays
   * have exactly the change `shift`: right for A/A recordings, whose recorded mean is chance.
   * Set false to replay an A/B recording with the change it actually has.
   */
  center?: boolean;
  blocksPerEpoch: number;
  /** Machine time per block, restarts included, for minutes to a verdict. */
  secondsPerBlock: number;
  /** Blocks the caller allows; still `continue` after them is `inconclusive`. */
  budgetBlocks: number;
  /** How replays draw recorded epochs (default `replacement`). */
  epochDraw?: EpochDraw;
}

/**
 * `replacement`: every replayed epoch is any recorded one (the bootstrap). `deck`: the recorded
 * epochs in a shuffled order, reshuffled once all have been used (subsampling without replacement).
 */
export type EpochDraw = 'replacement' | 'deck';

export type FinalOutcome = Exclude<SequentialOutcome, 'continue'> | 'inconclusive';
export const FINAL_OUTCOMES: readonly FinalOutcome[] = ['regression', 'no change', 'improvement', 'inconclusive'];

export interface ReplayResult {
  outcome: FinalOutcome;
  /** Blocks measured: where the rule stopped, or the budget. */
  blocks: number;
}

export interface Distribution {
  mean: number;
  median: number;
  p90: number;
}

export interface ProcedureRates {
  replays: number;
  /** Mean x of the recording as recorded, and of the blocks the replays draw from. */
  recordedMeanLogRatio: number;
  replayedMeanLogRatio: number;
  /** Share of replays ending in each outcome. */
  shares: Record<FinalOutcome, number>;
  /** 95% Wilson score interval of each share (binomial sampling error of the replays only). */
  shareIntervals: Record<FinalOutcome, [number, number]>;
  /** Blocks and minutes until a verdict, over replays that reached one (null if none did). */
  blocksToVerdict: Distribution | null;
  minutesToVerdict: Distribution | null;
  /** Mean machine minutes per comparison, inconclusive ones counted at the budget. */
  meanMinutesPerComparison: number;
}

/** Estimate the procedure's outcome shares and time to verdict by resampling recorded windows. */
export function evaluateProcedure(
  windows: readonly RecordedWindow[],
  design: Partial<SequentialDesign>,
  options: EvaluationOptions,
): ProcedureRates {
  checkOptions(options);
  const recorded = recordedEpochs(windows);
  const recordedMeanLogRatio = mean(recorded.flat());
  // Scaling the candidate's values by 1 + shift adds exactly log(1 + shift) to every block's x.
  const offset = Math.log1p(options.shift ?? 0) - (options.center === false ? 0 : recordedMeanLogRatio);
  const epochs = recorded.map((blocks) => blocks.map((x) => x + offset));
  const random = mulberry32(options.seed);
  const results: ReplayResult[] = [];
  for (let i = 0; i < options.replays; i++) {
    results.push(runToVerdict(replaySource(epochs, options.blocksPerEpoch, random, options.epochDraw), design, options.budgetBlocks));
  }
  const rates = summarizeReplays(results, options.secondsPerBlock, options.budgetBlocks);
  return { ...rates, recordedMeanLogRatio, replayedMeanLogRatio: recordedMeanLogRatio + offset };
}

function checkOptions(o: EvaluationOptions): void {
  const positiveInteger = (v: number) => Number.isInteger(v) && v > 0;
  if (!positiveInteger(o.replays)) throw new RangeError(`replays must be a positive integer, got ${o.replays}`);
  if (!positiveInteger(o.blocksPerEpoch)) throw new RangeError(`blocksPerEpoch must be a positive integer, got ${o.blocksPerEpoch}`);
  if (!positiveInteger(o.budgetBlocks)) throw new RangeError(`budgetBlocks must be a positive integer, got ${o.budgetBlocks}`);
  if (!(o.secondsPerBlock > 0)) throw new RangeError(`secondsPerBlock must be > 0, got ${o.secondsPerBlock}`);
  if (o.shift !== undefined && !(o.shift > -1)) throw new RangeError(`shift must be > −1, got ${o.shift}`);
  if (o.epochDraw !== undefined && o.epochDraw !== 'replacement' && o.epochDraw !== 'deck') {
    throw new RangeError(`epochDraw must be "replacement" or "deck", got ${String(o.epochDraw)}`);
  }
}

/**
 * Each recorded epoch's blocks as x values (`blockLogRatio`). Blocks missing a side are dropped;
 * an epoch needs at least one complete block, and the recording at least two such epochs.
 */
export function recordedEpochs(windows: readonly RecordedWindow[]): number[][] {
  const blocks = new Map<number, Map<number, { baseline: number[]; candidate: number[] }>>();
  for (const w of windows) {
    const epoch = blocks.get(w.epoch) ?? new Map<number, { baseline: number[]; candidate: number[] }>();
    blocks.set(w.epoch, epoch);
    const block = epoch.get(w.block) ?? { baseline: [], candidate: [] };
    epoch.set(w.block, block);
    block[w.side].push(w.value);
  }
  const epochs = [...blocks.values()]
    .map((epoch) => [...epoch.values()].filter((b) => b.baseline.length > 0 && b.candidate.length > 0))
    .filter((epoch) => epoch.length > 0)
    .map((epoch) => epoch.map((b) => blockLogRatio(b.baseline, b.candidate)));
  if (epochs.length < 2) throw new RangeError(`the recording needs at least two epochs with complete blocks, has ${epochs.length}`);
  return epochs;
}

/** An endless stream of replayed blocks: recorded epochs drawn by `draw`, blocks shuffled within each. */
export function replaySource(
  epochs: readonly (readonly number[])[],
  blocksPerEpoch: number,
  random: () => number,
  draw: EpochDraw = 'replacement',
): () => BlockObservation {
  const nextEpoch = draw === 'deck' ? deckOf(epochs, random) : () => epochs[Math.floor(random() * epochs.length)]!;
  let epochIndex = -1;
  let queue: number[] = [];
  let taken = 0;
  return () => {
    if (epochIndex < 0 || taken === blocksPerEpoch) {
      epochIndex++;
      queue = shuffled(nextEpoch(), random);
      taken = 0;
    }
    // Past the recorded epoch's length, draw its blocks again with replacement.
    const x = taken < queue.length ? queue[taken]! : queue[Math.floor(random() * queue.length)]!;
    taken++;
    return { epoch: epochIndex, x };
  };
}

/** Each item once in a random order, then again in a new order, endlessly. */
function deckOf<T>(items: readonly T[], random: () => number): () => T {
  let deck: T[] = [];
  return () => {
    if (deck.length === 0) deck = shuffled(items, random);
    return deck.pop()!;
  };
}

function shuffled<T>(values: readonly T[], random: () => number): T[] {
  const out = [...values];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Run the stopping rule look by look on blocks from `next` until a verdict or the budget. */
export function runToVerdict(next: () => BlockObservation, design: Partial<SequentialDesign>, budgetBlocks: number): ReplayResult {
  const blocks: BlockObservation[] = [];
  while (blocks.length < budgetBlocks) {
    blocks.push(next());
    const { outcome } = decideSequential(blocks, design);
    if (outcome !== 'continue') return { outcome, blocks: blocks.length };
  }
  return { outcome: 'inconclusive', blocks: budgetBlocks };
}

/** Outcome shares (with Wilson intervals) and time to a verdict over many replays. */
export function summarizeReplays(
  results: readonly ReplayResult[],
  secondsPerBlock: number,
  budgetBlocks: number,
): Omit<ProcedureRates, 'recordedMeanLogRatio' | 'replayedMeanLogRatio'> {
  const n = results.length;
  const count = (o: FinalOutcome) => results.filter((r) => r.outcome === o).length;
  const shares = Object.fromEntries(FINAL_OUTCOMES.map((o) => [o, count(o) / n])) as Record<FinalOutcome, number>;
  const shareIntervals = Object.fromEntries(FINAL_OUTCOMES.map((o) => [o, wilsonInterval(count(o), n)])) as Record<FinalOutcome, [number, number]>;
  const decided = results.filter((r) => r.outcome !== 'inconclusive').map((r) => r.blocks);
  const blocksToVerdict = decided.length > 0 ? distribution(decided) : null;
  const toMinutes = (blocks: number) => (blocks * secondsPerBlock) / 60;
  const minutesToVerdict = blocksToVerdict && {
    mean: toMinutes(blocksToVerdict.mean),
    median: toMinutes(blocksToVerdict.median),
    p90: toMinutes(blocksToVerdict.p90),
  };
  const allBlocks = results.reduce((s, r) => s + (r.outcome === 'inconclusive' ? budgetBlocks : r.blocks), 0);
  return { replays: n, shares, shareIntervals, blocksToVerdict, minutesToVerdict, meanMinutesPerComparison: toMinutes(allBlocks / n) };
}

/** Mean, median and 90th percentile (nearest rank) of positive counts. */
function distribution(values: readonly number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const p90 = sorted[Math.min(sorted.length - 1, Math.ceil(0.9 * sorted.length) - 1)]!;
  return { mean: mean(sorted), median: median(sorted), p90 };
}

/** Wilson score interval for a binomial share (z = 1.96: 95%). */
export function wilsonInterval(successes: number, n: number, z = 1.96): [number, number] {
  if (n === 0) return [0, 1];
  const p = successes / n;
  const denominator = 1 + (z * z) / n;
  const center = (p + (z * z) / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denominator;
  return [Math.max(0, center - half), Math.min(1, center + half)];
}

export interface RecordingNoise {
  blocks: number;
  epochs: number;
  /** Standard deviation of x between blocks of one epoch (log units): the noise pairing leaves. */
  withinEpochSd: number;
  /** Standard deviation of the epoch effect on x (one-way random-effects ANOVA, truncated at 0):
   * each process pair's lasting offset; about √2 × one process's offset. */
  epochEffectSd: number;
  /** Correlation between two blocks of one epoch, τ² / (σ² + τ²). With K blocks per epoch the
   * variance of a mean is 1 + (K − 1)·ρ times what independent blocks would give. */
  intraEpochCorrelation: number;
}

/** The noise components of a recording, to choose blocks per epoch and check the simulation's assumptions. */
export function recordingNoise(windows: readonly RecordedWindow[]): RecordingNoise {
  const epochs = recordedEpochs(windows);
  const n = epochs.reduce((s, e) => s + e.length, 0);
  if (n === epochs.length) throw new RangeError('recordingNoise needs an epoch with at least two blocks');
  const means = epochs.map((e) => mean(e));
  const grand = epochs.flat().reduce((s, x) => s + x, 0) / n;
  const within = epochs.reduce((s, e, i) => s + e.reduce((t, x) => t + (x - means[i]!) ** 2, 0), 0) / (n - epochs.length);
  const between = epochs.reduce((s, e, i) => s + e.length * (means[i]! - grand) ** 2, 0) / (epochs.length - 1);
  // Average epoch size adjusted for unequal sizes (n0 of the one-way ANOVA).
  const n0 = (n - epochs.reduce((s, e) => s + e.length ** 2, 0) / n) / (epochs.length - 1);
  const epochVariance = Math.max(0, (between - within) / n0);
  return {
    blocks: n,
    epochs: epochs.length,
    withinEpochSd: Math.sqrt(within),
    epochEffectSd: Math.sqrt(epochVariance),
    intraEpochCorrelation: within + epochVariance > 0 ? epochVariance / (within + epochVariance) : 0,
  };
}
