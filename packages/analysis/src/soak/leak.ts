/**
 * The soak's verdict: does memory keep growing after the warm-up? Each memory series, one value per
 * interval (heap after the calm's forced GC, external memory then, RSS net of the heap under load
 * up to the first snapshot), gets a Theil–Sen slope with Sen's 90% interval and a Mann–Kendall test. A slope is compared with
 * a threshold in bytes per successful request (converted to MB per hour at the soak's own throughput):
 *   - `leak` when the interval lies above the threshold, the rise is significant, and the later
 *     half of the calms alone still rises faster than the threshold (it keeps growing);
 *   - `no leak` when the interval lies below it;
 *   - `inconclusive` otherwise, or with too few calms after the warm-up.
 * Bytes per request, not MB per hour, is what a maintainer can act on, and it does not depend on
 * the load the soak happened to run at. A native gateway has no collector to force: its one series
 * is its allocator's live bytes where the gateway publishes them, else RssAnon read after the calm,
 * which holds what the allocator keeps as well as what is live.
 */
import type { SoakAnalysis, SoakCalm, SoakInterval, SoakMemoryMeasure, SoakProcessMemory, SoakSnapshot, SoakTrend } from '@gwprof/results';
import { mannKendall, theilSen, type TrendPoint } from './trend.js';
import { DEFAULT_MIN_GROWTH } from './heap-snapshot.js';

export interface LeakDesign {
  /** Calms before this many seconds from the start are warm-up (caches filling), not evidence. */
  warmupSec: number;
  thresholdBytesPerRequest: number;
  /** Fewer calms than this after the warm-up: inconclusive (too short to tell). */
  minPoints: number;
  /** A rise must also be this unlikely under no trend (one-sided Mann–Kendall). */
  maxPUp: number;
  /** The threshold is at least this many MB per hour, so a nearly idle soak is not held to bytes. */
  floorMbPerHour: number;
}

export const DEFAULT_LEAK_DESIGN: Omit<LeakDesign, 'warmupSec'> = {
  thresholdBytesPerRequest: 30,
  minPoints: 6,
  maxPUp: 0.01,
  floorMbPerHour: 0.5,
};

const MB = 1e6;

/** When and after how many successful requests an interval's calm was read: a Node gateway's forced GC, or a native one's /proc. */
export type CalmReading = Pick<SoakCalm, 'atSec' | 'okRequestsSoFar'>;

export function calmReading(interval: SoakInterval): CalmReading | null {
  return interval.calm ?? interval.nativeCalm ?? null;
}

/** When a heap snapshot was written. */
export type SnapshotTime = Pick<SoakSnapshot, 'atSec'>;

interface MemorySeries {
  series: SoakTrend['series'];
  /** The series' value in an interval (one with a calm), or null when it was not read. */
  value: (interval: SoakInterval) => number | null;
  /** The intervals this series may be read in; all of them unless a snapshot disturbs it. */
  judged?: (intervals: readonly SoakInterval[], snapshots: readonly SnapshotTime[]) => SoakInterval[];
}

/**
 * RSS net of the heap is read only up to the first heap snapshot after the warm-up: writing one
 * takes hundreds of MB of malloc for a 60 MB heap, and what the allocator keeps of it, or gives
 * back at the next snapshot and takes again under load, moves RSS by more than a leak would (on
 * a clean Apollo Gateway, steps of +130 to −45 MB). Neither the step nor its decay is the
 * gateway's, and no correction of it held on all three gateways.
 */
function beforeFirstSnapshot(intervals: readonly SoakInterval[], snapshots: readonly SnapshotTime[]): SoakInterval[] {
  const first = intervals[0] ? calmReading(intervals[0]) : null;
  const cut = first
    ? snapshots
        .map((s) => s.atSec)
        .filter((at) => at >= first.atSec)
        .sort((a, b) => a - b)[0]
    : undefined;
  return cut === undefined ? [...intervals] : intervals.filter((interval) => calmReading(interval)!.atSec <= cut);
}

/**
 * RSS net of the heap as the mean, over the interval's samples under load, of RSS minus heap total.
 * Read at the calm instead, right after the forced GC, it scattered by 50–100 MB from one calm to
 * the next on a clean Mesh: how much of what the GC just freed RSS still holds depends on the
 * moment it is read. Under load the two move together, and their difference held within 2 MB.
 */
export function rssNetOfHeapUnderLoad(interval: SoakInterval): number | null {
  const mean = interval.gateway?.mean;
  return mean ? rssNetOfHeap(mean) : null;
}

