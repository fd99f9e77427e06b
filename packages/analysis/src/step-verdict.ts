/**
 * A step's verdict from what its window measured: failed (too few successful responses, none at
 * all, or the gateway died), overloaded (an open-loop step whose schedule was not kept),
 * harness-bound (the harness's cores were full, the gateway's not: harness-bound.ts), unsteady
 * (throughput trended or swung) or ok. Collect records it as the step ends, and the tables,
 * capacity and exit code read it.
 */
import type { RateFacts, StepRecord } from '@gwprof/results';

export interface StepVerdictInput {
  requests: { total: number; ok: number };
  minSuccess: number;
  /** Why the gateway is gone, when it died during the step. */
  gatewayExit: string | null;
  rate: RateFacts | null;
  steady: boolean;
  /** Why the harness, not the gateway, set the step's limit; null when it did not. */
  harnessBound?: string | null;
}

/** Why the step failed, one line each; [] when it did not. */
export function stepFailures({ requests, minSuccess, gatewayExit }: Pick<StepVerdictInput, 'requests' | 'minSuccess' | 'gatewayExit'>): string[] {
  const reasons: string[] = [];
  const { total, ok } = requests;
  if (total === 0) reasons.push('no response at all in the measured window');
  else if (ok / total < minSuccess) {
    reasons.push(`success rate ${((ok / total) * 100).toFixed(2)}% is below the required ${(minSuccess * 100).toFixed(2)}%`);
  }
  if (gatewayExit) reasons.push(gatewayExit);
  return reasons;
}

export function stepStatus(input: StepVerdictInput): StepRecord['status'] {
  if (stepFailures(input).length > 0) return 'failed';
  if (input.rate && !input.rate.scheduleKept) return 'overloaded';
  if (input.harnessBound) return 'harness-bound';
  return input.steady ? 'ok' : 'unsteady';
}
