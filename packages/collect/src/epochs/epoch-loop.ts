/**
 * The loop every comparison runs, whatever it measures: epochs (each a fresh pair of gateway
 * processes, measured by the measure), the pace that fixes the plan of looks, the budget, and the
 * verdict after every epoch, until it is in, the last look has passed, the budget runs out or the
 * run is interrupted. What differs per measure (how a pair is started and measured, what its
 * epochs record, how its decisions read) is behind EpochMeasure.
 */
import { budgetFit, judgeRecord, plannedLastLook, type BudgetState, type ComparisonVerdict } from '@gwprof/analysis';
import type { ComparisonContext } from './context.js';

/** An epoch's record as the loop sees it: when it started and ended, and each side's one-time preparation (a build) in it. */
export interface EpochTimes {
  epoch: number;
  startedAt: string;
  finishedAt: string | null;
  sides?: { baseline: { startup: { prepareMs: number } }; candidate: { startup: { prepareMs: number } } };
}

export interface EpochMeasure {
  /** The epochs recorded so far, live in the comparison's record: the loop marks their ends. */
  epochs(): EpochTimes[];
  /** Starts a fresh pair as `epoch` and measures it, the verdict so far in hand; false when interrupted. */
  measureEpoch(epoch: number, verdict: ComparisonVerdict): Promise<boolean>;
  /** The verdict's decisions, for the progress line after an epoch. */
  describe(verdict: ComparisonVerdict): string;
  /** What the measure adds once the loop has stopped with a verdict (not when interrupted). */
  afterVerdict?(verdict: ComparisonVerdict): Promise<void>;
  /**
   * The plan of looks re-fixed from the pace after every epoch, before its look, so the look the
   * budget leaves no epoch after spends what is left of α; otherwise fixed once before the first look.
   */
  replansEveryLook: boolean;
}

/** Epochs until the verdict is in, then the measure's last word; returns why it stopped. */
export async function epochsUntilDecided(ctx: ComparisonContext, measure: EpochMeasure): Promise<string> {
  const { stopReason, verdict } = await runEpochs(ctx, measure);
  if (stopReason !== 'interrupted' && !ctx.options.signal.aborted) await measure.afterVerdict?.(verdict);
  return stopReason;
}

async function runEpochs(ctx: ComparisonContext, measure: EpochMeasure): Promise<{ stopReason: string; verdict: ComparisonVerdict }> {
  let verdict = judgeRecord(ctx.compare);
  for (let epoch = 1; ; epoch++) {
    if (budgetExceeded(ctx, measure)) return { stopReason: budgetReason(ctx, epoch - 1), verdict };
    if (!(await measure.measureEpoch(epoch, verdict))) return { stopReason: 'interrupted', verdict };
    finishEpoch(ctx, measure, epoch);
    verdict = judgeRecord(ctx.compare);
    const plan = ctx.compare.plan ? ` of at most ${ctx.compare.plan.maxEpochs}` : '';
    ctx.options.onProgress(`after epoch ${epoch}${plan} · ${minutesSince(ctx)} min · ${measure.describe(verdict)}`, true);
    if (verdict.done) {
      const stopReason =
        verdict.verdict === 'inconclusive' ? `the last look (${epoch} epochs) came without a verdict` : `${verdict.verdict} after ${epoch} epochs`;
      return { stopReason, verdict };
    }
  }
}

/** Marks the epoch's end; before the first look checks the budget against the epochs needed; fixes the plan of looks. */
function finishEpoch(ctx: ComparisonContext, measure: EpochMeasure, epoch: number): void {
  const record = measure.epochs().find((e) => e.epoch === epoch);
  if (record) record.finishedAt = new Date().toISOString();
  const { minEpochs, budgetMinutes } = ctx.options.design;
  const state: BudgetState = { budgetMinutes, elapsedSeconds: secondsSince(ctx), epochs: epoch, epochSeconds: paceSeconds(measure.epochs()) };
  if (epoch < minEpochs) checkBudget(ctx, state);
  if (measure.replansEveryLook) replan(ctx, state);
  else if (ctx.compare.plan === null && epoch >= minEpochs - 1)
    ctx.compare.plan = { maxEpochs: plannedLastLook(state, minEpochs), epochSeconds: roundedPace(state), fixedAfterEpoch: epoch };
  ctx.journal.save();
}