/** Memory outside the JS heap in one reading: RSS minus the heap V8 has reserved. */
export function rssNetOfHeap(reading: { rssBytes: number; heapTotalBytes: number }): number {
  return reading.rssBytes - reading.heapTotalBytes;
}

const NODE_SERIES: readonly MemorySeries[] = [
  { series: 'heapAfterGc', value: (interval) => interval.calm?.heapUsedBytes ?? null },
  { series: 'external', value: (interval) => interval.calm?.externalBytes ?? null },
  { series: 'rssNetOfHeap', value: rssNetOfHeapUnderLoad, judged: beforeFirstSnapshot },
];

/**
 * RssAnon rather than RSS: the file pages of a gateway's binary (104 MB for Grafbase's) come in as
 * code paths first run and go when the kernel reclaims them, which is neither a leak nor its absence.
 */
const RSS_ANON_SERIES: MemorySeries = { series: 'rssAnonAfterCalm', value: (interval) => interval.nativeCalm?.rssAnonBytes ?? null };

/**
 * The allocator's live bytes (jemalloc's stats.allocated): what the program holds in allocations,
 * without the freed pages the allocator keeps, so neither the calm's length nor a burst's high-water
 * mark moves it.
 */
const ALLOCATED_SERIES: MemorySeries = { series: 'allocatedAfterCalm', value: allocatedAfterCalm };

export function allocatedAfterCalm(interval: SoakInterval): number | null {
  return interval.nativeCalm?.allocator?.allocatedBytes ?? null;
}

/**
 * The Node heap for a soak with a forced GC at its calms; for a native one, its allocator's live
 * bytes when any calm read them, else RssAnon.
 */
export function soakMemoryMeasure(intervals: readonly SoakInterval[]): SoakMemoryMeasure {
  if (!intervals.some((interval) => interval.nativeCalm)) return 'node-heap';
  return intervals.some((interval) => allocatedAfterCalm(interval) !== null) ? 'native-allocator' : 'native-rss';
}

/** The series the verdict reads, and those shown beside it (RssAnon when the allocator's live bytes decide). */
function seriesOf(measure: SoakMemoryMeasure): { judged: readonly MemorySeries[]; beside: readonly MemorySeries[] } {
  if (measure === 'native-allocator') return { judged: [ALLOCATED_SERIES], beside: [RSS_ANON_SERIES] };
  return { judged: measure === 'native-rss' ? [RSS_ANON_SERIES] : NODE_SERIES, beside: [] };
}

const NO_LEAK_STANDS_ON: Record<SoakMemoryMeasure, string> = {
  'node-heap': "every memory series' 90% interval lies",
  'native-rss': 'RssAnon after the calm: its 90% interval lies',
  'native-allocator': "the allocator's live bytes after the calm: their 90% interval lies",
};

/** The native readings after the warm-up, in time order. */
export function nativeCalmsAfterWarmup(intervals: readonly SoakInterval[], warmupSec: number): SoakProcessMemory[] {
  return intervalsAfterWarmup(intervals, warmupSec).flatMap((interval) => (interval.nativeCalm ? [interval.nativeCalm] : []));
}

/** Successful requests per hour after the warm-up, from the calms' running totals. */
function okPerHour(calms: readonly CalmReading[]): number | null {
  if (calms.length < 2) return null;
  const first = calms[0]!;
  const last = calms[calms.length - 1]!;
  const hours = (last.atSec - first.atSec) / 3600;
  return hours > 0 ? (last.okRequestsSoFar - first.okRequestsSoFar) / hours : null;
}

/** One series' trend over the intervals after the warm-up (each with a calm), and what it says against the threshold. */
export function memoryTrend(
  allIntervals: readonly SoakInterval[],
  snapshots: readonly SnapshotTime[],
  series: MemorySeries,
  design: Omit<LeakDesign, 'warmupSec'>,
): SoakTrend {
  const judged = series.judged ? series.judged(allIntervals, snapshots) : [...allIntervals];
  const readings = judged.flatMap((interval) => {
    const value = series.value(interval);
    return value === null ? [] : [{ calm: calmReading(interval)!, value }];
  });
  const calms = readings.map((r) => r.calm);
  const points: TrendPoint[] = readings.map((r) => ({ x: r.calm.atSec / 3600, y: r.value / MB }));
  const fit = theilSen(points, 0.9);
  const { pUp } = mannKendall(points);
  const perHour = okPerHour(calms);
  const perRequest = (mbPerHour: number | null) => (mbPerHour === null || !perHour ? null : (mbPerHour * MB) / perHour);
  const thresholdMbPerHour = Math.max(design.floorMbPerHour, perHour ? (design.thresholdBytesPerRequest * perHour) / MB : 0);
  let verdict: SoakTrend['verdict'] = 'inconclusive';
  if (points.length >= design.minPoints && fit.lower !== null && fit.upper !== null) {
    if (fit.lower > thresholdMbPerHour && pUp < design.maxPUp && stillRising(points, thresholdMbPerHour)) verdict = 'leak';
    else if (fit.upper < thresholdMbPerHour) verdict = 'no leak';
  }
  const slope = perRequest(fit.slope);
  return {
    series: series.series,
    points: points.length,
    judgedUntilSec: judged.length < allIntervals.length ? (calmReading(judged.at(-1)!)?.atSec ?? null) : null,
    mbPerHour: { slope: fit.slope, low: fit.lower, high: fit.upper },
    bytesPerRequest: slope === null ? null : { slope, low: perRequest(fit.lower), high: perRequest(fit.upper) },
    pUp,
    line: { interceptMb: fit.intercept, slopeMbPerHour: fit.slope },
    verdict,
  };
}

