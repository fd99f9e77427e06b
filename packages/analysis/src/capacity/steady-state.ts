/**
 * Is a load step in a steady state? Pure functions over the per-second series of successful
 * responses, used while a step runs (when may the warm-up end, when is the window long enough) and
 * after it (was the measured window steady?).
 */
import { mean } from '../descriptive.js';

export interface Trend {
  /** Least-squares slope, units per second. */
  slope: number;
  /** The change the slope implies over the series' span, relative to its mean (0.1 = +10%). */
  relativeChange: number;
  /** Slope over its standard error; 0 when the series is flat or too short. */
  t: number;
}

/** Linear trend of equally spaced values (one per second). */
export function trendOf(values: readonly number[]): Trend {
  const n = values.length;
  const m = n > 0 ? mean(values) : 0;
  if (n < 3 || m === 0) return { slope: 0, relativeChange: 0, t: 0 };
  const xMean = (n - 1) / 2;
  let sxx = 0;
  let sxy = 0;
  values.forEach((y, x) => {
    sxx += (x - xMean) ** 2;
    sxy += (x - xMean) * (y - m);
  });
  const slope = sxy / sxx;
  const residuals = values.reduce((sum, y, x) => sum + (y - (m + slope * (x - xMean))) ** 2, 0);
  const standardError = Math.sqrt(residuals / (n - 2) / sxx);
  const t = standardError > 0 ? slope / standardError : slope === 0 ? 0 : Math.sign(slope) * Infinity;
  return { slope, relativeChange: (slope * (n - 1)) / m, t };
}

/** Coefficient of variation (sd / mean) of the values; 0 for fewer than two or a zero mean. */
export function coefficientOfVariation(values: readonly number[]): number {
  const m = values.length > 1 ? mean(values) : 0;
  if (m === 0) return 0;
  const sd = Math.sqrt(values.reduce((sum, v) => sum + (v - m) ** 2, 0) / (values.length - 1));
  return sd / m;
}

/** A change this small over the lookback is no trend in practice, however significant. */
const NEGLIGIBLE_CHANGE = 0.05;
/** Warm-up ends once the trend is within noise (|t| below this) and modest. */
const WARMUP_MAX_T = 2;
const WARMUP_MAX_CHANGE = 0.15;
/** Seconds of history the warm-up test looks at, at least. */
const WARMUP_LOOKBACK = 6;

export interface WarmupState {
  /** Successful responses per completed second since the load started. */
  okPerSecond: readonly number[];
  /** Mean latency of the responses so far; null before the first. */
  meanLatencyMs: number | null;
  maxSeconds: number;
  /**
   * Closed loop: connections that have had their first response, of how many. A gateway under
   * load admits new connections slowly (one per event-loop iteration), so the window waits for all.
   */
  connections?: { answered: number; total: number };
}

export type WarmupDecision = { done: false } | { done: true; steady: boolean; reason: string };

/**
 * The warm-up may end when the connections have cycled a few times and the trailing seconds show
 * no trend; at `maxSeconds` it ends regardless, unsteady.
 */
export function warmupDecision(state: WarmupState): WarmupDecision {
  const elapsed = state.okPerSecond.length;
  const latencySec = (state.meanLatencyMs ?? Infinity) / 1000;
  const lookback = Math.max(WARMUP_LOOKBACK, Math.ceil(2 * (Number.isFinite(latencySec) ? latencySec : 0)));
  const recent = state.okPerSecond.slice(-lookback);
  const trend = trendOf(recent);
  const describe = `${signedPercent(trend.relativeChange)} over the last ${recent.length} s (t ${trend.t.toFixed(1)})`;
  const cycled = Number.isFinite(latencySec) && elapsed >= Math.max(2, 3 * latencySec);
  const waiting = state.connections ? state.connections.total - state.connections.answered : 0;
  if (cycled && waiting === 0 && elapsed >= lookback && isFlat(trend)) return { done: true, steady: true, reason: `no trend: ${describe}` };
  if (elapsed >= state.maxSeconds) {
    const why =
      waiting > 0
        ? `${waiting} of ${state.connections!.total} connections had no response yet: the gateway admits new connections slowly under load`
        : Number.isFinite(latencySec)
          ? `throughput still moving: ${describe}`
          : 'no response yet';
    return { done: true, steady: false, reason: `warm-up did not settle within ${state.maxSeconds} s (${why})` };
  }
  return { done: false };
}

/**
 * A fresh process's warm-up compares the mean CPU per request of its last CPU_WARMUP_SPAN seconds
 * with the span before: one second of it moves by 10–15% at random on a busy gateway, a 3-second
 * mean by about a third of that.
 */
const CPU_WARMUP_SPAN = 3;
/** Still warming up: the last span's mean is lower than the span before by more than this. */
const CPU_WARMUP_MAX_DROP = 0.05;
/** Never less than this: the first seconds after a start cost 2–4 times the warm figure (docs/compare.md). */
const CPU_WARMUP_MIN_SEC = 6;

/**
 * A fresh process's warm-up may end once its CPU per successful request stops falling: the mean of
 * the last CPU_WARMUP_SPAN seconds is no more than CPU_WARMUP_MAX_DROP below the mean of the span
 * before (its JIT has compiled what the load runs). At maxSeconds it ends regardless, unsteady.
 */
