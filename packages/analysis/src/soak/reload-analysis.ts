/**
 * What a reload soak found: how many swaps the gateway was seen to serve, the requests failed and
 * the p99 latency in the window around each seen reload against the windows without one, and the
 * memory the verdict reads after the reloads against the last calm before the first. A swap that was
 * not seen is not a reload: its window is neither around a reload nor without one.
 */
import type { SoakInterval, SoakLoadWindow, SoakReload, SoakReloadAnalysis, SoakReloadMemory, SoakResult, SoakWindowGroup } from '@gwprof/results';
import { median } from '../descriptive.js';

const seenReload = (reload: SoakReload): boolean => reload.error === null && reload.seenAfterSec !== null;

function groupOf(windows: readonly SoakLoadWindow[]): SoakWindowGroup {
  const p99s = windows.flatMap((w) => (w.latencyMs ? [w.latencyMs.p99] : []));
  return {
    windows: windows.length,
    ok: windows.reduce((sum, w) => sum + w.requests.ok, 0),
    failed: windows.reduce((sum, w) => sum + w.requests.failed, 0),
    medianP99Ms: p99s.length > 0 ? median(p99s) : null,
    maxP99Ms: p99s.length > 0 ? Math.max(...p99s) : null,
  };
}

const ratio = (a: number | null, b: number | null): number | null => (a === null || b === null || b <= 0 ? null : a / b);

/** The verdict's series at an interval's calm: a Node gateway's heap after GC, a native one's RssAnon. */
function calmMemory(interval: SoakInterval): number | null {
  return interval.calm?.heapUsedBytes ?? interval.nativeCalm?.rssAnonBytes ?? null;
}

export function reloadMemory(intervals: readonly SoakInterval[]): SoakReloadMemory | null {
  const series = intervals.some((i) => i.nativeCalm) ? 'rssAnonAfterCalm' : 'heapAfterGc';
  let made = 0;
  let seen = 0;
  let beforeBytes: number | null = null;
  let after: { bytes: number; seen: number } | null = null;
  for (const interval of intervals) {
    const reloads = interval.reloads?.reloads ?? [];
    made += reloads.length;
    seen += reloads.filter(seenReload).length;
    const bytes = calmMemory(interval);
    if (bytes === null) continue;
    if (made === 0) beforeBytes = bytes;
    else after = { bytes, seen };
  }
  if (made === 0) return null;
  const bytesPerReload = beforeBytes !== null && after && after.seen > 0 ? (after.bytes - beforeBytes) / after.seen : null;
  return { series, beforeBytes, afterBytes: after?.bytes ?? null, reloadsBy: after?.seen ?? 0, bytesPerReload };
}

export function analyzeReloads(soak: Pick<SoakResult, 'config' | 'intervals'>): SoakReloadAnalysis | null {
  const config = soak.config.reload;
  if (!config) return null;
  const reloads = soak.intervals.flatMap((i) => i.reloads?.reloads ?? []);
  const windows = soak.intervals.flatMap((i) => i.reloads?.windows ?? []);
  const seen = new Map(reloads.filter(seenReload).map((r) => [r.index, r]));
  const around = windows.filter((w) => w.reload !== null && seen.has(w.reload));
  const without = groupOf(windows.filter((w) => w.reload === null));
  const aroundGroup = groupOf(around);
  const seenAfter = [...seen.values()].map((r) => r.seenAfterSec!);
  return {
    everySec: config.everySec,
    made: reloads.filter((r) => r.error === null).length,
    seen: seen.size,
    unseen: reloads.filter((r) => r.error === null && r.seenAfterSec === null).length,
    swapFailed: reloads.filter((r) => r.error !== null).length,
    seenAfterSec: seenAfter.length > 0 ? { median: median(seenAfter), max: Math.max(...seenAfter) } : null,
    aroundReloads: aroundGroup,
    withoutReloads: without,
    p99Ratio: ratio(aroundGroup.medianP99Ms, without.medianP99Ms),
    effects: around.map((w) => {
      const reload = seen.get(w.reload!)!;
      const p99Ms = w.latencyMs?.p99 ?? null;
      return {
        index: reload.index,
        atSec: reload.atSec,
        seenAfterSec: reload.seenAfterSec,
        failed: w.requests.failed,
        ok: w.requests.ok,
        p99Ms,
        p99Ratio: ratio(p99Ms, without.medianP99Ms),
      };
    }),
    memory: reloadMemory(soak.intervals),
  };
}

/** What the CLI prints when the soak asked for reloads and none was seen: its reload figures then say nothing. */
export function reloadExitReasons(reloads: SoakReloadAnalysis | null): string[] {
  if (!reloads || reloads.seen > 0 || reloads.made + reloads.swapFailed === 0) return [];
  return [
    `gwprof: none of the ${reloads.made + reloads.swapFailed} supergraph swaps was seen served (${reloads.swapFailed} failed): nothing is measured of reloads; see the gateway's log`,
  ];
}
