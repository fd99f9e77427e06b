/**
 * Error rates and time to a verdict of `gwprof compare`'s stopping rule (analysis's test on epoch
 * means), estimated by replaying it on recorded comparisons. Real end-to-end runs are too slow to
 * prove a 5% rate; a recording of many A/A epochs (and A/B ones, or A/A with a synthetic `shift`)
 * resampled thousands of times can.
 *
 * An epoch is one pair of processes and gives one value, the mean of its blocks' log ratios: a
 * replay is a sequence of recorded epoch values. How they are drawn matters when the recording has
 * few (`EpochDraw`): with replacement, a replay often holds one epoch twice, so its variance
 * estimate understates how far its mean can fall and false alarms come out too often; drawn as a
 * shuffled deck (each epoch once before any repeats), a replay of half the recording has a mean
 * less variable than fresh epochs', so they come out too rarely. Reporting both brackets the rate.
 */
import { blockLogRatio, decideEpochs, mean, median, mulberry32, type EpochOutcome, type EpochTestDesign } from '@gwprof/analysis';

export interface RecordedWindow {
  epoch: number;
  block: number;
  /** The window's place in its block (the order it ran in). */
  position: number;
  side: 'baseline' | 'candidate';
  /** The gating metric of the window, e.g. gateway CPU ms per successful request (> 0). */
  value: number;
}

/** The test's design, but for its last look, which a replay sets from its budget. */
export type ReplayDesign = Partial<Omit<EpochTestDesign, 'maxEpochs'>>;

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
  /** Machine time per epoch, restarts included, for minutes to a verdict and the last look. */
  secondsPerEpoch: number;
  budgetMinutes: number;
  /** How replays draw recorded epochs (default `replacement`). */
  epochDraw?: EpochDraw;
}

/**
 * `replacement`: every replayed epoch is any recorded one (the bootstrap). `deck`: the recorded
 * epochs in a shuffled order, reshuffled once all have been used (subsampling without replacement).
 */
export type EpochDraw = 'replacement' | 'deck';

export type FinalOutcome = Exclude<EpochOutcome, 'continue'> | 'inconclusive';
export const FINAL_OUTCOMES: readonly FinalOutcome[] = ['regression', 'no change', 'improvement', 'inconclusive'];

export interface ReplayResult {
  outcome: FinalOutcome;
  /** Epochs measured: where the rule stopped, or the last look. */
  epochs: number;
}

export interface Distribution {
  mean: number;
  median: number;
  p90: number;
}

export interface ProcedureRates {
  replays: number;
  /** The last look a comparison of this budget and pace gets. */
  maxEpochs: number;
  /** Mean epoch value of the recording as recorded, and of the values the replays draw from. */
  recordedMeanLogRatio: number;
  replayedMeanLogRatio: number;
  /** Share of replays ending in each outcome. */
  shares: Record<FinalOutcome, number>;
  /** 95% Wilson score interval of each share (binomial sampling error of the replays only). */
  shareIntervals: Record<FinalOutcome, [number, number]>;
  /** Epochs and minutes until a verdict, over replays that reached one (null if none did). */
  epochsToVerdict: Distribution | null;
  minutesToVerdict: Distribution | null;
  /** Mean machine minutes per comparison, inconclusive ones counted at the last look. */
  meanMinutesPerComparison: number;
}

/** The last look of a comparison with this budget at this pace (at least the first look). */
export function maxEpochsFor(budgetMinutes: number, secondsPerEpoch: number, minEpochs: number): number {
  return Math.max(minEpochs, Math.floor((budgetMinutes * 60) / secondsPerEpoch));
}

/** Estimate the rule's outcome shares and time to verdict by resampling recorded epochs. */
export function evaluateProcedure(windows: readonly RecordedWindow[], design: ReplayDesign, options: EvaluationOptions): ProcedureRates {
  checkOptions(options);
  const recorded = recordedEpochValues(windows);
  const recordedMeanLogRatio = mean(recorded);
  // Scaling the candidate's values by 1 + shift adds exactly log(1 + shift) to every epoch's value.
  const offset = Math.log1p(options.shift ?? 0) - (options.center === false ? 0 : recordedMeanLogRatio);
  const values = recorded.map((x) => x + offset);
  const random = mulberry32(options.seed);
  const maxEpochs = maxEpochsFor(options.budgetMinutes, options.secondsPerEpoch, design.minEpochs ?? 4);
  const results: ReplayResult[] = [];
  for (let i = 0; i < options.replays; i++) {
    results.push(runToVerdict(epochSource(values, random, options.epochDraw), { ...design, maxEpochs }));
  }
  const rates = summarizeReplays(results, options.secondsPerEpoch, maxEpochs);
  return { ...rates, maxEpochs, recordedMeanLogRatio, replayedMeanLogRatio: recordedMeanLogRatio + offset };
}

