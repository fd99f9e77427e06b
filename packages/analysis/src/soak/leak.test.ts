import { describe, expect, it } from 'vitest';
import type { SoakCalm, SoakInterval } from '@gwprof/results';
import { DEFAULT_LEAK_DESIGN, judgeSoak, leakingClasses, snapshotDue } from './leak.js';
import { mulberry32 } from '../random.js';
import { soakIntervals } from '../testing/soak-intervals.js';

const RATE = 100;
const INTERVAL = 60;

interface SoakShape {
  external?: (sec: number) => number;
  /** Memory outside the heap, as RSS net of heap total reads it under load. */
  native?: (sec: number) => number;
  noise?: number;
  /** How far RSS read at the calm strays from the load's level (V8 releasing freed pages late). */
  calmRssNoise?: number;
}

/** Intervals of a soak at RATE req/s whose heap after GC is `heapAt(seconds)`, with a little noise. */
function soak(count: number, heapAt: (sec: number) => number, options: SoakShape = {}): SoakInterval[] {
  const random = mulberry32(5);
  return soakIntervals(count, { rate: RATE, seconds: INTERVAL }, (endSec) => {
    const jitter = (size = options.noise ?? 50_000) => (random() - 0.5) * 2 * size;
    const heapTotalBytes = heapAt(endSec) + 20e6;
    const native = (options.native ?? (() => 60e6))(endSec - INTERVAL / 2);
    const calm: SoakCalm = {
      atSec: endSec,
      okRequestsSoFar: endSec * RATE,
      heapUsedBytes: heapAt(endSec) + jitter(),
      heapTotalBytes,
      externalBytes: (options.external ?? (() => 2e6))(endSec) + jitter(),
      arrayBuffersBytes: 1e6,
      rssBytes: heapTotalBytes + native + jitter(options.calmRssNoise),
    };
    const sample = {
      rssBytes: heapTotalBytes + 40e6 + native + jitter(),
      heapUsedBytes: heapAt(endSec),
      heapTotalBytes: heapTotalBytes + 40e6,
      externalBytes: calm.externalBytes,
      arrayBuffersBytes: 1e6,
      openFds: 30,
      activeResources: 10,
      eventLoopDelayP99Ms: 20,
    };
    return { gateway: { mean: sample, max: sample }, gatewayCpuPercent: null, calm };
  });
}

const design = { ...DEFAULT_LEAK_DESIGN, warmupSec: 120 };