/** The plan re-fixed from the pace alone (never the epochs' values), the last look as planned now appended from the first look on. */
function replan(ctx: ComparisonContext, state: BudgetState): void {
  const { minEpochs } = ctx.options.design;
  if (state.epochs < minEpochs - 1) return;
  const last = plannedLastLook(state, minEpochs);
  const lastLooks = state.epochs >= minEpochs ? [...(ctx.compare.plan?.lastLooks ?? []), last] : [];
  ctx.compare.plan = { maxEpochs: last, epochSeconds: roundedPace(state), fixedAfterEpoch: state.epochs, lastLooks };
}

/** Says, once and whenever it changes, whether the budget fits the epochs a verdict needs at the pace so far, and what would. */
function checkBudget(ctx: ComparisonContext, state: BudgetState): void {
  const fit = budgetFit(state, ctx.options.design.minEpochs);
  const before = ctx.compare.budgetFit ?? null;
  ctx.compare.budgetFit = fit;
  const short = fit.budgetMinutesNeeded !== null;
  if (short) ctx.options.onProgress(budgetShortLine(ctx, fit), true);
  else if (before?.budgetMinutesNeeded != null)
    ctx.options.onProgress(`the budget now fits the ${fit.epochsNeeded} epochs a verdict needs, at ${(fit.epochSeconds / 60).toFixed(1)} min an epoch`, true);
}

function budgetShortLine(ctx: ComparisonContext, fit: NonNullable<ComparisonContext['compare']['budgetFit']>): string {
  const pace = `${(fit.epochSeconds / 60).toFixed(1)} min an epoch${fit.afterEpoch === 1 ? ' (the first, less its builds)' : ''}`;
  return `--budget ${ctx.options.design.budgetMinutes} min fits ${fit.epochsThatFit} epochs at ${pace}; a verdict needs ${fit.epochsNeeded}: --budget ${fit.budgetMinutesNeeded} would fit them`;
}

function roundedPace(state: BudgetState): number {
  return Math.round(state.epochSeconds * 10) / 10;
}

/**
 * Seconds per epoch so far: the first left out when there are others (it holds the builds and the
 * first installs); alone, without the longer side's preparation, which the next epochs will not repeat.
 */
export function paceSeconds(epochs: readonly EpochTimes[]): number {
  const finished = epochs.filter((e) => e.finishedAt !== null);
  const seconds = finished.map((e) => (Date.parse(e.finishedAt!) - Date.parse(e.startedAt)) / 1000);
  if (seconds.length === 1) return seconds[0]! - preparedSeconds(finished[0]!);
  const usable = seconds.slice(1);
  return usable.length > 0 ? usable.reduce((a, b) => a + b, 0) / usable.length : Infinity;
}

function preparedSeconds(epoch: EpochTimes): number {
  return epoch.sides ? Math.max(epoch.sides.baseline.startup.prepareMs, epoch.sides.candidate.startup.prepareMs) / 1000 : 0;
}

/** Would another epoch, at the pace so far, run past the budget? */
function budgetExceeded(ctx: ComparisonContext, measure: EpochMeasure): boolean {
  const pace = paceSeconds(measure.epochs());
  return Number.isFinite(pace) && secondsSince(ctx) + pace > ctx.options.design.budgetMinutes * 60;
}

function budgetReason(ctx: ComparisonContext, epochs: number): string {
  return `--budget ${ctx.options.design.budgetMinutes} min would be exceeded by another epoch (after ${epochs} epochs, ${minutesSince(ctx)} min)`;
}

function secondsSince(ctx: ComparisonContext): number {
  return (performance.now() - ctx.started) / 1000;
}

function minutesSince(ctx: ComparisonContext): string {
  return (secondsSince(ctx) / 60).toFixed(1);
}

/** A relative change as the progress lines print it: +1.2%, −0.4%. */
export function signedPercent(x: number, digits: number): string {
  return `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(digits)}%`;
}
