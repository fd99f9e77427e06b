/**
 * What came back, by the second it came back in. A step's load runs continuously; the warm-up and
 * the measured window are ranges of seconds of the same recording, so the window counts exactly
 * the responses that completed inside it, whenever they were sent.
 */
import * as hdr from 'hdr-histogram-js';
import type { FailureCounts, FailureSample, LatencyMs } from '@gwprof/results';
import { FailureSamples, emptyFailureCounts, sumFailures } from './failure-log.js';

export type Completion =
  | { ok: true; latencyMs: number; orderWarning: boolean; bytes: number }
  | { ok: false; kind: keyof FailureCounts; message: string; bytes: number };

interface SecondBucket {
  ok: number;
  failures: FailureCounts;
  samples: FailureSamples | null;
  orderWarnings: number;
  responses: number;
  bytes: number;
  /** Latency of each successful response, ms. Raw values: a window's percentiles come from one histogram built at its end. */
  latencies: number[];
  /** Requests that left in this second. */
  sent: number;
  /** Open-loop sends due in this second that the in-flight cap refused. */
  dropped: number;
  /** Open-loop sends: how late each left against its schedule, ms. */
  lags: number[];
  /** Connections the engine opened (first ones and every reopening). */
  connections: number;
  /** The most requests in flight at once. */
  peakInFlight: number;
}

export interface WindowStats {
  requests: { total: number; ok: number; failed: number };
  /** Requests that left during the window, and open-loop sends the in-flight cap refused. */
  sent: number;
  dropped: number;
  /** How late open-loop sends left against their schedule; null for closed-loop load. */
  lagMs: { p50: number; p99: number; max: number } | null;
  /** Connections the engine opened during the window, and the most requests in flight at once in it. */
  connectionsOpened: number;
  peakInFlight: number;
  failureCounts: FailureCounts;
  failureSamples: FailureSample[];
  orderWarnings: number;
  latencyMs: LatencyMs | null;
  bytesPerResponse: number;
}

const MAX_US = 3_600_000_000;

/** A histogram of millisecond values (recorded in µs, three significant digits, up to an hour). */
function histogramOf(values: Iterable<number>): hdr.Histogram {
  const histogram = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: MAX_US, numberOfSignificantValueDigits: 3, autoResize: false });
  for (const ms of values) histogram.recordValue(Math.min(MAX_US, Math.max(1, Math.round(ms * 1000))));
  return histogram;
}

