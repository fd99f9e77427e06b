/**
 * The stopping rule behind `gwprof compare`'s verdict: a group-sequential t-test on epoch means.
 *
 * An epoch is one pair of gateway processes (both sides restarted), and what it measured is one
 * number: the mean over its blocks of x = mean(log candidate windows) − mean(log baseline windows).
 * Each process carries a lasting offset of its own (its JIT decisions, heap layout, hash seeds), so
 * blocks of one epoch share it and only epochs are independent: the test counts epochs, and its
 * variance is estimated from epoch means, with n − 1 degrees of freedom.
 *
 * After every epoch from `minEpochs` on, it takes the interval mean ± b_n · s/√n, where b_n is a
 * boundary on the t statistic chosen so that, under no change, the chance of the interval lying
 * wholly above 0 at any look up to `maxEpochs` is α (error spending: α · (n / maxEpochs)^ρ is spent
 * by look n; with `lastLooks`, the last look as planned from the pace when look n was taken). The
 * boundaries are calibrated by simulating the t statistic itself (normal epochs, unknown variance)
 * at exactly the looks' degrees of freedom, so a 10-minute comparison with only a handful of epochs
 * keeps its false-alarm rate under repeated looks. Every verdict is read off that
 * one interval, the interval the comment shows:
 *   - `no change` when it lies within ±threshold (a change of the threshold would have shown);
 *   - `regression` when it lies above 0 (the candidate is slower), otherwise;
 *   - `improvement` when it lies below 0;
 *   - `continue` otherwise; at `maxEpochs` or the budget the comparison is `inconclusive`.
 * With `holdWithoutFarthest`, a regression or an improvement must also hold when the epoch that
 * pulls the most its way is left out (the same boundary over the other n − 1): a verdict that rests
 * on one far epoch is not one, and waits for more epochs, or ends `inconclusive` at the last look.
 * Its verdicts are a subset of the plain rule's, so the false-alarm rate stays within α.
 * Under no change, a false regression happens with probability ≤ α; at a true change of exactly
 * +threshold, a false `no change` with probability ≤ α too (the interval's upper end must fall below
 * the threshold).
 */
import { mean } from '../descriptive.js';
import { mulberry32 } from '../random.js';
import { trimmedLocation } from './trimmed-mean.js';
import { huberLocation } from './huber-location.js';

export interface EpochTestDesign {
  /** Smallest relative change that counts: `no change` means within ±threshold. */
  threshold: number;
  /** Chance, under no change, that the interval ever lies wholly above 0 (a false regression); the same below 0. */
  alpha: number;
  /** No verdict before this many epochs: the variance needs degrees of freedom. */
  minEpochs: number;
  /** The last look; after it the comparison is inconclusive. */
  maxEpochs: number;
  /**
   * The last look as planned when each look was taken, from minEpochs on: a plan re-fixed from the
   * epochs' pace (never their values) before every look, so look n spends α · (n / lastLooks[n])^ρ in
   * all and a look the budget leaves no epoch after spends what is left. Absent: maxEpochs at every look.
   */
  lastLooks?: readonly number[];
  /** Error spending α · (n / maxEpochs)^ρ: 1 spends evenly over the looks, larger saves it for later. */
  spendingPower: number;
  /** Floor on the per-epoch standard deviation (log units), so identical epochs cannot give a zero-width interval. */
  minEpochSd: number;
  /**
   * The epochs' centre and spread: `mean` (the t statistic), `trimmed` (Yuen's 20% trimmed mean and
   * its winsorized standard error, trimmed-mean.ts) or `huber` (Huber's M-estimate, huber-location.ts),
   * each with boundaries calibrated for itself.
   */
  statistic: 'mean' | 'trimmed' | 'huber';
  /** A regression or an improvement must hold with its farthest epoch left out (see above). */
  holdWithoutFarthest: boolean;
}

export const DEFAULT_EPOCH_TEST: Omit<EpochTestDesign, 'maxEpochs'> = {
  threshold: 0.05,
  alpha: 0.05,
  minEpochs: 4,
  spendingPower: 1,
  minEpochSd: 0.005,
  statistic: 'mean',
  holdWithoutFarthest: false,
};

export type EpochOutcome = 'regression' | 'no change' | 'improvement' | 'continue';

