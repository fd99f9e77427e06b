/**
 * The stopping rule behind `gwprof compare`'s verdict: Sobel and Wald's three-hypothesis
 * sequential probability ratio test on paired log ratios, looked at after every block.
 *
 * One observation per block of alternating windows (ABBA or BAAB):
 *   x = mean(log candidate windows) − mean(log baseline windows),
 * positive when the candidate uses more of the metric (for CPU per request: slower). The mean of
 * logs rather than the log of means because, in an ABBA block, both sides' windows sit at the
 * same mean time, so a drift that is linear in log speed (the machine getting a few % faster per
 * minute) cancels exactly, and one GC-heavy window moves x by its log, not by its raw size.
 *
 * Two one-sided SPRTs for the mean μ of x run side by side, each with Wald's boundaries
 * A = log((1−β)/α) and B = log(β/(1−α)), for normal blocks whose variance is estimated at each look:
 *   up:   μ = 0 against μ = log(1 + threshold); its log-likelihood ratio ≥ A → `regression`;
 *   down: μ = 0 against μ = log(1 − threshold); its ratio ≥ A → `improvement`;
 *   a ratio ≤ B accepts μ = 0 for that test, for good (each SPRT stops at its first crossing);
 *   once both have accepted μ = 0 → `no change`.
 * A true change between 0 and ±threshold is the indifference zone: either verdict may come.
 * With a known variance Wald's bounds give false `regression` ≤ α/(1−β) under no change and a miss
 * rate of about β at +threshold. The simulation (bench/src/simulate-sequential.ts) and the
 * resampling evaluator (bench/src/compare/procedure-evaluation.ts) measure the real rates, with an estimated
 * variance, epoch effects and a budget.
 *
 * Blocks within an epoch (one pair of processes) share the processes' lasting speed offsets, so
 * their x are positively correlated and the plain sample variance is too small. With
 * `variance: 'epochs'` the per-block variance is the larger of the plain one and the
 * cluster-robust one from epoch means, which includes that correlation, once two epochs have data.
 */

export interface BlockObservation {
  /** Index of the process pair that produced the block; blocks of one epoch share it. */
  epoch: number;
  /** mean(log candidate) − mean(log baseline) over the block's windows (see `blockLogRatio`). */
  x: number;
}

export type SequentialOutcome = 'regression' | 'no change' | 'improvement' | 'continue';

/** How the per-block variance of x is estimated at each look. */
export type VarianceRule = 'blocks' | 'epochs';

export interface SequentialDesign {
  /** Smallest relative change that matters: regression at ≥ +threshold, improvement at ≤ −threshold. */
  threshold: number;
  /** Wald's α for each one-sided test: nominal false `regression` rate when nothing changed. */
  alpha: number;
  /** Wald's β: nominal chance of missing a change of exactly ±threshold. */
  beta: number;
  /** No test is looked at before this many blocks: the variance estimate needs degrees of freedom. */
  minBlocks: number;
  variance: VarianceRule;
  /** Multiplies the plain sample variance of the blocks: 1 + (K − 1)ρ for K blocks per epoch and an
   * assumed correlation ρ between blocks of one epoch (1: none assumed). */
  designEffect: number;
  /** Floor on the per-block standard deviation of x (log units), so near-identical blocks cannot
   * make the ratios infinite. */
  minBlockSd: number;
  /** Confidence of the always-valid interval reported beside the verdict. */
  intervalConfidence: number;
  /** Number of blocks at which that interval is tuned to be narrowest. */
  intervalTuningBlocks: number;
}

export const DEFAULT_SEQUENTIAL_DESIGN: SequentialDesign = {
  threshold: 0.05,
  alpha: 0.05,
  beta: 0.2,
  /** Looks before the test may decide: 10 held false regressions under 5% in simulation at this machine's noise (docs/validation/compare-error-rates.md). */
  minBlocks: 10,
  variance: 'epochs',
  designEffect: 1,
  minBlockSd: 0.01,
  intervalConfidence: 0.9,
  intervalTuningBlocks: 24,
};

export interface VarianceEstimate {
  /** The per-block variance of x used by the tests and the interval (log units squared). */
  perBlock: number;
  /** Sample variance of the blocks' x (n − 1 denominator) times the design effect; 0 with one block. */
  fromBlocks: number;
  /** n × the cluster-robust variance of the mean from epoch means; null with fewer than two epochs. */
  fromEpochs: number | null;
  source: 'blocks' | 'epochs' | 'floor';
}