/** The p-th percentile of a few values, exactly (nearest rank). */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export class LoadRecorder {
  private readonly buckets: SecondBucket[] = [];
  private inFlightCount = 0;
  private sentCount = 0;
  private connectionsCount = 0;

  /** `startedAt` is performance.now() when the load started; second 0 begins there. */
  constructor(readonly startedAt: number) {}

  get inFlight(): number {
    return this.inFlightCount;
  }

  get sent(): number {
    return this.sentCount;
  }

  /** Connections the engine opened since the load started. */
  get connectionsOpened(): number {
    return this.connectionsCount;
  }

  /** The engine opened a connection at `now` (performance.now()). */
  onConnect(now: number): void {
    this.connectionsCount++;
    this.bucket(Math.max(0, this.secondAt(now))).connections++;
  }

  /** Whole seconds since the load started at `now` (performance.now()). */
  secondAt(now: number): number {
    return Math.floor((now - this.startedAt) / 1000);
  }

  /** A request left at `now` (performance.now()); `lateMs`: how late against its schedule (open loop). */
  onSend(now: number, lateMs?: number): void {
    this.sentCount++;
    this.inFlightCount++;
    const bucket = this.bucket(Math.max(0, this.secondAt(now)));
    bucket.sent++;
    if (this.inFlightCount > bucket.peakInFlight) bucket.peakInFlight = this.inFlightCount;
    if (lateMs !== undefined) bucket.lags.push(lateMs);
  }

  /** An open-loop send due at `dueAt` that the in-flight cap refused. */
  onDrop(dueAt: number): void {
    this.bucket(Math.max(0, this.secondAt(dueAt))).dropped++;
  }

  /** A request finished (answered or failed) at `now`. */
  onComplete(now: number, completion: Completion): void {
    this.inFlightCount--;
    this.record(now, completion);
  }

  /** A request passed its timeout at `at`: a failure now, though it stays in flight until settled. */
  onTimedOut(at: number, completion: Completion): void {
    this.record(at, completion);
  }

  /** A timed-out request's late response arrived (or was given up): it is no longer in flight. */
  onSettled(): void {
    this.inFlightCount--;
  }

  private record(now: number, completion: Completion): void {
    const bucket = this.bucket(Math.max(0, this.secondAt(now)));
    bucket.responses++;
    bucket.bytes += completion.bytes;
    if (completion.ok) {
      bucket.ok++;
      if (completion.orderWarning) bucket.orderWarnings++;
      bucket.latencies.push(completion.latencyMs);
      return;
    }
    bucket.failures[completion.kind]++;
    (bucket.samples ??= new FailureSamples()).add(completion.kind, completion.message);
  }

  /** Successful responses in each second of [from, to). */
  okPerSecond(from: number, to: number): number[] {
    return this.range(from, to).map((b) => b.ok);
  }

  /** One second's figures, for the per-second series. */
  second(index: number): { ok: number; failed: number; p50Ms: number | null; p99Ms: number | null } {
    const bucket = this.bucket(index);
    const hasLatency = bucket.latencies.length > 0;
    return {
      ok: bucket.ok,
      failed: sumFailures(bucket.failures),
      p50Ms: hasLatency ? percentile(bucket.latencies, 50) : null,
      p99Ms: hasLatency ? percentile(bucket.latencies, 99) : null,
    };
  }

  /**
   * Counts of the seconds [from, to), the mean latency of their successful responses, and their mean
   * round trip, in which a timeout counts as `timeoutMs` (a lower bound: its answer, if any, comes
   * later). A window must hold several round trips; when many requests time out, the successful ones
   * alone would make a round trip look shorter than it is. Cheap enough to ask every second.
   */
  tally(from: number, to: number, timeoutMs = 0): { ok: number; failed: number; meanLatencyMs: number | null; meanRoundTripMs: number | null } {
    let ok = 0;
    let failed = 0;
    let timeouts = 0;
    let latencySum = 0;
    for (const bucket of this.range(from, to)) {
      ok += bucket.ok;
      failed += sumFailures(bucket.failures);
      timeouts += bucket.failures.timeouts;
      for (const ms of bucket.latencies) latencySum += ms;
    }
    const trips = ok + timeouts;
    return {
      ok,
      failed,
      meanLatencyMs: ok > 0 ? latencySum / ok : null,
      meanRoundTripMs: trips > 0 ? (latencySum + timeouts * timeoutMs) / trips : null,
    };
  }

  /** Everything that completed in the seconds [from, to): asked once, when the window has closed. */
  window(from: number, to: number): WindowStats {
    const buckets = this.range(from, to);
    const failureCounts = emptyFailureCounts();
    const samples = new Map<string, FailureSample>();
    let ok = 0;
    let orderWarnings = 0;
    let responses = 0;
    let bytes = 0;
    let sent = 0;
    let dropped = 0;
    let connectionsOpened = 0;
    let peakInFlight = 0;
    for (const bucket of buckets) {
      sent += bucket.sent;
      connectionsOpened += bucket.connections;
      peakInFlight = Math.max(peakInFlight, bucket.peakInFlight);
      dropped += bucket.dropped;
      ok += bucket.ok;
      orderWarnings += bucket.orderWarnings;
      responses += bucket.responses;
      bytes += bucket.bytes;
      for (const kind of Object.keys(failureCounts) as Array<keyof FailureCounts>) failureCounts[kind] += bucket.failures[kind];
      for (const sample of bucket.samples?.list() ?? []) mergeSample(samples, sample);
    }
    const failed = sumFailures(failureCounts);
    const latency = histogramOf(buckets.flatMap((b) => b.latencies));
    const lag = histogramOf(buckets.flatMap((b) => b.lags));
    return {
      requests: { total: ok + failed, ok, failed },
      sent,
      dropped,
      lagMs: lag.totalCount > 0 ? { p50: lag.getValueAtPercentile(50) / 1000, p99: lag.getValueAtPercentile(99) / 1000, max: lag.maxValue / 1000 } : null,
      connectionsOpened,
      peakInFlight,
      failureCounts,
      failureSamples: [...samples.values()],
      orderWarnings,
      latencyMs: summarizeLatency(latency),
      bytesPerResponse: responses > 0 ? Math.round(bytes / responses) : 0,
    };
  }

  private range(from: number, to: number): SecondBucket[] {
    const out: SecondBucket[] = [];
    for (let i = from; i < to; i++) out.push(this.bucket(i));
    return out;
  }

  private bucket(index: number): SecondBucket {
    while (this.buckets.length <= index) {
      this.buckets.push({
        ok: 0,
        failures: emptyFailureCounts(),
        samples: null,
        orderWarnings: 0,
        responses: 0,
        bytes: 0,
        latencies: [],
        sent: 0,
        dropped: 0,
        lags: [],
        connections: 0,
        peakInFlight: 0,
      });
    }
    return this.buckets[index]!;
  }
}

/** Failure samples of several seconds: the same message adds up, a few messages per kind. */
function mergeSample(samples: Map<string, FailureSample>, sample: FailureSample): void {
  const key = `${sample.kind}\0${sample.message}`;
  const seen = samples.get(key);
  if (seen) seen.count += sample.count;
  else if ([...samples.values()].filter((s) => s.kind === sample.kind).length < 5) samples.set(key, { ...sample });
}

export function summarizeLatency(histogram: hdr.Histogram): LatencyMs | null {
  if (histogram.totalCount === 0) return null;
  const ms = (us: number): number => Math.round(us) / 1000;
  return {
    mean: Math.round(histogram.mean) / 1000,
    p50: ms(histogram.getValueAtPercentile(50)),
    p75: ms(histogram.getValueAtPercentile(75)),
    p80: ms(histogram.getValueAtPercentile(80)),
    p90: ms(histogram.getValueAtPercentile(90)),
    p95: ms(histogram.getValueAtPercentile(95)),
    p99: ms(histogram.getValueAtPercentile(99)),
    max: ms(histogram.maxValue),
  };
}
