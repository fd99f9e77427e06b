/**
 * How many epochs a verdict needs, and how many the budget fits: pure arithmetic on the noise, the
 * threshold and the epochs' measured pace, which the epoch loop (collect) only calls.
 */
import type { BudgetFit } from '@gwprof/results';
import { studentTQuantile } from './student-t.js';

/** The t-test's variance needs degrees of freedom: no look before this many epochs. */
export const FEWEST_EPOCHS = 3;

/** Standard errors of its own mean that an A/A's interval must leave room for inside ±threshold. */
const AA_ROOM = 2;

export interface EpochsNeededInput {
  threshold: number;
  alpha: number;
  /** An epoch's sd (log units) as measured between fresh processes. */
  noiseSd: number;
}

/**
 * The fewest epochs (≥ 3) at which an unchanged candidate's interval, mean ± b_n · sd/√n, lies well
 * inside ±threshold: b_n is the boundary when look n is the only one (all of α spent there, the
 * best a plan can do at n: the t quantile 1 − α at n − 1 degrees of freedom), and the A/A's mean is left two of its standard errors of room,
 * (b_n + 2) · sd / √n ≤ threshold. Looking earlier could not decide; more epochs are the budget's.
 */
export function epochsNeeded({ threshold, alpha, noiseSd }: EpochsNeededInput): number {
  if (!(noiseSd > 0) || !(threshold > 0)) throw new RangeError(`epochs needed: noise and threshold must be > 0, got ${noiseSd} and ${threshold}`);
  for (let n = FEWEST_EPOCHS; n <= 100_000; n++) {
    const boundary = studentTQuantile(1 - alpha, n - 1);
    if (((boundary + AA_ROOM) * noiseSd) / Math.sqrt(n) <= threshold) return n;
  }
  throw new RangeError(`epochs needed: noise ${noiseSd} is too large for the threshold ${threshold}`);
}

export interface BudgetState {
  budgetMinutes: number;
  /** Seconds since the comparison started. */
  elapsedSeconds: number;
  /** Epochs finished. */
  epochs: number;
  /** Seconds per epoch from now on (paceSeconds). */
  epochSeconds: number;
}

/** Epochs in all the budget fits: those finished and those that fit in what is left at the pace. */
export function epochsThatFit(s: BudgetState): number {
  if (!Number.isFinite(s.epochSeconds)) return s.epochs;
  return s.epochs + Math.max(0, Math.floor((s.budgetMinutes * 60 - s.elapsedSeconds) / s.epochSeconds));
}

/**
 * The last look as planned now: every epoch that fits, and never before the first look, so a run
 * whose budget fits fewer still has a last look to end at.
 */
export function plannedLastLook(s: BudgetState, minEpochs: number): number {
  return Math.max(minEpochs, epochsThatFit(s));
}

/** What the budget fits at the pace against what a verdict needs, and the --budget that would fit it when it falls short (a tenth to spare). */
export function budgetFit(s: BudgetState, epochsNeeded: number): BudgetFit {
  const fit = epochsThatFit(s);
  const short = fit < epochsNeeded && Number.isFinite(s.epochSeconds);
  const seconds = s.elapsedSeconds + (epochsNeeded - s.epochs) * s.epochSeconds;
  return {
    afterEpoch: s.epochs,
    epochsThatFit: fit,
    epochsNeeded,
    epochSeconds: Math.round(s.epochSeconds * 10) / 10,
    budgetMinutesNeeded: short ? Math.ceil((seconds * 1.1) / 60) : null,
  };
}