describe('judgeSoak', () => {
  it('calls a heap that grows 1,000 bytes per request a leak, at that rate', () => {
    const result = judgeSoak(
      soak(20, (sec) => 50e6 + sec * RATE * 1000),
      [],
      design,
      false,
    );
    expect(result.verdict).toBe('leak');
    const heap = result.trends.find((t) => t.series === 'heapAfterGc')!;
    expect(heap.bytesPerRequest!.slope).toBeGreaterThan(950);
    expect(heap.bytesPerRequest!.slope).toBeLessThan(1050);
    expect(heap.mbPerHour.slope).toBeCloseTo((1000 * RATE * 3600) / 1e6, -1);
  });

  it('sees external memory alone grow (Buffers outside the heap)', () => {
    const result = judgeSoak(
      soak(20, () => 50e6, { external: (sec) => 2e6 + sec * RATE * 500 }),
      [],
      design,
      false,
    );
    expect(result.verdict).toBe('leak');
    expect(result.trends.find((t) => t.series === 'external')!.verdict).toBe('leak');
    expect(result.trends.find((t) => t.series === 'heapAfterGc')!.verdict).toBe('no leak');
  });

  it('calls a flat heap no leak, and leaves the warm-up out: caches filling are not a leak', () => {
    // 30 MB of cache in the first two minutes, then flat.
    const result = judgeSoak(
      soak(30, (sec) => 50e6 + Math.min(sec, 120) * 250_000),
      [],
      design,
      false,
    );
    expect(result.verdict).toBe('no leak');
    for (const trend of result.trends) expect(trend.mbPerHour.high!).toBeLessThan((10 * RATE * 3600) / 1e6);
    const counted = judgeSoak(
      soak(30, (sec) => 50e6 + Math.min(sec, 120) * 250_000),
      [],
      { ...design, warmupSec: 0 },
      false,
    );
    expect(counted.trends.find((t) => t.series === 'heapAfterGc')!.mbPerHour.slope).toBeGreaterThan(0);
  });

  it('is inconclusive with too few calms after the warm-up, and when noise hides the threshold', () => {
    expect(
      judgeSoak(
        soak(5, () => 50e6),
        [],
        design,
        false,
      ).verdict,
    ).toBe('inconclusive');
    const noisy = judgeSoak(
      soak(8, () => 50e6, { noise: 3e6 }),
      [],
      design,
      false,
    );
    expect(noisy.verdict).toBe('inconclusive');
    expect(noisy.reason).toMatch(/soak longer/);
  });

  it('does not call memory that approaches a plateau a leak: it must still rise at the end', () => {
    // Growth that stops: 60 MB over the first 15 minutes after the warm-up, then flat for 13.
    const plateau = (sec: number) => 50e6 + 60e6 * Math.min(1, Math.max(0, sec - 120) / 900);
    const result = judgeSoak(soak(30, plateau), [], design, false);
    const heap = result.trends.find((t) => t.series === 'heapAfterGc')!;
    expect(heap.mbPerHour.low!).toBeGreaterThan((10 * RATE * 3600) / 1e6);
    expect(heap.verdict).not.toBe('leak');
  });

  it('reads RSS net of heap under load, not at the calm, where it scatters by tens of MB', () => {
    const rss = (result: ReturnType<typeof judgeSoak>) => result.trends.find((t) => t.series === 'rssNetOfHeap')!;
    // ±40 MB at the calms, as on a clean Mesh, around a level that does not move: no leak.
    expect(
      rss(
        judgeSoak(
          soak(30, () => 50e6, { calmRssNoise: 40e6 }),
          [],
          design,
          false,
        ),
      ).verdict,
    ).toBe('no leak');
    // A native leak of 1,000 bytes per request under the same calm noise: a leak, at its size.
    const leaking = rss(
      judgeSoak(
        soak(30, () => 50e6, { calmRssNoise: 40e6, native: (sec) => 60e6 + sec * RATE * 1000 }),
        [],
        design,
        false,
      ),
    );
    expect(leaking.verdict).toBe('leak');
    expect(leaking.bytesPerRequest!.slope).toBeGreaterThan(950);
    expect(leaking.bytesPerRequest!.slope).toBeLessThan(1050);
    // Without the preload's samples there is nothing to read.
    const unsampled = soak(30, () => 50e6).map((interval) => ({ ...interval, gateway: null }));
    expect(rss(judgeSoak(unsampled, [], design, false))).toMatchObject({ points: 0, verdict: 'inconclusive' });
  });

  it('reads RSS net of heap only up to the first heap snapshot after the warm-up', () => {
    // A snapshot at minute 8 leaves +300 MB in RSS, one at minute 14 gives 80 MB back: neither is the gateway's.
    const native = (sec: number) => 60e6 + (sec > 480 ? 300e6 : 0) - (sec > 840 ? 80e6 : 0);
    const rss = (result: ReturnType<typeof judgeSoak>) => result.trends.find((t) => t.series === 'rssNetOfHeap')!;
    const snapshots = [{ atSec: 60 }, { atSec: 480 }, { atSec: 840 }, { atSec: 1200 }];
    const cut = rss(
      judgeSoak(
        soak(20, () => 50e6, { native }),
        snapshots,
        design,
        false,
      ),
    );
    expect(cut.judgedUntilSec).toBe(480);
    expect(cut.points).toBe(7);
    expect(cut.verdict).toBe('no leak');
    // Read across the snapshots, the same RSS would be taken for a leak.
    expect(
      rss(
        judgeSoak(
          soak(20, () => 50e6, { native }),
          [],
          design,
          false,
        ),
      ).verdict,
    ).not.toBe('no leak');
    // The heap is read at every calm whatever the snapshots.
    expect(
      judgeSoak(
        soak(20, () => 50e6, { native }),
        snapshots,
        design,
        false,
      ).trends.find((t) => t.series === 'heapAfterGc')!.points,
    ).toBe(19);
    // A native leak of 1,000 bytes per request before the first snapshot is still one, at its size.
    const leaking = rss(
      judgeSoak(
        soak(20, () => 50e6, { native: (sec) => native(sec) + sec * RATE * 1000 }),
        snapshots,
        design,
        false,
      ),
    );
    expect(leaking.verdict).toBe('leak');
    expect(leaking.bytesPerRequest!.slope).toBeGreaterThan(900);
    expect(leaking.bytesPerRequest!.slope).toBeLessThan(1100);
  });

  it('at the default threshold, a 2 MB table doubling in a 30-minute soak is no leak, and 100 bytes per request is a leak', () => {
    // As measured on Mesh at about 100 req/s: 20 calms 90 s apart, a 3-minute warm-up, a step at minute 22.
    const calmsOf = (heapAt: (sec: number) => number) =>
      soak(20, heapAt).map((interval, i) => {
        const atSec = (i + 1) * 90;
        return { ...interval, endSec: atSec, calm: { ...interval.calm!, atSec, okRequestsSoFar: atSec * RATE, heapUsedBytes: heapAt(atSec) } };
      });
    const thirtyMinutes = { ...DEFAULT_LEAK_DESIGN, warmupSec: 180 };
    const heap = (result: ReturnType<typeof judgeSoak>) => result.trends.find((t) => t.series === 'heapAfterGc')!;
    const doubling = heap(
      judgeSoak(
        calmsOf((sec) => 58e6 + (sec >= 22 * 60 ? 2e6 : 0)),
        [],
        thirtyMinutes,
        false,
      ),
    );
    expect(doubling.verdict).toBe('no leak');
    const leak = heap(
      judgeSoak(
        calmsOf((sec) => 58e6 + sec * RATE * 100),
        [],
        thirtyMinutes,
        false,
      ),
    );
    expect(leak.verdict).toBe('leak');
  });

  it("reads the harness's own RSS after the warm-up: its start-up is not a trend", () => {
    // 60 → 100 MB in the first two minutes, then flat.
    const intervals = soak(20, () => 50e6).map((interval) => ({ ...interval, harnessRssBytes: 60e6 + Math.min(interval.endSec, 120) * (40e6 / 120) }));
    expect(judgeSoak(intervals, [], design, false).harnessRssMbPerHour).toBe(0);
    const growing = intervals.map((interval) => ({ ...interval, harnessRssBytes: interval.harnessRssBytes + interval.endSec * 1000 }));
    expect(judgeSoak(growing, [], design, false).harnessRssMbPerHour).toBeCloseTo(3.6, 5);
  });

  it("reads the harness's heap after its own GC beside its RSS, and none from results that lack it", () => {
    const intervals = soak(20, () => 50e6);
    expect(judgeSoak(intervals, [], design, false).harnessHeapMbPerHour).toBeNull();
    // 20 MB plus 1 kB a second after the warm-up (3.6 MB/h), while RSS stays flat.
    const heapGrowing = intervals.map((interval) => ({ ...interval, harnessHeapAfterGcBytes: 20e6 + Math.max(0, interval.endSec - design.warmupSec) * 1000 }));
    const judged = judgeSoak(heapGrowing, [], design, false);
    expect(judged.harnessHeapMbPerHour).toBeCloseTo(3.6, 5);
    expect(judged.harnessRssMbPerHour).toBe(0);
  });

  it('reports a crash whatever the memory did', () => {
    expect(
      judgeSoak(
        soak(20, () => 50e6),
        [],
        design,
        true,
      ).verdict,
    ).toBe('crash');
  });
});