export interface SequentialStatistics {
  /** Log-likelihood ratio of the regression test (μ = log(1 + threshold) over μ = 0) at this look. */
  up: number;
  /** Log-likelihood ratio of the improvement test (μ = log(1 − threshold) over μ = 0) at this look. */
  down: number;
  /** Wald's B = log(β/(1−α)): a ratio at or below it accepts μ = 0. */
  accept: number;
  /** Wald's A = log((1−β)/α): a ratio at or above it accepts the change. */
  reject: number;
  /** Block count at which each test accepted μ = 0 (and stopped), or null while it runs. */
  acceptedAt: { up: number | null; down: number | null };
}

export interface SequentialDecision {
  outcome: SequentialOutcome;
  blocks: number;
  epochs: number;
  /** Mean of the blocks' x: the log of the ratio of geometric means, candidate over baseline. */
  meanLogRatio: number;
  /** exp(meanLogRatio) − 1. With the same number of windows per side in every block, it is the
   * ratio of the geometric means of all candidate windows to all baseline windows, minus 1. */
  relativeChange: number;
  /** Always-valid interval for the relative change (a normal-mixture confidence sequence): its
   * coverage holds at any stopping time, this rule's included, provided the per-block variance
   * is not larger than the estimate. */
  interval: { low: number; high: number; confidence: number; validAtStoppingTime: true; label: string };
  variance: VarianceEstimate;
  statistics: SequentialStatistics;
  /** The tests' boundaries at this look, as relative changes of the point estimate. */
  boundaries: { regressionAbove: number; noChangeWithin: [number, number] | null; improvementBelow: number };
  reason: string;
}

/** x for one block: mean log of the candidate's windows minus mean log of the baseline's. */
export function blockLogRatio(baseline: readonly number[], candidate: readonly number[]): number {
  const meanLog = (values: readonly number[], side: string): number => {
    if (values.length === 0) throw new RangeError(`a block needs at least one ${side} window`);
    if (!values.every((v) => v > 0 && Number.isFinite(v))) throw new RangeError(`${side} window values must be finite and positive`);
    return values.reduce((sum, v) => sum + Math.log(v), 0) / values.length;
  };
  return meanLog(candidate, 'candidate') - meanLog(baseline, 'baseline');
}

/**
 * The verdict after the blocks so far, replaying every earlier look (a test that accepted μ = 0
 * at an earlier look stays stopped). Pure. Call it after every block and stop at the first
 * outcome other than `continue`; when the budget ends first, the comparison is inconclusive.
 */
export function decideSequential(blocks: readonly BlockObservation[], design: Partial<SequentialDesign> = {}): SequentialDecision {
  const d = resolveDesign(design);
  if (blocks.length === 0) throw new RangeError('decideSequential needs at least one block');
  const running = new RunningBlocks();
  const acceptedAt: SequentialStatistics['acceptedAt'] = { up: null, down: null };
  let look = lookAt(running, d);
  for (const block of blocks) {
    running.add(block);
    look = lookAt(running, d);
    const { up, down, accept } = look.statistics;
    if (running.n < d.minBlocks) continue;
    if (acceptedAt.up === null && up <= accept) acceptedAt.up = running.n;
    if (acceptedAt.down === null && down <= accept) acceptedAt.down = running.n;
  }
  const statistics: SequentialStatistics = { ...look.statistics, acceptedAt };
  const meanLogRatio = running.mean;
  const decision = {
    outcome: running.n < d.minBlocks ? 'continue' : outcomeOf(statistics),
    blocks: running.n,
    epochs: running.epochs.size,
    meanLogRatio,
    relativeChange: Math.expm1(meanLogRatio),
    interval: confidenceSequence(meanLogRatio, running.n, look.variance.perBlock, d),
    variance: look.variance,
    statistics,
    boundaries: look.boundaries,
  } as const;
  return { ...decision, reason: reasonFor(decision, d) };
}