export interface EpochDecision {
  outcome: EpochOutcome;
  epochs: number;
  /** Mean of the epochs' x: the log of the candidate over the baseline. */
  meanLogRatio: number;
  /** exp(meanLogRatio) − 1. */
  relativeChange: number;
  /** Standard deviation of the epochs' x (n − 1), floored at minEpochSd; null with one epoch. */
  epochSd: number | null;
  /** The t boundary of this look; null before minEpochs or past maxEpochs. */
  boundary: number | null;
  /** mean ± boundary · sd/√n as relative changes; null when there is no boundary yet. */
  interval: { low: number; high: number } | null;
  /** One line: what the interval says. */
  reason: string;
}

/** One observation per block: the epoch it belongs to and its x. */
export interface EpochBlock {
  epoch: number;
  x: number;
}

/** Each epoch's mean x, in epoch order. */
export function epochValues(blocks: readonly EpochBlock[]): number[] {
  const byEpoch = new Map<number, number[]>();
  for (const block of blocks) byEpoch.set(block.epoch, [...(byEpoch.get(block.epoch) ?? []), block.x]);
  return [...byEpoch.entries()].sort((a, b) => a[0] - b[0]).map(([, xs]) => mean(xs));
}

export function resolveEpochDesign(design: Partial<EpochTestDesign> & { maxEpochs: number }): EpochTestDesign {
  const d = { ...DEFAULT_EPOCH_TEST, ...design };
  const check = (ok: boolean, what: string) => {
    if (!ok) throw new RangeError(`epoch test design: ${what}`);
  };
  check(d.threshold > 0 && d.threshold < 1, `threshold must be in (0, 1), got ${d.threshold}`);
  check(d.alpha > 0 && d.alpha < 0.5, `alpha must be in (0, 0.5), got ${d.alpha}`);
  check(Number.isInteger(d.minEpochs) && d.minEpochs >= 3, `minEpochs must be an integer ≥ 3, got ${d.minEpochs}`);
  check(Number.isInteger(d.maxEpochs) && d.maxEpochs >= d.minEpochs, `maxEpochs must be an integer ≥ minEpochs (${d.minEpochs}), got ${d.maxEpochs}`);
  check(d.spendingPower > 0, `spendingPower must be > 0, got ${d.spendingPower}`);
  check(d.minEpochSd >= 0, `minEpochSd must be ≥ 0, got ${d.minEpochSd}`);
  check(
    (d.lastLooks ?? []).every((last, i) => Number.isInteger(last) && last >= d.minEpochs + i),
    `lastLooks must be integers, each at or after its own look, got ${String(d.lastLooks)}`,
  );
  check(typeof d.holdWithoutFarthest === 'boolean', `holdWithoutFarthest must be true or false, got ${String(d.holdWithoutFarthest)}`);
  check(['mean', 'trimmed', 'huber'].includes(d.statistic), `statistic must be mean, trimmed or huber, got ${String(d.statistic)}`);
  return d;
}

/** The verdict after these epochs (each a mean x), looking at this look only: earlier looks ended the run if they decided. */
export function decideEpochs(values: readonly number[], design: Partial<EpochTestDesign> & { maxEpochs: number }): EpochDecision {
  const d = resolveEpochDesign(design);
  const n = values.length;
  const { m, sd } = centerAndSpread(values, d);
  const base = { epochs: n, meanLogRatio: m, relativeChange: Math.expm1(m), epochSd: sd };
  if (n < d.minEpochs || n > d.maxEpochs || sd === null) {
    const why = n < d.minEpochs ? `no verdict before ${d.minEpochs} epochs` : `past the last look (${d.maxEpochs} epochs)`;
    return { ...base, outcome: 'continue', boundary: null, interval: null, reason: `${pct(Math.expm1(m))} over ${n} epoch${n === 1 ? '' : 's'}: ${why}` };
  }
  const boundary = spendingBoundaries(d)[n - d.minEpochs]!;
  const interval = intervalOf(m, sd, n, boundary);
  const outcome = outcomeOf(interval, d.threshold);
  if (d.holdWithoutFarthest && (outcome === 'regression' || outcome === 'improvement')) {
    const without = intervalWithoutFarthest(values, outcome, boundary, d);
    if (outcomeOf(without, d.threshold) !== outcome)
      return { ...base, outcome: 'continue', boundary, interval, reason: restsOnOneEpoch(outcome, interval, without, n, d) };
  }
  return { ...base, outcome, boundary, interval, reason: reasonFor(outcome, interval, n, d) };
}

