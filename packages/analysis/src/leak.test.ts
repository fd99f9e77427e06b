import { describe, expect, it } from 'vitest';
import type { SoakCalm, SoakInterval } from '@gwprof/results';
import { DEFAULT_LEAK_DESIGN, judgeSoak, leakingClasses } from './leak.js';
import { mulberry32 } from './random.js';

const RATE = 100;
const INTERVAL = 60;

/** Intervals of a soak at RATE req/s whose heap after GC is `heapAt(seconds)`, with a little noise. */
function soak(count: number, heapAt: (sec: number) => number, options: { external?: (sec: number) => number; native?: (sec: number) => number; noise?: number } = {}): SoakInterval[] {
  const random = mulberry32(5);
  return Array.from({ length: count }, (_, index) => {
    const endSec = (index + 1) * INTERVAL;
    const jitter = () => (random() - 0.5) * 2 * (options.noise ?? 50_000);
    const calm: SoakCalm = {
      atSec: endSec, okRequestsSoFar: endSec * RATE,
      heapUsedBytes: heapAt(endSec) + jitter(), heapTotalBytes: heapAt(endSec) + 20e6,
      externalBytes: (options.external ?? (() => 2e6))(endSec) + jitter(), arrayBuffersBytes: 1e6,
      rssBytes: heapAt(endSec) + 20e6 + (options.native ?? (() => 60e6))(endSec) + jitter(),
    };
    return {
      index, startSec: endSec - INTERVAL, endSec, loadSec: INTERVAL - 3,
      requests: { sent: INTERVAL * RATE, ok: INTERVAL * RATE, failed: 0, dropped: 0 },
      failureCounts: { non2xx: 0, badBody: 0, graphqlErrors: 0, mismatch: 0, timeouts: 0, socketErrors: 0 },
      okRps: RATE, latencyMs: null, gateway: null, gatewayCpuPercent: null, gcShare: null, calm, harnessRssBytes: 100e6,
    };
  });
}

const design = { ...DEFAULT_LEAK_DESIGN, warmupSec: 120 };