export function resolveDesign(design: Partial<SequentialDesign>): SequentialDesign {
  const d = { ...DEFAULT_SEQUENTIAL_DESIGN, ...design };
  const check = (ok: boolean, what: string) => {
    if (!ok) throw new RangeError(`sequential design: ${what}`);
  };
  check(d.threshold > 0 && d.threshold < 1, `threshold must be in (0, 1), got ${d.threshold}`);
  check(d.alpha > 0 && d.alpha < 0.5, `alpha must be in (0, 0.5), got ${d.alpha}`);
  check(d.beta > 0 && d.beta < 0.5, `beta must be in (0, 0.5), got ${d.beta}`);
  check(Number.isInteger(d.minBlocks) && d.minBlocks >= 2, `minBlocks must be an integer ≥ 2, got ${d.minBlocks}`);
  check(d.variance === 'blocks' || d.variance === 'epochs', `variance must be 'blocks' or 'epochs', got ${String(d.variance)}`);
  check(d.designEffect >= 1, `designEffect must be ≥ 1, got ${d.designEffect}`);
  check(d.minBlockSd >= 0, `minBlockSd must be ≥ 0, got ${d.minBlockSd}`);
  check(d.intervalConfidence > 0 && d.intervalConfidence < 1, `intervalConfidence must be in (0, 1), got ${d.intervalConfidence}`);
  check(d.intervalTuningBlocks >= 1, `intervalTuningBlocks must be ≥ 1, got ${d.intervalTuningBlocks}`);
  return d;
}

/** Per-block variance of x for these blocks under the design's rule, design effect and floor. */
export function estimateVariance(blocks: readonly BlockObservation[], design: Partial<SequentialDesign> = {}): VarianceEstimate {
  const running = new RunningBlocks();
  for (const block of blocks) running.add(block);
  return running.variance(resolveDesign(design));
}

/** Sums of the blocks so far, overall and per epoch, so each look costs O(epochs). */
class RunningBlocks {
  n = 0;
  sum = 0;
  /** Welford's running mean and sum of squared deviations, stable when x is large and steady. */
  mean = 0;
  private squaredDeviations = 0;
  readonly epochs = new Map<number, { sum: number; count: number }>();

  add(block: BlockObservation): void {
    this.n++;
    this.sum += block.x;
    const before = this.mean;
    this.mean += (block.x - before) / this.n;
    this.squaredDeviations += (block.x - before) * (block.x - this.mean);
    const epoch = this.epochs.get(block.epoch) ?? { sum: 0, count: 0 };
    this.epochs.set(block.epoch, { sum: epoch.sum + block.x, count: epoch.count + 1 });
  }

  variance(design: SequentialDesign): VarianceEstimate {
    const fromBlocks = this.n < 2 ? 0 : (this.squaredDeviations / (this.n - 1)) * design.designEffect;
    const fromEpochs = this.epochVariance();
    const floor = design.minBlockSd ** 2;
    const useEpochs = design.variance === 'epochs' && fromEpochs !== null && fromEpochs > fromBlocks;
    const estimate = useEpochs ? fromEpochs : fromBlocks;
    if (estimate < floor) return { perBlock: floor, fromBlocks, fromEpochs, source: 'floor' };
    return { perBlock: estimate, fromBlocks, fromEpochs, source: useEpochs ? 'epochs' : 'blocks' };
  }

  /**
   * n · Var(mean x) by the cluster-robust (sandwich) estimator over epochs with its E/(E − 1)
   * small-sample factor: E/(E−1) · Σ n_e² (m_e − x̄)² / n. With K blocks in every epoch that is
   * K · (sample variance of the epoch means), an unbiased estimate of σ² + K·τ², where τ² is the
   * variance of the epoch effect on x.
   */
  private epochVariance(): number | null {
    const count = this.epochs.size;
    if (count < 2) return null;
    const grand = this.mean;
    let spread = 0;
    for (const epoch of this.epochs.values()) spread += (epoch.sum - epoch.count * grand) ** 2;
    return ((count / (count - 1)) * spread) / this.n;
  }
}

/** Both tests' log-likelihood ratios and boundaries for the blocks added so far. */
function lookAt(running: RunningBlocks, d: SequentialDesign) {
  const variance = running.variance(d);
  const v = variance.perBlock;
  const up = Math.log1p(d.threshold);
  const down = Math.log1p(-d.threshold);
  const reject = Math.log((1 - d.beta) / d.alpha);
  const accept = Math.log(d.beta / (1 - d.alpha));
  const statistics = {
    up: logLikelihoodRatio(running.sum, running.n, up, v),
    down: logLikelihoodRatio(running.sum, running.n, down, v),
    accept,
    reject,
  };
  return { statistics, variance, boundaries: boundariesAt(Math.max(1, running.n), v, up, down, accept, reject) };
}