function checkOptions(o: EvaluationOptions): void {
  const positiveInteger = (v: number) => Number.isInteger(v) && v > 0;
  if (!positiveInteger(o.replays)) throw new RangeError(`replays must be a positive integer, got ${o.replays}`);
  if (!(o.secondsPerEpoch > 0)) throw new RangeError(`secondsPerEpoch must be > 0, got ${o.secondsPerEpoch}`);
  if (!(o.budgetMinutes > 0)) throw new RangeError(`budgetMinutes must be > 0, got ${o.budgetMinutes}`);
  if (o.shift !== undefined && !(o.shift > -1)) throw new RangeError(`shift must be > −1, got ${o.shift}`);
  if (o.epochDraw !== undefined && o.epochDraw !== 'replacement' && o.epochDraw !== 'deck') {
    throw new RangeError(`epochDraw must be "replacement" or "deck", got ${String(o.epochDraw)}`);
  }
}

/**
 * The rounds of each recorded epoch: a block's baseline and candidate windows paired in the order
 * they ran, each pair's x = log candidate − log baseline. Blocks missing a side are dropped; the
 * recording needs at least two epochs with a complete pair.
 */
export function recordedRounds(windows: readonly RecordedWindow[]): number[][] {
  const epochs = new Map<number, Map<number, RecordedWindow[]>>();
  for (const w of windows) {
    const blocks = epochs.get(w.epoch) ?? new Map<number, RecordedWindow[]>();
    epochs.set(w.epoch, blocks);
    blocks.set(w.block, [...(blocks.get(w.block) ?? []), w]);
  }
  const rounds = [...epochs.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, blocks]) => [...blocks.values()].flatMap(roundsOfBlock))
    .filter((epoch) => epoch.length > 0);
  if (rounds.length < 2) throw new RangeError(`the recording needs at least two epochs with complete blocks, has ${rounds.length}`);
  return rounds;
}

function roundsOfBlock(block: readonly RecordedWindow[]): number[] {
  const inOrder = [...block].sort((a, b) => a.position - b.position);
  const baseline = inOrder.filter((w) => w.side === 'baseline');
  const candidate = inOrder.filter((w) => w.side === 'candidate');
  return Array.from({ length: Math.min(baseline.length, candidate.length) }, (_, i) => blockLogRatio([baseline[i]!.value], [candidate[i]!.value]));
}

/** Each recorded epoch's value as the live test sees it: the mean of its blocks' x. */
export function recordedEpochValues(windows: readonly RecordedWindow[]): number[] {
  recordedRounds(windows);
  const epochs = new Map<number, Map<number, { baseline: number[]; candidate: number[] }>>();
  for (const w of windows) {
    const blocks = epochs.get(w.epoch) ?? new Map<number, { baseline: number[]; candidate: number[] }>();
    epochs.set(w.epoch, blocks);
    const block = blocks.get(w.block) ?? { baseline: [], candidate: [] };
    blocks.set(w.block, block);
    block[w.side].push(w.value);
  }
  return [...epochs.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, blocks]) => [...blocks.values()].filter((b) => b.baseline.length > 0 && b.candidate.length > 0).map((b) => blockLogRatio(b.baseline, b.candidate)))
    .filter((xs) => xs.length > 0)
    .map((xs) => mean(xs));
}

