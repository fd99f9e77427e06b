/** A step record with what the compare metrics read, for the comparison tests. */
import type { StepRecord } from '@gwprof/results';

export function metricStep(level: number, cpuMs: number, status: StepRecord['status'] = 'ok', id = String(level)): StepRecord {
  return {
    id,
    load: { kind: 'closed', concurrency: level },
    status,
    failures: status === 'failed' ? ['success rate 90.00% is below the required 100.00%'] : [],
    rps: 1000 / cpuMs,
    latencyMs: { mean: 20, p50: 18, p75: 20, p80: 21, p90: 25, p95: 28, p99: 40, max: 50 },
    gateway: { cpuPercent: 95, cpuMsPerOkRequest: cpuMs, rssMaxMB: 300, pids: [] },
    fanout: 3.7,
  } as unknown as StepRecord;
}
