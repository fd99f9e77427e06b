import type { CapacityAnalysis, LoadShape, StepStatus } from '@gwprof/results';
import { BUCKLING_DROP, findKnee } from './knee.js';
import { checkLittlesLaw, type LittlesLawInput } from './little.js';
import { fitUsl } from './usl.js';

/** One sweep step as capacity analysis needs it; a `StepRecord` from results.json fits as is. */
export interface CapacityStep extends Omit<LittlesLawInput, 'concurrency'> {
  load: LoadShape;
  latencyMs: { mean: number; p99: number } | null;
  status: StepStatus;
}

/** A closed-loop step with its connections: the x of every capacity curve. */
type CurvePoint = CapacityStep & { concurrency: number };

export interface CapacityOptions {
  /** Success rate a step needs to count as within capacity (default 1, like `--min-success`). */
  minSuccess?: number;
  /** p99 latency a step must stay within to count as within capacity; none by default. */
  latencyTargetMs?: number;
  /** The run's request timeout, so Little's law can count the time timed-out requests held. */
  timeoutSec?: number;
}

/**
 * Capacity planning after seed 004's curve model: with rising concurrency a service passes a
 * light-load zone (throughput rises fast, latency flat), a heavy-load zone (throughput rises slowly,
 * latency rises) and a buckling zone (throughput falls, latency shoots up). The optimal concurrency
 * sits at the light/heavy boundary, the maximum at the heavy/buckling boundary.
 */
export function analyzeCapacity(steps: readonly CapacityStep[], options: CapacityOptions = {}): CapacityAnalysis {
  const sorted = steps
    .flatMap((step): CurvePoint[] => (step.load.kind === 'closed' ? [{ ...step, concurrency: step.load.concurrency }] : []))
    .sort((a, b) => a.concurrency - b.concurrency);
  // Unsteady steps are measured, with a caveat the tables show: they count. A harness-bound step measured gwprof's limit, not the gateway's.
  const ok = sorted.filter((step) => step.status !== 'failed' && step.status !== 'harness-bound');
  const notes: string[] = [];

  const knee = findKnee(ok);
  if (knee.note) notes.push(knee.note);

  const optimal = optimalConcurrency(sorted, options);
  if (optimal.note) notes.push(optimal.note);

  const maximum = maxConcurrency(sorted, options);
  if (maximum.note) notes.push(maximum.note);

  const usl = fitUsl(ok);
  if (usl.note) notes.push(usl.note);
  if (usl.fit) {
    if (usl.fit.r2 < 0.9) notes.push(`USL fit is poor (r² = ${usl.fit.r2.toFixed(2)}): read σ, κ and the predicted peak as rough`);
    const highest = Math.max(...ok.map((step) => step.concurrency));
    if (usl.fit.peakConcurrency === null) {
      notes.push('USL fit found no coherency cost (κ = 0 or σ ≥ 1): it predicts no throughput peak');
    } else if (usl.fit.peakConcurrency > 2 * highest) {
      notes.push(`USL peak c=${Math.round(usl.fit.peakConcurrency)} is far beyond the highest step measured (c=${highest}): an extrapolation`);
    }
  }

  return {
    knee: knee.knee,
    optimalConcurrency: optimal.concurrency,
    maxConcurrency: maximum.concurrency,
    usl: usl.fit,
    littlesLaw: sorted.map((step) => checkLittlesLaw(step, options.timeoutSec)),
    notes,
  };
}

interface Figure {
  concurrency: number | null;
  note?: string;
}

/** Why a step is outside capacity, or null when it meets the success and latency targets. */
function targetMiss(step: CapacityStep, { minSuccess = 1, latencyTargetMs }: CapacityOptions): string | null {
  if (step.status === 'failed') return 'failed';
  if (step.status === 'harness-bound') return "harness-bound: the harness's limit, not the gateway's";
  if (step.successRate < minSuccess) {
    return `success rate ${formatPercent(step.successRate)} is below the target ${formatPercent(minSuccess)}`;
  }
  if (latencyTargetMs !== undefined) {
    if (step.latencyMs === null) return 'has no latency to check against the target';
    if (step.latencyMs.p99 > latencyTargetMs) return `p99 ${Math.round(step.latencyMs.p99)} ms exceeds the target ${latencyTargetMs} ms`;
  }
  return null;
}

/**
 * Optimal: among steps meeting the targets, the one with the highest power, throughput ÷ mean
 * latency (Kleinrock). Power grows while added connections raise throughput faster than latency
 * and falls once they mostly add queueing: its maximum is the light/heavy boundary.
 */
function optimalConcurrency(sorted: readonly CurvePoint[], options: CapacityOptions): Figure {
  const candidates = sorted.filter((step) => targetMiss(step, options) === null && step.latencyMs !== null && step.latencyMs.mean > 0);
  if (candidates.length === 0) return { concurrency: null, note: 'optimal concurrency: no step met the targets with latency data' };
  const power = (step: CurvePoint) => step.rps / step.latencyMs!.mean;
  const best = candidates.reduce((a, b) => (power(b) > power(a) ? b : a));
  const measured = sorted.map((step) => step.concurrency);
  if (candidates.length > 1 && best.concurrency === Math.min(...measured)) {
    return { concurrency: best.concurrency, note: `optimal concurrency is the lowest step measured (c=${best.concurrency}); the true optimum may be lower` };
  }
  if (candidates.length > 1 && best.concurrency === Math.max(...measured)) {
    return { concurrency: best.concurrency, note: `optimal concurrency is the highest step measured (c=${best.concurrency}); the true optimum may be higher` };
  }
  return { concurrency: best.concurrency };
}

/**
 * Maximum: the highest step such that it and every step below it met the targets and kept
 * throughput within BUCKLING_DROP of the peak so far (past that the curve has buckled). Steps above
 * the first miss do not count even if they pass again: capacity planning needs a contiguous range.
 */
function maxConcurrency(sorted: readonly CurvePoint[], options: CapacityOptions): Figure {
  let peak = 0;
  let last: CurvePoint | null = null;
  for (const step of sorted) {
    const miss =
      targetMiss(step, options) ??
      (step.rps < peak * (1 - BUCKLING_DROP)
        ? `throughput ${Math.round(step.rps)}/s fell more than ${BUCKLING_DROP * 100}% below the peak ${Math.round(peak)}/s`
        : null);
    if (miss !== null) {
      return last === null
        ? { concurrency: null, note: `maximum concurrency: the lowest step c=${step.concurrency} already misses (${miss})` }
        : { concurrency: last.concurrency, note: `maximum concurrency stops at c=${last.concurrency}: c=${step.concurrency} ${miss}` };
    }
    peak = Math.max(peak, step.rps);
    last = step;
  }
  if (last === null) return { concurrency: null, note: 'maximum concurrency: no steps' };
  return { concurrency: last.concurrency, note: `every step met the targets: the maximum concurrency is at least c=${last.concurrency}, the highest measured` };
}

function formatPercent(share: number): string {
  return `${+(share * 100).toFixed(2)}%`;
}