/** An endless stream of replayed epoch values, drawn by `draw`. */
export function epochSource(values: readonly number[], random: () => number, draw: EpochDraw = 'replacement'): () => number {
  return draw === 'deck' ? deckOf(values, random) : () => values[Math.floor(random() * values.length)]!;
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

/** Run the stopping rule look by look on epochs from `next` until a verdict or the last look. */
export function runToVerdict(next: () => number, design: ReplayDesign & { maxEpochs: number }): ReplayResult {
  const values: number[] = [];
  while (values.length < design.maxEpochs) {
    values.push(next());
    const { outcome } = decideEpochs(values, design);
    if (outcome !== 'continue') return { outcome, epochs: values.length };
  }
  return { outcome: 'inconclusive', epochs: design.maxEpochs };
}

/** Outcome shares (with Wilson intervals) and time to a verdict over many replays. */
export function summarizeReplays(
  results: readonly ReplayResult[],
  secondsPerEpoch: number,
  maxEpochs: number,
): Omit<ProcedureRates, 'recordedMeanLogRatio' | 'replayedMeanLogRatio' | 'maxEpochs'> {
  const n = results.length;
  const count = (o: FinalOutcome) => results.filter((r) => r.outcome === o).length;
  const shares = Object.fromEntries(FINAL_OUTCOMES.map((o) => [o, count(o) / n])) as Record<FinalOutcome, number>;
  const shareIntervals = Object.fromEntries(FINAL_OUTCOMES.map((o) => [o, wilsonInterval(count(o), n)])) as Record<FinalOutcome, [number, number]>;
  const decided = results.filter((r) => r.outcome !== 'inconclusive').map((r) => r.epochs);
  const epochsToVerdict = decided.length > 0 ? distribution(decided) : null;
  const toMinutes = (epochs: number) => (epochs * secondsPerEpoch) / 60;
  const minutesToVerdict = epochsToVerdict && {
    mean: toMinutes(epochsToVerdict.mean),
    median: toMinutes(epochsToVerdict.median),
    p90: toMinutes(epochsToVerdict.p90),
  };
  const allEpochs = results.reduce((s, r) => s + (r.outcome === 'inconclusive' ? maxEpochs : r.epochs), 0);
  return { replays: n, shares, shareIntervals, epochsToVerdict, minutesToVerdict, meanMinutesPerComparison: toMinutes(allEpochs / n) };
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
  epochs: number;
  /** Rounds (one window of each side) per epoch, on average. */
  roundsPerEpoch: number;
  /** Standard deviation of a round's x within one pair of processes (log units). */
  withinEpochSd: number;
  /** Standard deviation of each pair of processes' lasting offset on x (one-way random-effects ANOVA, truncated at 0). */
  epochEffectSd: number;
  /** Standard deviation of the epochs' values as the test sees them (log units). */
  epochSd: number;
}

/** The noise components of a recording: between rounds of one pair of processes, and between pairs. */
export function recordingNoise(windows: readonly RecordedWindow[]): RecordingNoise {
  const epochs = recordedRounds(windows);
  const n = epochs.reduce((s, e) => s + e.length, 0);
  if (n === epochs.length) throw new RangeError('recordingNoise needs an epoch with at least two rounds');
  const means = epochs.map((e) => mean(e));
  const grand = epochs.flat().reduce((s, x) => s + x, 0) / n;
  const within = epochs.reduce((s, e, i) => s + e.reduce((t, x) => t + (x - means[i]!) ** 2, 0), 0) / (n - epochs.length);
  const between = epochs.reduce((s, e, i) => s + e.length * (means[i]! - grand) ** 2, 0) / (epochs.length - 1);
  // Average epoch size adjusted for unequal sizes (n0 of the one-way ANOVA).
  const n0 = (n - epochs.reduce((s, e) => s + e.length ** 2, 0) / n) / (epochs.length - 1);
  const values = recordedEpochValues(windows);
  const m = mean(values);
  return {
    epochs: epochs.length,
    roundsPerEpoch: n / epochs.length,
    withinEpochSd: Math.sqrt(within),
    epochEffectSd: Math.sqrt(Math.max(0, (between - within) / n0)),
    epochSd: Math.sqrt(values.reduce((s, v) => s + (v - m) ** 2, 0) / Math.max(1, values.length - 1)),
  };
}

/**
 * Rounds per epoch that reach a given precision in the least machine time, for two-level noise
 * (Kalibera & Jones, "Rigorous benchmarking in reasonable time"): m* = (s_w / s_b) · √(c_p / c_r),
 * with s_w a round's noise within a pair of processes, s_b the pair's offset, c_p the time to
 * start and warm a pair and c_r the time of one round. Infinity when the pairs add no noise.
 */
export function optimalRoundsPerEpoch(noise: Pick<RecordingNoise, 'withinEpochSd' | 'epochEffectSd'>, pairSeconds: number, roundSeconds: number): number {
  if (noise.epochEffectSd === 0) return Infinity;
  return (noise.withinEpochSd / noise.epochEffectSd) * Math.sqrt(pairSeconds / roundSeconds);
}
