import { describe, expect, it } from 'vitest';
import type { LatencyMs, SoakInterval, SoakLoadWindow, SoakReload, SoakReloadConfig } from '@gwprof/results';
import { analyzeReloads, reloadExitReasons } from './reload-analysis.js';
import { loadWindows } from './reload-windows.js';

describe("loadWindows: an interval's load cut around reloads and between them", () => {
  const window = { beforeSec: 1, afterSec: 9 };

  it('gives each reload 1 s before and 9 s after, and the rest windows of 10 s; a piece under 5 s is left out', () => {
    expect(loadWindows(57, [{ index: 3, second: 21 }], window)).toEqual([
      { from: 0, to: 10, reload: null },
      { from: 10, to: 20, reload: null },
      { from: 20, to: 30, reload: 3 },
      { from: 30, to: 40, reload: null },
      { from: 40, to: 50, reload: null },
      { from: 50, to: 57, reload: null },
    ]);
  });

  it("keeps two reloads' windows apart and drops the 2 s between them", () => {
    expect(
      loadWindows(
        30,
        [
          { index: 1, second: 13 },
          { index: 0, second: 1 },
        ],
        window,
      ),
    ).toEqual([
      { from: 0, to: 10, reload: 0 },
      { from: 12, to: 22, reload: 1 },
      { from: 22, to: 30, reload: null },
    ]);
  });

  it('is all windows without a reload when none was made', () => {
    expect(loadWindows(24, [], window).map((w) => [w.from, w.to])).toEqual([
      [0, 10],
      [10, 20],
    ]);
  });
});

const latency = (p99: number): LatencyMs => ({ mean: p99 / 4, p50: p99 / 4, p75: p99 / 3, p80: p99 / 3, p90: p99 / 2, p95: p99 / 2, p99, max: p99 });
const noFailures = { non2xx: 0, badBody: 0, graphqlErrors: 0, mismatch: 0, timeouts: 0, socketErrors: 0, protocolErrors: 0 };

function window(startSec: number, reload: number | null, p99: number, failed = 0): SoakLoadWindow {
  return {
    startSec,
    endSec: startSec + 10,
    reload,
    requests: { ok: 1000 - failed, failed },
    failureCounts: { ...noFailures, timeouts: failed },
    latencyMs: latency(p99),
  };
}

function interval(index: number, heapMb: number, reloads: SoakReload[], windows: SoakLoadWindow[]): SoakInterval {
  return {
    index,
    startSec: index * 60,
    endSec: (index + 1) * 60,
    loadSec: 57,
    requests: { sent: 5700, ok: 5700, failed: 0, dropped: 0 },
    failureCounts: noFailures,
    okRps: 100,
    latencyMs: latency(20),
    gateway: null,
    gatewayCpuPercent: 50,
    gcShare: null,
    calm: {
      atSec: (index + 1) * 60,
      okRequestsSoFar: (index + 1) * 5700,
      heapUsedBytes: heapMb * 1e6,
      heapTotalBytes: 0,
      externalBytes: 0,
      arrayBuffersBytes: 0,
      rssBytes: 0,
    },
    harnessRssBytes: 1e8,
    reloads: { reloads, windows, reloadsSoFar: 0 },
  };
}

const reload = (index: number, seenAfterSec: number | null, error: string | null = null): SoakReload => ({
  index,
  atSec: 60 + index * 30,
  variant: index % 2 ? 'a' : 'b',
  seenAfterSec,
  error,
});

const config: SoakReloadConfig = {
  everySec: 30,
  how: 'files',
  detail: ['supergraph.graphql'],
  seenBy: { kind: 'introspection', field: 'gwprofReloadMarker' },
  window: { beforeSec: 1, afterSec: 9 },
  seenWithinSec: 15,
};

describe('analyzeReloads', () => {
  // Interval 0: the warm-up, no reload, heap 50 MB. Intervals 1–2: two swaps each; reload 3 never seen.
  const intervals = [
    interval(0, 50, [], [window(0, null, 20), window(10, null, 22)]),
    interval(1, 52, [reload(0, 0.4), reload(1, 0.6)], [window(60, 0, 200, 5), window(70, null, 20), window(90, 1, 60), window(100, null, 24)]),
    interval(2, 54, [reload(2, 0.5), reload(3, null)], [window(120, 2, 40), window(130, null, 18), window(150, 3, 900, 50)]),
  ];
  const result = analyzeReloads({ config: { reload: config } as never, intervals })!;

  it("counts a swap as a reload only once seen, and leaves an unseen one's window out of both groups", () => {
    expect(result).toMatchObject({ made: 4, seen: 3, unseen: 1, swapFailed: 0 });
    expect(result.seenAfterSec).toEqual({ median: 0.5, max: 0.6 });
    expect(result.aroundReloads).toEqual({ windows: 3, ok: 2995, failed: 5, medianP99Ms: 60, maxP99Ms: 200 });
    expect(result.withoutReloads).toEqual({ windows: 5, ok: 5000, failed: 0, medianP99Ms: 20, maxP99Ms: 24 });
    expect(result.p99Ratio).toBe(3);
    expect(result.effects.map((e) => [e.index, e.failed, e.p99Ratio])).toEqual([
      [0, 5, 10],
      [1, 0, 3],
      [2, 0, 2],
    ]);
  });

  it('sets the memory after the reloads against the last calm before the first: per seen reload', () => {
    expect(result.memory).toEqual({ series: 'heapAfterGc', beforeBytes: 50e6, afterBytes: 54e6, reloadsBy: 3, bytesPerReload: 4e6 / 3 });
  });

  it('counts a swap that failed apart, and is null for a soak without reloads', () => {
    const failed = analyzeReloads({ config: { reload: config } as never, intervals: [interval(0, 50, [reload(0, null, 'exit 1')], [])] })!;
    expect(failed).toMatchObject({ made: 0, seen: 0, unseen: 0, swapFailed: 1, p99Ratio: null });
    expect(failed.memory).toMatchObject({ beforeBytes: null, bytesPerReload: null });
    expect(reloadExitReasons(failed)).toEqual([expect.stringMatching(/none of the 1 supergraph swaps was seen served \(1 failed\)/)]);
    expect(reloadExitReasons(result)).toEqual([]);
    expect(analyzeReloads({ config: {} as never, intervals })).toBeNull();
  });
});
