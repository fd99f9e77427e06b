/**
 * What the order of a block's windows does to its contrast. A block holds two windows of each side
 * in random order; a drift of the machine within the block (each later window slower, say) cancels
 * from the side contrast only in the balanced orders (ABBA, BAAB) and enters the other four. If that
 * drift mattered, blocks in the other orders would scatter more than balanced ones.
 */
import { mean, variance } from '@gwprof/analysis';

export interface OrderWindow {
  block: number;
  level: number;
  position: number;
  side: 'baseline' | 'candidate';
  /** The gateway's CPU ms per successful request. */
  value: number;
}

export interface BlockContrast {
  /** Mean log of the candidate's windows minus the baseline's. */
  logRatio: number;
  /** The candidate holds positions whose sum is that of the baseline's (ABBA or BAAB). */
  balanced: boolean;
  /** Balanced blocks only: the log value's slope per position, the sides' effect being orthogonal to it. */
  trendPerPosition: number | null;
}

/** Each block of two windows a side, as its side contrast and, if balanced, its trend by position. */
export function blockContrasts(windows: readonly OrderWindow[]): BlockContrast[] {
  const blocks = new Map<string, OrderWindow[]>();
  for (const w of windows) {
    const key = `${w.block}/${w.level}`;
    blocks.set(key, [...(blocks.get(key) ?? []), w]);
  }
  return [...blocks.values()].filter(isTwoASide).map((block) => {
    const sorted = [...block].sort((a, b) => a.position - b.position);
    const logOf = (side: OrderWindow['side']) => sorted.filter((w) => w.side === side).map((w) => Math.log(w.value));
    const candidatePositions = sorted.reduce((sum, w, i) => sum + (w.side === 'candidate' ? i : 0), 0);
    const balanced = candidatePositions === 3;
    const y = sorted.map((w) => Math.log(w.value));
    return {
      logRatio: mean(logOf('candidate')) - mean(logOf('baseline')),
      balanced,
      trendPerPosition: balanced ? (-3 * y[0]! - y[1]! + y[2]! + 3 * y[3]!) / 10 : null,
    };
  });
}

function isTwoASide(block: readonly OrderWindow[]): boolean {
  return block.length === 4 && block.filter((w) => w.side === 'candidate').length === 2;
}

export interface OrderSummary {
  balanced: { blocks: number; sd: number };
  unbalanced: { blocks: number; sd: number };
  /** Variance of the unbalanced blocks' contrast over the balanced ones'. */
  varianceRatio: number;
  trend: { blocks: number; mean: number; sd: number };
}

/**
 * The sd of samples that may each have their own mean (one per comparison: a real change is not
 * noise): squares about each sample's mean over the degrees of freedom left, n − 1 per sample.
 */
export function pooledSd(samples: ReadonlyArray<readonly number[]>): number {
  const used = samples.filter((x) => x.length > 1);
  const squares = used.reduce((sum, x) => sum + variance(x) * (x.length - 1), 0);
  const freedom = used.reduce((sum, x) => sum + x.length - 1, 0);
  return freedom > 0 ? Math.sqrt(squares / freedom) : Number.NaN;
}

/** Over several comparisons, each order's contrasts about that comparison's own mean for the order. */
export function orderSummary(comparisons: ReadonlyArray<readonly BlockContrast[]>): OrderSummary {
  const ofOrder = (balanced: boolean) => comparisons.map((blocks) => blocks.filter((b) => b.balanced === balanced).map((b) => b.logRatio));
  const blocksIn = (samples: number[][]) => samples.reduce((sum, x) => sum + x.length, 0);
  const [balanced, unbalanced] = [ofOrder(true), ofOrder(false)];
  const trends = comparisons.flatMap((blocks) => blocks.flatMap((b) => (b.trendPerPosition === null ? [] : [b.trendPerPosition])));
  return {
    balanced: { blocks: blocksIn(balanced), sd: pooledSd(balanced) },
    unbalanced: { blocks: blocksIn(unbalanced), sd: pooledSd(unbalanced) },
    varianceRatio: pooledSd(unbalanced) ** 2 / pooledSd(balanced) ** 2,
    trend: { blocks: trends.length, mean: mean(trends), sd: Math.sqrt(variance(trends)) },
  };
}

export interface SideBias {
  comparisons: number;
  /** Mean over A/A comparisons of each one's mean block contrast. */
  mean: number;
  standardError: number;
  positive: number;
}

/** Whether the candidate side reads apart from the baseline when both run the same build. */
export function sideBias(aaComparisons: ReadonlyArray<readonly BlockContrast[]>): SideBias {
  const means = aaComparisons.filter((blocks) => blocks.length > 0).map((blocks) => mean(blocks.map((b) => b.logRatio)));
  return {
    comparisons: means.length,
    mean: mean(means),
    standardError: Math.sqrt(variance(means) / means.length),
    positive: means.filter((m) => m > 0).length,
  };
}