export function cpuWarmupDecision(cpuMsPerRequest: readonly (number | null)[], maxSeconds: number): WarmupDecision {
  const elapsed = cpuMsPerRequest.length;
  const spanMean = (from: number) => {
    const values = cpuMsPerRequest.slice(from, from + CPU_WARMUP_SPAN).filter((v): v is number => v !== null);
    return values.length > 0 ? mean(values) : null;
  };
  const last = spanMean(elapsed - CPU_WARMUP_SPAN);
  const before = spanMean(elapsed - 2 * CPU_WARMUP_SPAN);
  const change = last !== null && before !== null ? last / before - 1 : null;
  const describe =
    change === null ? 'no responses to compare' : `${signedPercent(change)} from the ${CPU_WARMUP_SPAN} s before to the last ${CPU_WARMUP_SPAN} s`;
  if (elapsed >= Math.max(CPU_WARMUP_MIN_SEC, 2 * CPU_WARMUP_SPAN) && change !== null && change >= -CPU_WARMUP_MAX_DROP) {
    return { done: true, steady: true, reason: `CPU per request no longer falling: ${describe}` };
  }
  if (elapsed >= maxSeconds) return { done: true, steady: false, reason: `CPU per request still falling after ${maxSeconds} s: ${describe}` };
  return { done: false };
}

function isFlat(trend: Trend): boolean {
  const change = Math.abs(trend.relativeChange);
  return change <= NEGLIGIBLE_CHANGE || (Math.abs(trend.t) < WARMUP_MAX_T && change <= WARMUP_MAX_CHANGE);
}

export interface WindowRule {
  minSeconds: number;
  maxSeconds: number;
  /** The window must hold this many mean round trips, so every connection completed many requests. */
  minRoundTrips: number;
  minResponses: number;
}

export interface WindowState {
  seconds: number;
  okResponses: number;
  /** Responses that failed validation, timeouts included. */
  failedResponses: number;
  /** Mean time a request holds its connection: successful latencies, a timeout counted at least as the timeout. */
  meanRoundTripMs: number | null;
}

export type WindowDecision = { done: false } | { done: true; limitedBy: 'duration' | 'round trips' | 'responses' | 'cap'; note: string | null };

/**
 * The window closes once it is long enough for the level, at its minimum when every response so far
 * failed, or at the cap (with a note saying what it lacks).
 */
export function windowDecision(state: WindowState, rule: WindowRule): WindowDecision {
  const latencySec = state.meanRoundTripMs === null ? null : state.meanRoundTripMs / 1000;
  const roundTrips = latencySec === null || latencySec === 0 ? 0 : state.seconds / latencySec;
  const enoughTrips = latencySec !== null && roundTrips >= rule.minRoundTrips;
  const enoughResponses = state.okResponses >= rule.minResponses;
  if (state.seconds >= rule.minSeconds && enoughTrips && enoughResponses) {
    const atMinimum = state.seconds === rule.minSeconds;
    const tripsBind = latencySec !== null && (state.seconds - 1) / latencySec < rule.minRoundTrips;
    return { done: true, limitedBy: atMinimum ? 'duration' : tripsBind ? 'round trips' : 'responses', note: null };
  }
  if (state.seconds >= rule.minSeconds && state.okResponses === 0 && state.failedResponses > 0) {
    // Every answer failed: a longer window measures nothing more, it only keeps the user waiting for the same verdict.
    return { done: true, limitedBy: 'duration', note: `no successful response in ${state.seconds} s (${state.failedResponses} failed): closed at its minimum` };
  }
  if (state.seconds >= rule.maxSeconds) {
    const lacks = [
      enoughTrips ? null : `${roundTrips.toFixed(1)} round trips (wanted ${rule.minRoundTrips})`,
      enoughResponses ? null : `${state.okResponses} successful responses (wanted ${rule.minResponses})`,
    ].filter((s): s is string => s !== null);
    return { done: true, limitedBy: 'cap', note: `window capped at ${rule.maxSeconds} s with only ${lacks.join(' and ')}` };
  }
  return { done: false };
}

export interface WindowSteadiness {
  steady: boolean;
  /** Why it is not steady; [] when it is. */
  reasons: string[];
  trend: Trend;
  /** Coefficient of variation of successful responses per second. */
  cv: number;
}

/** A trend this significant and this large means the window was still moving. */
const WINDOW_TREND_T = 3;
const WINDOW_TREND_CHANGE = 0.1;
/** Per-second throughput varying more than this (and well beyond counting noise) is too bursty to trust. */
const WINDOW_MAX_CV = 0.35;

/** After the step: did the measured window trend, or swing too much from second to second? */
export function judgeWindowSteadiness(okPerSecond: readonly number[]): WindowSteadiness {
  const trend = trendOf(okPerSecond);
  const cv = coefficientOfVariation(okPerSecond);
  const reasons: string[] = [];
  if (Math.abs(trend.t) >= WINDOW_TREND_T && Math.abs(trend.relativeChange) > WINDOW_TREND_CHANGE) {
    reasons.push(`throughput trended ${signedPercent(trend.relativeChange)} across the window (t ${trend.t.toFixed(1)})`);
  }
  const perSecond = okPerSecond.length > 0 ? mean(okPerSecond) : 0;
  // Counting noise alone gives a CV near 1/√(responses per second).
  const countingNoise = perSecond > 0 ? 1 / Math.sqrt(perSecond) : Infinity;
  if (cv > WINDOW_MAX_CV && cv > 3 * countingNoise) {
    reasons.push(`successful responses per second varied by ${Math.round(cv * 100)}% (CV): the gateway answers in bursts`);
  }
  return { steady: reasons.length === 0, reasons, trend, cv };
}

function signedPercent(x: number): string {
  return `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
}