/** The interval at the same boundary over the epochs left when the one that pulls most toward `outcome` is left out. */
function intervalWithoutFarthest(
  values: readonly number[],
  outcome: 'regression' | 'improvement',
  boundary: number,
  d: EpochTestDesign,
): { low: number; high: number } {
  const farthest = outcome === 'regression' ? Math.max(...values) : Math.min(...values);
  const rest = [...values];
  rest.splice(rest.indexOf(farthest), 1);
  const { m, sd } = centerAndSpread(rest, d);
  return intervalOf(m, sd ?? d.minEpochSd, rest.length, boundary);
}

/** centre ± boundary · sd/√n, as relative changes. */
function intervalOf(m: number, sd: number, n: number, boundary: number): { low: number; high: number } {
  const half = (boundary * sd) / Math.sqrt(n);
  return { low: Math.expm1(m - half), high: Math.expm1(m + half) };
}

/** The epochs' centre and their spread as a per-epoch sd (floored), by the design's statistic; sd null with one epoch. */
function centerAndSpread(values: readonly number[], d: EpochTestDesign): { m: number; sd: number | null } {
  const n = values.length;
  if (n < 2) return { m: n > 0 ? values[0]! : 0, sd: null };
  if (d.statistic !== 'mean') {
    const t = robustLocation(d.statistic)(values);
    return { m: t.center, sd: Math.max(d.minEpochSd, t.standardError * Math.sqrt(n)) };
  }
  const m = mean(values);
  return { m, sd: Math.max(d.minEpochSd, Math.sqrt(values.reduce((sum, v) => sum + (v - m) ** 2, 0) / (n - 1))) };
}

function outcomeOf(interval: { low: number; high: number }, threshold: number): EpochOutcome {
  if (interval.low > -threshold && interval.high < threshold) return 'no change';
  if (interval.low > 0) return 'regression';
  if (interval.high < 0) return 'improvement';
  return 'continue';
}

const boundaryCache = new Map<string, number[]>();

/** Paths simulated to calibrate the boundaries: their α is off by about ±0.15 points at α = 5%. */
const CALIBRATION_PATHS = 20_000;

/**
 * b_n for n = minEpochs … maxEpochs: under no change (epochs i.i.d. normal, any mean-zero and any
 * variance, as the t statistic does not depend on it), the share of simulated paths whose t first
 * reaches b_n at look n is what the spending function allots that look. Deterministic (a fixed
 * seed), so the same design gives the same boundaries in the live run, the publish pass and replays.
 */
