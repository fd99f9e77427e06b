/** Soak intervals for the leak tests: every request answered in time; the memory read in each is the test's own. */
import type { SoakInterval } from '@gwprof/results';

/** What an interval read of the gateway's memory and CPU. */
export type IntervalReadings = Pick<SoakInterval, 'gateway' | 'gatewayCpuPercent' | 'calm'> & Pick<Partial<SoakInterval>, 'nativeCalm'>;

/** `count` intervals of `seconds` at `rate` req/s (3 s of each the calm); `readings(endSec)` is called once an interval, in order. */
export function soakIntervals(count: number, load: { rate: number; seconds: number }, readings: (endSec: number) => IntervalReadings): SoakInterval[] {
  const { rate, seconds } = load;
  return Array.from({ length: count }, (_, index) => {
    const endSec = (index + 1) * seconds;
    return {
      index,
      startSec: endSec - seconds,
      endSec,
      loadSec: seconds - 3,
      requests: { sent: seconds * rate, ok: seconds * rate, failed: 0, dropped: 0 },
      failureCounts: { non2xx: 0, badBody: 0, graphqlErrors: 0, mismatch: 0, timeouts: 0, socketErrors: 0, protocolErrors: 0 },
      okRps: rate,
      latencyMs: null,
      gcShare: null,
      harnessRssBytes: 100e6,
      ...readings(endSec),
    };
  });
}