describe('judgeSoak', () => {
  it('calls a heap that grows 1,000 bytes per request a leak, at that rate', () => {
    const result = judgeSoak(soak(20, (sec) => 50e6 + sec * RATE * 1000), [], design, false);
    expect(result.verdict).toBe('leak');
    const heap = result.trends.find((t) => t.series === 'heapAfterGc')!;
    expect(heap.bytesPerRequest!.slope).toBeGreaterThan(950);
    expect(heap.bytesPerRequest!.slope).toBeLessThan(1050);
    expect(heap.mbPerHour.slope).toBeCloseTo((1000 * RATE * 3600) / 1e6, -1);
  });

  it('sees external memory alone grow (Buffers outside the heap)', () => {
    const result = judgeSoak(soak(20, () => 50e6, { external: (sec) => 2e6 + sec * RATE * 500 }), [], design, false);
    expect(result.verdict).toBe('leak');
    expect(result.trends.find((t) => t.series === 'external')!.verdict).toBe('leak');
    expect(result.trends.find((t) => t.series === 'heapAfterGc')!.verdict).toBe('no leak');
  });

  it('calls a flat heap no leak, and leaves the warm-up out: caches filling are not a leak', () => {
    // 30 MB of cache in the first two minutes, then flat.
    const result = judgeSoak(soak(30, (sec) => 50e6 + Math.min(sec, 120) * 250_000), [], design, false);
    expect(result.verdict).toBe('no leak');
    for (const trend of result.trends) expect(trend.mbPerHour.high!).toBeLessThan((10 * RATE * 3600) / 1e6);
    const counted = judgeSoak(soak(30, (sec) => 50e6 + Math.min(sec, 120) * 250_000), [], { ...design, warmupSec: 0 }, false);
    expect(counted.trends.find((t) => t.series === 'heapAfterGc')!.mbPerHour.slope).toBeGreaterThan(0);
  });

  it('is inconclusive with too few calms after the warm-up, and when noise hides the threshold', () => {
    expect(judgeSoak(soak(5, () => 50e6), [], design, false).verdict).toBe('inconclusive');
    const noisy = judgeSoak(soak(8, () => 50e6, { noise: 3e6 }), [], design, false);
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

  it("takes the steps the harness's own heap snapshots left in RSS out of RSS net of heap", () => {
    // Snapshots at the calms of 3, 9 and 15 minutes leave +300, -80 and +120 MB in RSS from the next calm on.
    // Each snapshot's own heap grows too (by 5 MB), which is not part of the step in RSS net of the heap.
    const stepsAt = [[180, 300e6], [540, -80e6], [900, 120e6]] as const;
    const around = (step: number) => ({ before: { rssBytes: 200e6, heapTotalBytes: 60e6 }, after: { rssBytes: 200e6 + step + 5e6, heapTotalBytes: 65e6 } });
    const snapshots = stepsAt.map(([atSec, step]) => ({ atSec, memoryAround: around(step) }));
    const level = (sec: number) => 60e6 + stepsAt.reduce((sum, [atSec, step]) => sum + (atSec < sec ? step : 0), 0);
    const rss = (result: ReturnType<typeof judgeSoak>) => result.trends.find((t) => t.series === 'rssNetOfHeap')!;
    expect(rss(judgeSoak(soak(20, () => 50e6, { native: level }), snapshots, design, false)).verdict).toBe('no leak');
    expect(rss(judgeSoak(soak(20, () => 50e6, { native: level }), [], design, false)).verdict).not.toBe('no leak');
    // A native leak of 1,000 bytes per request under the same steps is still one, at its size.
    const leaking = rss(judgeSoak(soak(20, () => 50e6, { native: (sec) => level(sec) + sec * RATE * 1000 }), snapshots, design, false));
    expect(leaking.verdict).toBe('leak');
    expect(leaking.bytesPerRequest!.slope).toBeGreaterThan(900);
    expect(leaking.bytesPerRequest!.slope).toBeLessThan(1100);
  });

  it('at the default threshold, a 2 MB table doubling in a 30-minute soak is no leak, and 100 bytes per request is a leak', () => {
    // As measured on Mesh at about 100 req/s: 20 calms 90 s apart, a 3-minute warm-up, a step at minute 22.
    const calmsOf = (heapAt: (sec: number) => number) => soak(20, heapAt).map((interval, i) => {
      const atSec = (i + 1) * 90;
      return { ...interval, endSec: atSec, calm: { ...interval.calm!, atSec, okRequestsSoFar: atSec * RATE, heapUsedBytes: heapAt(atSec) } };
    });
    const thirtyMinutes = { ...DEFAULT_LEAK_DESIGN, warmupSec: 180 };
    const heap = (result: ReturnType<typeof judgeSoak>) => result.trends.find((t) => t.series === 'heapAfterGc')!;
    const doubling = heap(judgeSoak(calmsOf((sec) => 58e6 + (sec >= 22 * 60 ? 2e6 : 0)), [], thirtyMinutes, false));
    expect(doubling.verdict).toBe('no leak');
    const leak = heap(judgeSoak(calmsOf((sec) => 58e6 + sec * RATE * 100), [], thirtyMinutes, false));
    expect(leak.verdict).toBe('leak');
  });

  it('reports a crash whatever the memory did', () => {
    expect(judgeSoak(soak(20, () => 50e6), [], design, true).verdict).toBe('crash');
  });
});

describe('leakingClasses', () => {
  it('keeps classes that multiplied, the application\'s before built-in containers', () => {
    const grown = [
      { name: 'Array', counts: [100, 200, 300], growthBytes: 9e6 },
      { name: 'Server', counts: [1, 1, 1], growthBytes: 9e6 },
      { name: 'LeakedRequestRecord', counts: [100, 200, 300], growthBytes: 8e6 },
      { name: '(closure)', counts: [500, 600, 700], growthBytes: 1e6 },
    ];
    expect(leakingClasses(grown).map((c) => c.name)).toEqual(['LeakedRequestRecord', 'Array', '(closure)']);
  });
});
