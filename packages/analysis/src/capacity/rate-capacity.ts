/**
 * Capacity from a fixed-rate ladder (seeds 001 and 004): where the gateway stops keeping up with
 * the offered rate or its tail latency breaks (the knee), and the highest rate that still meets
 * the service-level targets.
 */
import type { LatencyMs, RateCapacity, Slo, StepRecord } from '@gwprof/results';

/**
 * Successful throughput below this share of what was sent means the gateway no longer keeps up.
 * What was sent, not the target: a Poisson window sends short by chance (at 9/s over 24 s, 5% short
 * one time in four), and a generator that fell behind its schedule is already `overloaded`.
 */
const KEEP_UP = 0.95;
/**
 * A median latency this many times the lightest step's marks the knee: queueing, not service,
 * now dominates a typical request. The median, because a p99 of a few hundred responses moves
 * with one GC pause (on Mesh a 3× p99 rule broke at 30% of the peak, CPU at 49%).
 */
const LATENCY_BREAK = 3;

function target(step: StepRecord): number {
  return step.rate?.targetRps ?? 0;
}

/** How an overloaded step missed its schedule: sends dropped at the in-flight cap, or sends late. */
function scheduleMiss(step: StepRecord): string {
  const dropped = step.rate?.dropped ?? 0;
  if (dropped > 0) return `${dropped} sends dropped at the in-flight cap`;
  const lag = step.rate?.lagMs?.p99;
  return lag === undefined ? 'the generator fell behind its schedule' : `sends late: p99 lag ${Math.round(lag)} ms`;
}

/** Why a step is past the knee, or null when it keeps up. */
function pastKnee(step: StepRecord, lightestP50: number | null): string | null {
  if (step.status === 'failed') return `failed: ${step.failures[0] ?? ''}`;
  if (step.status === 'overloaded') return `the offered rate could not be kept (${scheduleMiss(step)})`;
  const sent = step.rate?.sentRps ?? 0;
  if (step.rps < KEEP_UP * sent) return `${step.rps.toFixed(1)} successful req/s against ${sent.toFixed(1)} sent (${target(step)} offered)`;
  const p50 = step.latencyMs?.p50 ?? null;
  if (lightestP50 !== null && p50 !== null && p50 > LATENCY_BREAK * lightestP50)
    return `p50 ${Math.round(p50)} ms, over ${LATENCY_BREAK}× the ${Math.round(lightestP50)} ms of the lightest rate`;
  return null;
}

/** The targets a step misses, one line each ([] when it meets them all). */
export function sloMisses(step: StepRecord, slo: Slo): string[] {
  const misses: string[] = [];
  if (step.status === 'failed' || step.status === 'overloaded' || step.status === 'harness-bound') misses.push(`step ${step.status}`);
  for (const [key, limit] of Object.entries(slo.latencyMs) as Array<[keyof Slo['latencyMs'], number]>) {
    const value = step.latencyMs?.[key as keyof LatencyMs] ?? null;
    if (value === null || value > limit) misses.push(`${key} ${value === null ? 'unknown' : `${Math.round(value)} ms`} > ${limit} ms`);
  }
  if (slo.minSuccess !== null && step.successRate < slo.minSuccess)
    misses.push(`success ${(step.successRate * 100).toFixed(3)}% < ${(slo.minSuccess * 100).toFixed(3)}%`);
  return misses;
}

export function analyzeRateCapacity(steps: readonly StepRecord[], slo: Slo | null): RateCapacity {
  const ladder = steps.filter((s) => s.rate !== null).sort((a, b) => target(a) - target(b));
  const notes: string[] = [];
  const lightestP50 = ladder.find((s) => s.status !== 'failed')?.latencyMs?.p50 ?? null;
  const broken = ladder.map((step) => ({ step, why: pastKnee(step, lightestP50) }));
  const firstBroken = broken.findIndex((b) => b.why !== null);
  let knee: RateCapacity['knee'] = null;
  if (firstBroken > 0) {
    const last = ladder[firstBroken - 1]!;
    knee = { lastKeptRps: target(last), firstBrokenRps: target(broken[firstBroken]!.step), why: broken[firstBroken]!.why! };
  } else if (firstBroken === 0) {
    notes.push(`the lightest rate already broke (${broken[0]!.why}): step lower to find the knee`);
  } else if (ladder.length > 0) {
    notes.push(`every rate up to ${target(ladder.at(-1)!)} req/s was kept: step higher to find the knee`);
  }
  let maxRateUnderSlo: number | null = null;
  if (slo) {
    const meeting = ladder.filter((s) => sloMisses(s, slo).length === 0);
    maxRateUnderSlo = meeting.length > 0 ? target(meeting.at(-1)!) : null;
    if (meeting.length === 0) notes.push('no rate met the service-level targets');
  }
  return { knee, maxRateUnderSlo, slo, notes };
}
