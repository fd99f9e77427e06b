import { describe, expect, it } from 'vitest';
import type { SoakInterval } from '@gwprof/results';
import { DEFAULT_LEAK_DESIGN, intervalsAfterWarmup, judgeSoak, soakMemoryMeasure } from './leak.js';
import { analyzeSoak } from './soak-analysis.js';
import { mulberry32 } from '../random.js';
import { soakIntervals } from '../testing/soak-intervals.js';

const RATE = 200;
const INTERVAL = 30;

/**
 * Intervals of a native soak at RATE req/s: no preload (no heap, no samples), RssAnon after the calm
 * `anonAt(seconds)` plus allocator noise of ±`noise` bytes, RSS that much above it with the
 * binary's file pages (which move on their own).
 */
function nativeSoak(count: number, anonAt: (sec: number) => number, noise = 200_000): SoakInterval[] {
  const random = mulberry32(11);
  return soakIntervals(count, { rate: RATE, seconds: INTERVAL }, (endSec) => {
    const rssAnonBytes = anonAt(endSec) + (random() - 0.5) * 2 * noise;
    return {
      gateway: null,
      gatewayCpuPercent: 40,
      calm: null,
      nativeCalm: { atSec: endSec, okRequestsSoFar: endSec * RATE, rssBytes: rssAnonBytes + 60e6 + random() * 20e6, rssAnonBytes },
    };
  });
}

const design = { ...DEFAULT_LEAK_DESIGN, warmupSec: 60 };

describe('a native soak, judged on RssAnon after the calm', () => {
  it('calls RssAnon that grows 20,000 bytes per request a leak, at that size, and says the measure', () => {
    const result = judgeSoak(
      nativeSoak(12, (sec) => 30e6 + sec * RATE * 20_000),
      [],
      design,
      false,
    );
    expect(result.verdict).toBe('leak');
    expect(result.memoryMeasure).toBe('native-rss');
    expect(result.trends.map((t) => t.series)).toEqual(['rssAnonAfterCalm']);
    const [anon] = result.trends;
    expect(anon!.bytesPerRequest!.slope).toBeGreaterThan(19_000);
    expect(anon!.bytesPerRequest!.slope).toBeLessThan(21_000);
    expect(result.reason).toMatch(/rssAnonAfterCalm \+[\d.]+ MB\/h \(\+[\d.]+ B\/request\)/);
  });

  it('calls flat RssAnon with allocator noise no leak, though RSS with the file pages wanders', () => {
    const result = judgeSoak(
      nativeSoak(12, () => 30e6),
      [],
      design,
      false,
    );
    expect(result.verdict).toBe('no leak');
    expect(result.reason).toMatch(/RssAnon after the calm/);
    expect(result.trends[0]!.bytesPerRequest!.high).toBeLessThan(DEFAULT_LEAK_DESIGN.thresholdBytesPerRequest);
  });

  it('does not call memory that rises and levels off (the allocator taking its arenas) a leak', () => {
    const result = judgeSoak(
      nativeSoak(16, (sec) => 30e6 + 40e6 * (1 - Math.exp(-sec / 90))),
      [],
      design,
      false,
    );
    expect(result.verdict).not.toBe('leak');
  });

  it('leaves out the calms of the warm-up, and needs six after it', () => {
    const intervals = nativeSoak(7, () => 30e6);
    expect(intervalsAfterWarmup(intervals, 60).map((i) => i.index)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(judgeSoak(intervals.slice(0, 6), [], design, false).verdict).toBe('inconclusive');
  });

  it('reads a Node soak (a forced GC at each calm) on its heap, and an older file without nativeCalm so too', () => {
    const node = nativeSoak(3, () => 1).map((i) => {
      const { nativeCalm: _native, ...rest } = i;
      return rest;
    });
    expect(soakMemoryMeasure(node)).toBe('node-heap');
    expect(soakMemoryMeasure(nativeSoak(3, () => 1))).toBe('native-rss');
  });

  it('a crash of a native gateway is the verdict, with what it measured before', () => {
    const intervals = nativeSoak(8, () => 30e6);
    const analysis = analyzeSoak({
      kind: 'soak',
      schemaVersion: 1,
      runId: 'r',
      state: 'complete',
      error: null,
      config: { warmupSec: 60, leakThresholdBytesPerRequest: 30 },
      intervals,
      snapshots: [],
      crash: { atSec: 250, exitCode: null, signal: 'SIGSEGV', logTail: [] },
    } as never);
    expect(analysis.verdict).toBe('crash');
    expect(analysis.memoryMeasure).toBe('native-rss');
    expect(analysis.growingClasses).toEqual([]);
  });
});