describe('leakingClasses', () => {
  it("keeps classes that multiplied, the application's before built-in containers", () => {
    const grown = [
      { name: 'Array', counts: [100, 200, 300], growthBytes: 9e6 },
      { name: 'Server', counts: [1, 1, 1], growthBytes: 9e6 },
      { name: 'LeakedRequestRecord', counts: [100, 200, 300], growthBytes: 8e6 },
      { name: '(closure)', counts: [500, 600, 700], growthBytes: 1e6 },
    ];
    expect(leakingClasses(grown).map((c) => c.name)).toEqual(['LeakedRequestRecord', 'Array', '(closure)']);
  });
});

describe('snapshotDue', () => {
  const plan = { count: 20, every: 3 };
  /** The intervals at which snapshots are taken when each decision is made as the soak runs. */
  const schedule = (intervals: SoakInterval[], every = plan.every) => {
    const taken: Array<{ atSec: number }> = [];
    intervals.forEach((interval, i) => {
      if (snapshotDue(intervals.slice(0, i + 1), taken, design, { count: intervals.length, every })) taken.push({ atSec: interval.calm!.atSec });
    });
    return taken.map((t) => t.atSec / INTERVAL - 1);
  };

  it('looks at a gateway whose memory does not grow only after the last interval', () => {
    // Flat with ±0.5 MB of noise (Mesh's heap after GC moved within 0.9 MB) and a 2 MB step: a table that doubles once.
    expect(schedule(soak(20, (sec) => 50e6 + (sec > 960 ? 2e6 : 0), { noise: 0.5e6 }))).toEqual([19]);
  });

  it('looks at a growing heap, or growing external memory, from when it has grown, every n-th interval', () => {
    // 100 bytes per request is 0.6 MB per interval here: past the 1 MiB floor two intervals after the warm-up's
    // end (minute 2) or the last snapshot, and at the next calm again.
    expect(schedule(soak(20, (sec) => 50e6 + sec * RATE * 100))).toEqual([4, 7, 10, 13, 16, 19]);
    expect(schedule(soak(20, () => 50e6, { external: (sec) => 2e6 + sec * RATE * 1000 }))).toEqual([3, 6, 9, 12, 15, 18, 19]);
  });

  it('takes none at all with 0, as --snapshot-every 0 promises', () => {
    expect(
      schedule(
        soak(20, (sec) => 50e6 + sec * RATE * 1000),
        0,
      ),
    ).toEqual([]);
  });
});
