import { describe, expect, it } from 'vitest';
import type { SoakAllocatorReading, SoakInterval } from '@gwprof/results';
import { DEFAULT_LEAK_DESIGN, judgeSoak, soakMemoryMeasure } from './leak.js';
import { mulberry32 } from '../random.js';
import { soakIntervals } from '../testing/soak-intervals.js';

const RATE = 200;
const INTERVAL = 30;
const design = { ...DEFAULT_LEAK_DESIGN, warmupSec: 60 };

/**
 * A native soak at RATE req/s whose calms read RssAnon `anonAt(sec)` and the allocator's live bytes
 * `allocatedAt(sec)` (null: the endpoint did not answer), each with ±100 kB of noise.
 */
function allocatorSoak(count: number, anonAt: (sec: number) => number, allocatedAt: (sec: number) => number | null): SoakInterval[] {
  const random = mulberry32(7);
  const noise = () => (random() - 0.5) * 200_000;
  return soakIntervals(count, { rate: RATE, seconds: INTERVAL }, (endSec) => {
    const rssAnonBytes = anonAt(endSec) + noise();
    const allocated = allocatedAt(endSec);
    const allocator: SoakAllocatorReading =
      allocated === null
        ? { allocatedBytes: null, residentBytes: null, retainedBytes: null, error: 'connect ECONNREFUSED 127.0.0.1:9090' }
        : { allocatedBytes: allocated + noise(), residentBytes: rssAnonBytes - 5e6, retainedBytes: 20e6, error: null };
    return {
      gateway: null,
      gatewayCpuPercent: 40,
      calm: null,
      nativeCalm: { atSec: endSec, okRequestsSoFar: endSec * RATE, rssBytes: rssAnonBytes + 80e6, rssAnonBytes, allocator },
    };
  });
}

describe("a native soak judged on its allocator's live bytes", () => {
  it('calls live bytes that grow 5,000 bytes per request a leak at that size, with RssAnon beside it, not judged', () => {
    // RssAnon grows four times as fast (pages the allocator keeps): the verdict's size is the live bytes'.
    const result = judgeSoak(
      allocatorSoak(
        12,
        (sec) => 60e6 + sec * RATE * 20_000,
        (sec) => 30e6 + sec * RATE * 5_000,
      ),
      [],
      design,
      false,
    );
    expect(result.memoryMeasure).toBe('native-allocator');
    expect(result.verdict).toBe('leak');
    expect(result.trends.map((t) => t.series)).toEqual(['allocatedAfterCalm']);
    const [allocated] = result.trends;
    expect(allocated!.bytesPerRequest!.slope).toBeGreaterThan(4_900);
    expect(allocated!.bytesPerRequest!.slope).toBeLessThan(5_100);
    expect(result.reason).toMatch(/allocatedAfterCalm \+[\d.]+ MB\/h \(\+5\d{3}\.\d B\/request\)/);
    expect(result.besideTrends!.map((t) => [t.series, t.verdict])).toEqual([['rssAnonAfterCalm', 'leak']]);
    expect(result.besideTrends![0]!.bytesPerRequest!.slope).toBeGreaterThan(19_000);
  });

  it('calls flat live bytes no leak though RssAnon jumps by tens of MB from calm to calm', () => {
    // RssAnon as a burst's retained pages move it: up by 37 MB after some intervals, back after others.
    const jumps = [0, 37e6, 5e6, 30e6, 0, 25e6, 37e6, 2e6, 33e6, 10e6, 37e6, 0];
    const result = judgeSoak(
      allocatorSoak(
        12,
        (sec) => 60e6 + jumps[sec / INTERVAL - 1]!,
        () => 30e6,
      ),
      [],
      design,
      false,
    );
    expect(result.verdict).toBe('no leak');
    expect(result.reason).toMatch(/^the allocator's live bytes after the calm: their 90% interval lies below 30 B\/request$/);
    expect(result.trends[0]!.bytesPerRequest!.high!).toBeLessThan(DEFAULT_LEAK_DESIGN.thresholdBytesPerRequest);
    // Judged alone, RssAnon could not have said no leak.
    expect(result.besideTrends![0]!.verdict).not.toBe('no leak');
  });

  it('judges RssAnon when no calm read the live bytes, and has nothing beside it then', () => {
    const intervals = allocatorSoak(
      12,
      () => 60e6,
      () => null,
    );
    expect(soakMemoryMeasure(intervals)).toBe('native-rss');
    const result = judgeSoak(intervals, [], design, false);
    expect(result.trends.map((t) => t.series)).toEqual(['rssAnonAfterCalm']);
    expect(result.besideTrends).toBeUndefined();
    expect(result.verdict).toBe('no leak');
  });

  it('reads the calms that answered when some did not: fewer points, the same measure', () => {
    const result = judgeSoak(
      allocatorSoak(
        14,
        () => 60e6,
        (sec) => (sec === 150 || sec === 300 ? null : 30e6),
      ),
      [],
      design,
      false,
    );
    expect(result.memoryMeasure).toBe('native-allocator');
    expect(result.trends[0]!.points).toBe(11);
    expect(result.besideTrends![0]!.points).toBe(13);
    expect(result.verdict).toBe('no leak');
  });
});