/** log of L(μ = delta) / L(μ = 0) for n normal observations summing to `sum`, variance v each. */
function logLikelihoodRatio(sum: number, n: number, delta: number, v: number): number {
  return (delta * sum - (n * delta * delta) / 2) / v;
}

function outcomeOf(s: SequentialStatistics): SequentialOutcome {
  if (s.acceptedAt.up === null && s.up >= s.reject) return 'regression';
  if (s.acceptedAt.down === null && s.down >= s.reject) return 'improvement';
  if (s.acceptedAt.up !== null && s.acceptedAt.down !== null) return 'no change';
  return 'continue';
}

/** Where the mean of x must be for each test to stop at n blocks, as relative changes. */
function boundariesAt(n: number, v: number, up: number, down: number, accept: number, reject: number): SequentialDecision['boundaries'] {
  // logLikelihoodRatio(n·m, n, delta, v) = boundary, solved for the mean m.
  const meanAt = (delta: number, boundary: number) => delta / 2 + (boundary * v) / (n * delta);
  const noChangeHigh = meanAt(up, accept);
  const noChangeLow = meanAt(down, accept);
  return {
    regressionAbove: Math.expm1(meanAt(up, reject)),
    noChangeWithin: noChangeLow <= noChangeHigh ? [Math.expm1(noChangeLow), Math.expm1(noChangeHigh)] : null,
    improvementBelow: Math.expm1(meanAt(down, reject)),
  };
}

/**
 * Two-sided normal-mixture confidence sequence (Robbins 1970; Howard et al. 2021) for μ:
 * |S_n − nμ| ≤ sqrt(v (n + r) log((n + r) / (r a²))), a = 1 − confidence, with r set so the
 * boundary is tightest near `intervalTuningBlocks`. It holds for all n at once when v is right.
 */
function confidenceSequence(meanLogRatio: number, n: number, v: number, d: SequentialDesign): SequentialDecision['interval'] {
  const a = 1 - d.intervalConfidence;
  const r = d.intervalTuningBlocks / (-2 * Math.log(a) + Math.log(1 - 2 * Math.log(a)));
  const half = Math.sqrt(v * (n + r) * Math.log((n + r) / (r * a * a))) / n;
  const percent = +(d.intervalConfidence * 100).toFixed(2);
  return {
    low: Math.expm1(meanLogRatio - half),
    high: Math.expm1(meanLogRatio + half),
    confidence: d.intervalConfidence,
    validAtStoppingTime: true,
    label: `${percent}% always-valid interval (confidence sequence: holds at a data-dependent stop)`,
  };
}

const pct = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}%`;

function reasonFor(r: Omit<SequentialDecision, 'reason'>, d: SequentialDesign): string {
  const b = r.boundaries;
  const at = r.statistics.acceptedAt;
  const where = `${pct(r.relativeChange)} over ${r.blocks} block${r.blocks === 1 ? '' : 's'}`;
  const test = `±${(d.threshold * 100).toFixed(1)}% tests, α ${d.alpha}, β ${d.beta}`;
  switch (r.outcome) {
    case 'regression':
      return `${where}: at or above the regression boundary ${pct(b.regressionAbove)} (${test})`;
    case 'improvement':
      return `${where}: at or below the improvement boundary ${pct(b.improvementBelow)} (${test})`;
    case 'no change':
      return `${where}: both tests accepted no change (the +${(d.threshold * 100).toFixed(1)}% one after ${at.up} blocks, the −${(d.threshold * 100).toFixed(1)}% one after ${at.down}) (${test})`;
    default:
      if (r.blocks < d.minBlocks) return `${where}: no verdict before ${d.minBlocks} blocks`;
      return `${where}: between boundaries (regression ≥ ${pct(b.regressionAbove)}, improvement ≤ ${pct(b.improvementBelow)}${b.noChangeWithin ? `, no change within ${pct(b.noChangeWithin[0])}..${pct(b.noChangeWithin[1])}` : ''})`;
  }
}