/**
 * A leak keeps growing: the later half of the points alone must still rise faster than the
 * threshold. Memory that approaches a plateau slowly (allocator arenas, a cache near its bound)
 * rises over the whole span but not at its end.
 */
function stillRising(points: readonly TrendPoint[], thresholdMbPerHour: number): boolean {
  const later = theilSen(points.slice(Math.floor(points.length / 2)), 0.9);
  return later.lower !== null && later.lower > thresholdMbPerHour;
}

/** The intervals that count: those whose calm came after the warm-up, in time order. */
export function intervalsAfterWarmup(intervals: readonly SoakInterval[], warmupSec: number): SoakInterval[] {
  const at = (interval: SoakInterval) => calmReading(interval)?.atSec ?? -Infinity;
  return intervals.filter((interval) => at(interval) >= warmupSec).sort((a, b) => at(a) - at(b));
}

/** A Node gateway's calms that count: after the warm-up, in time order. */
export function calmsAfterWarmup(intervals: readonly SoakInterval[], warmupSec: number): SoakCalm[] {
  return intervalsAfterWarmup(intervals, warmupSec).flatMap((interval) => (interval.calm ? [interval.calm] : []));
}

/** A Theil–Sen slope in MB per hour; null with fewer than two readings. */
function mbPerHour(readings: ReadonlyArray<{ atSec: number; bytes: number }>): number | null {
  return readings.length >= 2 ? theilSen(readings.map((r) => ({ x: r.atSec / 3600, y: r.bytes / MB }))).slope : null;
}

/**
 * The harness's own memory after the warm-up (its start-up, its JIT and its heap finding its size,
 * is no more a leak than the gateway's): RSS at each interval's end, heap after its own GC at each calm.
 */
function harnessSlopes(intervals: readonly SoakInterval[], warmupSec: number): Pick<SoakAnalysis, 'harnessRssMbPerHour' | 'harnessHeapMbPerHour'> {
  const after = intervals.filter((i) => i.endSec >= warmupSec);
  const heap = after.flatMap((i) => (i.harnessHeapAfterGcBytes == null ? [] : [{ atSec: i.endSec, bytes: i.harnessHeapAfterGcBytes }]));
  return { harnessRssMbPerHour: mbPerHour(after.map((i) => ({ atSec: i.endSec, bytes: i.harnessRssBytes }))), harnessHeapMbPerHour: mbPerHour(heap) };
}

/** The verdict over all series: any leak is a leak; no leak needs every series to say so. */
export function judgeSoak(
  intervals: readonly SoakInterval[],
  snapshots: readonly SnapshotTime[],
  design: LeakDesign,
  crashed: boolean,
): Pick<SoakAnalysis, 'verdict' | 'reason' | 'memoryMeasure' | 'trends' | 'besideTrends' | 'harnessRssMbPerHour' | 'harnessHeapMbPerHour'> {
  const judged = intervalsAfterWarmup(intervals, design.warmupSec);
  const calms = judged.map((interval) => calmReading(interval)!);
  const memoryMeasure = soakMemoryMeasure(intervals);
  const series = seriesOf(memoryMeasure);
  const trends = series.judged.map((s) => memoryTrend(judged, snapshots, s, design));
  const beside = series.beside.map((s) => memoryTrend(judged, snapshots, s, design));
  const harness = { memoryMeasure, ...(beside.length > 0 ? { besideTrends: beside } : {}), ...harnessSlopes(intervals, design.warmupSec) };
  const leaking = trends.filter((t) => t.verdict === 'leak');
  const describe = (t: SoakTrend) =>
    `${t.series} ${signed(t.mbPerHour.slope)} MB/h${t.bytesPerRequest ? ` (${signed(t.bytesPerRequest.slope)} B/request)` : ''}`;
  if (crashed) return { verdict: 'crash', reason: 'the gateway died during the soak', trends, ...harness };
  if (leaking.length > 0) {
    return { verdict: 'leak', reason: `memory kept growing after the warm-up: ${leaking.map(describe).join('; ')}`, trends, ...harness };
  }
  if (calms.length < design.minPoints) {
    return {
      verdict: 'inconclusive',
      reason: `only ${calms.length} calm(s) after the ${design.warmupSec} s warm-up; at least ${design.minPoints} are needed: soak longer or shorten --interval`,
      trends,
      ...harness,
    };
  }
  if (trends.every((t) => t.verdict === 'no leak')) {
    return { verdict: 'no leak', reason: `${NO_LEAK_STANDS_ON[memoryMeasure]} below ${design.thresholdBytesPerRequest} B/request`, trends, ...harness };
  }
  const open = trends
    .filter((t) => t.verdict === 'inconclusive')
    .map(describe)
    .join('; ');
  return {
    verdict: 'inconclusive',
    reason: `the trend's interval still includes ${design.thresholdBytesPerRequest} B/request: ${open}; soak longer to tell`,
    trends,
    ...harness,
  };
}