export function spendingBoundaries(design: EpochTestDesign): number[] {
  if (design.statistic !== 'mean') return robustBoundaries(design);
  const key = `${design.alpha}|${design.minEpochs}|${design.maxEpochs}|${design.spendingPower}|${design.lastLooks ?? ''}`;
  const cached = boundaryCache.get(key);
  if (cached) return cached;
  const random = mulberry32(0x5eed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  // Each path's running sum and sum of squares; t at n from them.
  const sums = new Float64Array(CALIBRATION_PATHS);
  const squares = new Float64Array(CALIBRATION_PATHS);
  const alive = new Uint8Array(CALIBRATION_PATHS).fill(1);
  const boundaries: number[] = [];
  let spent = 0;
  for (let n = 1; n <= design.maxEpochs; n++) {
    for (let j = 0; j < CALIBRATION_PATHS; j++) {
      const z = normal();
      sums[j]! += z;
      squares[j]! += z * z;
    }
    if (n < design.minEpochs) continue;
    const crossings = Math.round((spentBy(design, n) - spent) * CALIBRATION_PATHS);
    const ts: Array<{ t: number; j: number }> = [];
    for (let j = 0; j < CALIBRATION_PATHS; j++) if (alive[j]) ts.push({ t: tStatistic(sums[j]!, squares[j]!, n), j });
    spent += spendLook(ts, crossings, alive, boundaries);
  }
  boundaryCache.set(key, boundaries);
  return boundaries;
}

/**
 * The α spent in all by look n: α · (n / last)^ρ, the last look as planned when n was taken; never
 * less than an earlier look's (a later plan cannot take back what was spent; such a look spends nothing).
 */
function spentBy(design: EpochTestDesign, n: number): number {
  let spent = 0;
  for (let look = design.minEpochs; look <= n; look++) {
    const last = design.lastLooks?.[look - design.minEpochs] ?? design.maxEpochs;
    spent = Math.max(spent, design.alpha * Math.min(1, look / last) ** design.spendingPower);
  }
  return spent;
}

function robustLocation(statistic: 'trimmed' | 'huber'): (values: readonly number[]) => { center: number; standardError: number } {
  return statistic === 'trimmed' ? (values) => trimmedLocation(values) : (values) => huberLocation(values);
}

/**
 * The same calibration for a robust location over its standard error (Yuen's trimmed t, Huber's):
 * each path keeps its epochs, and at each look the statistic is taken over them. Under normal epochs
 * it is a little wider than t's, which is the price of not following a far epoch.
 */
function robustBoundaries(design: EpochTestDesign): number[] {
  const key = `${design.statistic}|${design.alpha}|${design.minEpochs}|${design.maxEpochs}|${design.spendingPower}|${design.lastLooks ?? ''}`;
  const locate = robustLocation(design.statistic as 'trimmed' | 'huber');
  const cached = boundaryCache.get(key);
  if (cached) return cached;
  const random = mulberry32(0x5eed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const paths = Array.from({ length: CALIBRATION_PATHS }, () => new Float64Array(design.maxEpochs));
  for (const path of paths) for (let n = 0; n < design.maxEpochs; n++) path[n] = normal();
  const alive = new Uint8Array(CALIBRATION_PATHS).fill(1);
  const boundaries: number[] = [];
  let spent = 0;
  for (let n = design.minEpochs; n <= design.maxEpochs; n++) {
    const crossings = Math.round((spentBy(design, n) - spent) * CALIBRATION_PATHS);
    const ts: Array<{ t: number; j: number }> = [];
    for (let j = 0; j < CALIBRATION_PATHS; j++) {
      if (!alive[j]) continue;
      const t = locate(Array.from(paths[j]!.subarray(0, n)));
      ts.push({ t: t.standardError > 0 ? t.center / t.standardError : t.center > 0 ? Infinity : -Infinity, j });
    }
    spent += spendLook(ts, crossings, alive, boundaries);
  }
  boundaryCache.set(key, boundaries);
  return boundaries;
}

/**
 * One look of a calibration: the `crossings` live paths with the largest statistic cross, the
 * boundary goes halfway between the last that crosses and the first that does not, and those paths
 * stop. Pushes the boundary (Infinity when nothing is to be spent); returns the share spent.
 */
function spendLook(ts: Array<{ t: number; j: number }>, crossings: number, alive: Uint8Array, boundaries: number[]): number {
  ts.sort((a, b) => b.t - a.t);
  if (crossings <= 0 || ts.length === 0) {
    boundaries.push(Infinity);
    return 0;
  }
  const k = Math.min(crossings, ts.length);
  boundaries.push(k < ts.length ? (ts[k - 1]!.t + ts[k]!.t) / 2 : ts[k - 1]!.t);
  for (let i = 0; i < k; i++) alive[ts[i]!.j] = 0;
  return k / CALIBRATION_PATHS;
}

function tStatistic(sum: number, squares: number, n: number): number {
  const m = sum / n;
  const variance = (squares - n * m * m) / (n - 1);
  return variance > 0 ? m / Math.sqrt(variance / n) : m > 0 ? Infinity : -Infinity;
}

const pct = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}%`;

function restsOnOneEpoch(
  outcome: 'regression' | 'improvement',
  interval: { low: number; high: number },
  without: { low: number; high: number },
  n: number,
  d: EpochTestDesign,
): string {
  const range = (i: { low: number; high: number }) => `[${pct(i.low)}, ${pct(i.high)}]`;
  const way = outcome === 'regression' ? 'slowest' : 'fastest';
  return `${n} epochs, interval ${range(interval)} lies ${outcome === 'regression' ? 'above' : 'below'} 0 only with its ${way} epoch: ${range(without)} without it, beyond ±${(d.threshold * 100).toFixed(1)}%: not decided`;
}

function reasonFor(outcome: EpochOutcome, interval: { low: number; high: number }, n: number, d: EpochTestDesign): string {
  const range = `[${pct(interval.low)}, ${pct(interval.high)}]`;
  const where = `${n} epochs, interval ${range}`;
  const limit = `±${(d.threshold * 100).toFixed(1)}%`;
  switch (outcome) {
    case 'no change':
      return `${where} lies within ${limit}`;
    case 'regression':
      return `${where} lies above 0 and reaches beyond ${limit}: slower`;
    case 'improvement':
      return `${where} lies below 0 and reaches beyond ${limit}: faster`;
    default:
      return `${where} holds 0 and reaches beyond ${limit}: not decided`;
  }
}
