import type { LittlesLawCheck } from '@gwprof/results';

/** |implied / configured − 1| within this band: the connections were kept busy as configured. */
const TOLERANCE = 0.15;
/** A load generator at or above this share of one core is CPU-bound (autocannon is single-threaded). */
const SATURATED_CPU_PERCENT = 90;

export interface LittlesLawInput {
  concurrency: number;
  rps: number;
  latencyMs: { mean: number } | null;
  successRate: number;
  loadgen?: { cpuPercent: number };
  /** With the request timeout, lets timed-out requests count as the connection time they held. */
  failureCounts?: { timeouts: number };
  durationSec?: number;
}

/**
 * Little's law, L = λW: in a closed loop each connection always has one request in flight, so
 * throughput × mean latency should equal the configured concurrency. Below it, connections sat
 * idle between a response and the next request: the load generator could not keep up. Above it,
 * the measured latency includes time requests waited on the client side before reaching the server.
 * Throughput counts successful responses only, so failures also pull the ratio down.
 */
export function checkLittlesLaw(step: LittlesLawInput, timeoutSec?: number): LittlesLawCheck {
  const base = { concurrency: step.concurrency, rps: step.rps };
  if (step.latencyMs === null) {
    return { ...base, meanLatencyMs: null, impliedConcurrency: null, ratio: null, flag: 'no-data', note: 'no successful responses, no latency' };
  }
  const meanLatencyMs = step.latencyMs.mean;
  const impliedConcurrency = (step.rps * meanLatencyMs) / 1000;
  const ratio = impliedConcurrency / step.concurrency;
  const checked = { ...base, meanLatencyMs, impliedConcurrency, ratio };
  const implied = `rps × mean latency = ${impliedConcurrency.toFixed(1)} requests in flight for ${step.concurrency} connections`;
  if (Math.abs(ratio - 1) <= TOLERANCE) return { ...checked, flag: 'ok', note: '' };
  if (ratio > 1) {
    return {
      ...checked,
      flag: 'client-queueing',
      note: `${implied}: measured latency includes time requests queued in the client, so it overstates the gateway's`,
    };
  }
  // Timed-out requests held their connection for the whole timeout without counting in rps:
  // when they account for the idle share, the gateway is the limit, not the load generator.
  const timeouts = step.failureCounts?.timeouts ?? 0;
  if (timeouts > 0 && timeoutSec !== undefined && step.durationSec) {
    const heldByTimeouts = (timeouts / step.durationSec) * timeoutSec;
    const withTimeouts = (impliedConcurrency + heldByTimeouts) / step.concurrency;
    if (withTimeouts >= 1 - TOLERANCE) {
      return {
        ...checked,
        flag: 'failures-hold-connections',
        note: `${implied} (${Math.round(ratio * 100)}% busy with successful requests); ${timeouts} timeouts held about ${heldByTimeouts.toFixed(1)} more for ${timeoutSec} s each: the gateway, not the load generator, left requests unanswered`,
      };
    }
  }
  const cpu = step.loadgen?.cpuPercent;
  const reasons = [`${implied} (${Math.round(ratio * 100)}% busy)`];
  if (step.successRate < 1) {
    reasons.push(`${((1 - step.successRate) * 100).toFixed(1)}% of responses failed and held connections without counting here`);
  }
  if (cpu !== undefined && cpu >= SATURATED_CPU_PERCENT) {
    reasons.push(`the load generator's CPU was at ${Math.round(cpu)}%: it could not keep its connections busy`);
    return { ...checked, flag: 'loadgen-saturated', note: reasons.join('; ') };
  }
  reasons.push(
    cpu === undefined
      ? 'connections sat idle between a response and the next request'
      : `connections sat idle though the load generator's CPU was only ${Math.round(cpu)}%: look at connection errors or the client`,
  );
  return { ...checked, flag: 'connections-idle', note: reasons.join('; ') };
}