/**
 * Whether to take a heap snapshot after the calm of the newest interval (of `count`): always after
 * the last; before it only when heap after GC or external memory has grown, at each of the last
 * two calms, since the warm-up or the last snapshot, by more than the threshold per request and by
 * more than a class must grow to be named (1 MiB), and then at most every `every` intervals. A
 * snapshot blocks the gateway for seconds and leaves hundreds of MB with the allocator, which then
 * moves RSS by tens of MB for the rest of the soak; so a gateway that does not grow is looked at
 * once, at the end, and its RSS is read undisturbed, and one that grows is looked at often enough
 * to name what grows. `every` 0: none at all.
 */
export function snapshotDue(
  intervals: readonly SoakInterval[],
  snapshots: readonly SnapshotTime[],
  design: Pick<LeakDesign, 'warmupSec' | 'thresholdBytesPerRequest'>,
  plan: { count: number; every: number },
): boolean {
  const index = intervals.length - 1;
  if (plan.every <= 0 || index < 0) return false;
  if (index === plan.count - 1) return true;
  const lastAt = snapshots.reduce((latest, s) => Math.max(latest, s.atSec), -Infinity);
  if (intervals.filter((i) => (i.calm?.atSec ?? i.endSec) > lastAt).length < plan.every) return false;
  const calms = calmsAfterWarmup(intervals, design.warmupSec);
  const since = calms.filter((c) => c.atSec <= Math.max(lastAt, calms[0]?.atSec ?? 0)).at(-1);
  const latest = calms.slice(-2);
  if (!since || latest.length < 2 || latest[0]!.atSec <= since.atSec) return false;
  // Grown at both of the last two calms, so one noisy calm does not cost a snapshot.
  const grown = (value: (calm: SoakCalm) => number) =>
    latest.every((calm) => {
      const bar = Math.max(DEFAULT_MIN_GROWTH, design.thresholdBytesPerRequest * (calm.okRequestsSoFar - since.okRequestsSoFar));
      return value(calm) - value(since) > bar;
    });
  return grown((calm) => calm.heapUsedBytes) || grown((calm) => calm.externalBytes);
}

const signed = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(Math.abs(x) < 10 ? 2 : 1)}`;

/** V8's groups and JavaScript's built-in containers: they hold a leak more often than they are it. */
const BUILT_IN_CLASS = /^(?:\(.*\)|system \/ .*|Array|Object|Map|Set|WeakMap|WeakSet|Function|Promise|String|Number|Symbol|Error)$/;

/**
 * Of the classes whose retained size grew in every snapshot diff, those with more instances at the
 * end than at the start (a holder such as the server or a module's scope grows in retained size
 * only): the application's own classes first, then built-in containers, each by growth.
 */
export function leakingClasses<T extends { name: string; counts: Array<number | null>; growthBytes: number }>(grown: readonly T[]): T[] {
  const first = (values: Array<number | null>) => values.find((v) => v !== null) ?? null;
  const last = (values: Array<number | null>) => [...values].reverse().find((v) => v !== null) ?? null;
  const multiplied = grown.filter((c) => {
    const [a, b] = [first(c.counts), last(c.counts)];
    return a !== null && b !== null && b > a;
  });
  const rank = (c: T) => (BUILT_IN_CLASS.test(c.name) ? 1 : 0);
  return multiplied.sort((a, b) => rank(a) - rank(b) || b.growthBytes - a.growthBytes);
}
