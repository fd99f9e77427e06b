import { describe, expect, it } from 'vitest';
import type { SoakInterval, SoakResult } from '@gwprof/results';
import { renderSoakHtml, renderSoakMarkdown, renderSoakTerminal, soakClock, thinIntervals } from './soak-report.js';

const sample = {
  rssBytes: 300e6,
  heapUsedBytes: 150e6,
  heapTotalBytes: 204.5e6,
  externalBytes: 2e6,
  arrayBuffersBytes: 1e6,
  openFds: 40,
  activeResources: 12,
  eventLoopDelayP99Ms: 21,
};

function interval(index: number): SoakInterval {
  const endSec = (index + 1) * 60;
  return {
    index,
    startSec: endSec - 60,
    endSec,
    loadSec: 57,
    requests: { sent: 5700, ok: 5700, failed: index === 3 ? 2 : 0, dropped: 0 },
    failureCounts: { non2xx: 0, badBody: 0, graphqlErrors: 0, mismatch: 0, timeouts: index === 3 ? 2 : 0, socketErrors: 0, protocolErrors: 0 },
    okRps: 100,
    latencyMs: { mean: 5, p50: 4, p75: 5, p80: 5, p90: 6, p95: 7, p99: 9, max: 20 },
    gateway: { mean: sample, max: sample },
    gatewayCpuPercent: 40,
    gcShare: 0.1,
    calm: {
      atSec: endSec,
      okRequestsSoFar: 5700 * (index + 1),
      heapUsedBytes: 50e6 + index * 5.7e6,
      heapTotalBytes: 80e6,
      externalBytes: 2e6,
      arrayBuffersBytes: 1e6,
      rssBytes: 150e6,
    },
    harnessRssBytes: 90e6,
    harnessHeapAfterGcBytes: 21.3e6,
  };
}

const soak: SoakResult = {
  schemaVersion: 3,
  tool: { name: 'gwprof', version: '0' },
  kind: 'soak',
  runId: 'soak-1',
  startedAt: '2026-11-25T00:00:00Z',
  finishedAt: null,
  state: 'complete',
  error: null,
  config: {
    gateway: 'mesh',
    gatewayEnv: {},
    scenario: 'varied',
    query: 'q',
    variables: null,
    expect: null,
    load: { kind: 'open', rate: 100, arrivals: 'poisson' },
    rateFrom: null,
    durationSec: 600,
    intervalSec: 60,
    calmSec: 3,
    snapshotEvery: 2,
    warmupSec: 120,
    leakThresholdBytesPerRequest: 10,
    timeoutSec: 10,
    subgraphDelayMs: 0,
    subgraphPorts: {},
    gatewayPort: 4000,
  },
  environment: {} as SoakResult['environment'],
  intervals: Array.from({ length: 10 }, (_, i) => interval(i)),
  snapshots: [
    { atSec: 60, file: 'snapshot-1.heapsnapshot', bytes: 30e6, classes: [], error: null },
    {
      atSec: 300,
      file: null,
      bytes: 40e6,
      memoryAround: { before: { rssBytes: 300e6, heapTotalBytes: 80e6 }, after: { rssBytes: 430e6, heapTotalBytes: 82e6 } },
      classes: [],
      error: null,
    },
    { atSec: 600, file: 'snapshot-3.heapsnapshot', bytes: 50e6, classes: [], error: null },
  ],
  crash: null,
  analysis: {
    verdict: 'leak',
    exitCode: 1,
    exitReasons: [],
    reason: 'memory kept growing after the warm-up: heapAfterGc +342.00 MB/h (+950.0 B/request)',
    trends: [
      {
        series: 'heapAfterGc',
        points: 8,
        mbPerHour: { slope: 342, low: 330, high: 350 },
        bytesPerRequest: { slope: 950, low: 917, high: 972 },
        pUp: 0.0001,
        line: { interceptMb: 44, slopeMbPerHour: 342 },
        verdict: 'leak',
      },
      {
        series: 'rssNetOfHeap',
        points: 3,
        judgedUntilSec: 300,
        mbPerHour: { slope: 1, low: -20, high: 25 },
        bytesPerRequest: { slope: 3, low: -55, high: 69 },
        pUp: 0.4,
        line: { interceptMb: 90, slopeMbPerHour: 1 },
        verdict: 'inconclusive',
      },
    ],
    growingClasses: [
      { name: '<script>Leaky', counts: [100, 200, 300], retainedSizes: [1e6, 2e6, 3e6], growthBytes: 2e6, retainerPath: ['(GC roots)', 'Leaky.items'] },
    ],
    harnessRssMbPerHour: 0.1,
    harnessHeapMbPerHour: -0.02,
  },
};

describe('soak report', () => {
  it('leads with the verdict and its evidence, in the terminal and in markdown', () => {
    const text = renderSoakTerminal(soak);
    expect(text).toMatch(/Verdict: LEAK — memory kept growing/);
    expect(text).toMatch(/heap after GC\s+8\s+342\.00 \[330\.00, 350\.00\]\s+950\.0 \[917\.0, 972\.0\]\s+<0\.001\s+leak/);
    // RSS is read only up to the first snapshot after the warm-up, and the table says so.
    expect(text).toMatch(/RSS net of heap, under load\s+3 \(to 5m00s: the first snapshot\)/);
    const md = renderSoakMarkdown(soak);
    expect(md).toMatch(/## Classes that grew in every snapshot diff/);
    expect(md).toMatch(/100 → 300/);
    expect(md).toContain('[snapshot-1.heapsnapshot](snapshot-1.heapsnapshot)');
    // Each interval shows the reading the RSS trend is fitted to: RSS net of heap total, under load.
    expect(md).toMatch(/\| RSS MB \| RSS net of heap MB \|/);
    expect(md).toMatch(/\| 300\.0 \| 95\.5 \|/);
    expect(md).toMatch(/removed to bound the disk \(summary kept\); RSS net of heap \+128\.0 MB across it/);
    // The harness's own memory beside the gateway's: its heap after its own GC per interval, and both slopes.
    expect(md).toMatch(/\| harness RSS MB \| harness heap after GC MB \|/);
    expect(md).toMatch(/\| 90\.0 \| 21\.3 \|/);
    expect(md).toContain('Harness after the warm-up: RSS 0.10 MB/hour, heap after its own GC -0.02 MB/hour.');
    expect(text).toContain('Harness after the warm-up: RSS 0.10 MB/hour, heap after its own GC -0.02 MB/hour');
  });

  it('escapes class names in HTML and draws memory with its trend line', () => {
    const html = renderSoakHtml(soak);
    expect(html).not.toContain('<script>Leaky');
    expect(html).toContain('&lt;script&gt;Leaky');
    expect(html).toMatch(/<svg id="memory"[\s\S]*data-series="trend of heap after GC"/);
  });

  it('thins a week of intervals to a readable number, keeping the first and the last', () => {
    const many = Array.from({ length: 2016 }, (_, i) => interval(i));
    const thin = thinIntervals(many, 24);
    expect(thin).toHaveLength(24);
    expect(thin[0]!.index).toBe(0);
    expect(thin[23]!.index).toBe(2015);
    expect(soakClock(3 * 86400 + 7200)).toBe('3d02h');
    expect(soakClock(3725)).toBe('1h02m');
  });
});

/** The same soak of a native gateway: no preload, its memory from /proc after each calm. */
function nativeInterval(index: number): SoakInterval {
  const { calm: _calm, ...rest } = interval(index);
  return {
    ...rest,
    gateway: null,
    gcShare: null,
    calm: null,
    nativeCalm: { atSec: (index + 1) * 60, okRequestsSoFar: 5700 * (index + 1), rssBytes: 180e6, rssAnonBytes: 40e6 + index * 0.01e6 },
  };
}

const nativeSoak: SoakResult = {
  ...soak,
  config: { ...soak.config, gateway: 'grafbase' },
  intervals: Array.from({ length: 10 }, (_, i) => nativeInterval(i)),
  snapshots: [],
  analysis: {
    ...soak.analysis!,
    verdict: 'no leak',
    reason: 'RssAnon after the calm: its 90% interval lies below 10 B/request',
    memoryMeasure: 'native-rss',
    trends: [
      {
        series: 'rssAnonAfterCalm',
        points: 8,
        mbPerHour: { slope: 0.6, low: 0.1, high: 1.2 },
        bytesPerRequest: { slope: 1.8, low: 0.3, high: 3.5 },
        pUp: 0.2,
        line: { interceptMb: 40, slopeMbPerHour: 0.6 },
        verdict: 'no leak',
      },
    ],
    growingClasses: [],
  },
};

describe('soak report of a native gateway', () => {
  it('says its verdict stands on RssAnon after a calm, without a forced GC, and what that cannot see', () => {
    const text = renderSoakTerminal(nativeSoak);
    expect(text).toMatch(/RssAnon after the calm\s+8\s+0\.60 \[0\.10, 1\.20\]\s+1\.8 \[0\.3, 3\.5\]/);
    expect(text).toMatch(/stands on RssAnon .* no forced GC/);
    expect(text).toMatch(/a leak whose total stays below the allocator's retention is invisible/);
    expect(text).toContain('reaches at most 3.5 bytes per request');
    const md = renderSoakMarkdown(nativeSoak);
    expect(md).toMatch(/calm after which its memory is read from \/proc \(a native gateway: no forced GC exists for it\)/);
    expect(md).not.toMatch(/\| heap after GC MB|Classes/);
    expect(md).toMatch(/\| RSS after calm MB \| RssAnon after calm MB \|/);
    expect(md).toMatch(/\| 180\.0 \| 40\.0 \|/);
  });

  it('charts RssAnon with the trend the verdict read', () => {
    const html = renderSoakHtml(nativeSoak);
    expect(html).toMatch(/<svg id="memory"[\s\S]*data-series="trend of RssAnon"/);
    expect(html).toContain('allocator');
  });
});

/** The same native soak with its allocator's statistics read at each calm (Apollo Router's jemalloc). */
const allocatorSoak: SoakResult = {
  ...nativeSoak,
  config: {
    ...nativeSoak.config,
    gateway: 'apollo-router',
    allocator: {
      description: 'apollo-router jemalloc via its Prometheus endpoint',
      url: 'http://127.0.0.1:9464/metrics',
      allocated: ['apollo_router_jemalloc_allocated'],
      resident: ['apollo_router_jemalloc_resident'],
      retained: ['apollo_router_jemalloc_retained'],
    },
  },
  intervals: nativeSoak.intervals.map((i, index) => ({
    ...i,
    nativeCalm: { ...i.nativeCalm!, allocator: { allocatedBytes: 25e6 + index * 1000, residentBytes: 38e6, retainedBytes: 12e6, error: null } },
  })),
  analysis: {
    ...nativeSoak.analysis!,
    reason: "the allocator's live bytes after the calm: their 90% interval lies below 30 B/request",
    memoryMeasure: 'native-allocator',
    trends: [{ ...nativeSoak.analysis!.trends[0]!, series: 'allocatedAfterCalm', bytesPerRequest: { slope: 0.2, low: -0.4, high: 0.9 } }],
    besideTrends: [{ ...nativeSoak.analysis!.trends[0]!, verdict: 'inconclusive' }],
  },
};

describe("soak report of a native gateway read through its allocator's statistics", () => {
  it('says the verdict stands on the live bytes, from which source, what they cannot see, and shows RssAnon beside, not judged', () => {
    const text = renderSoakTerminal(allocatorSoak);
    expect(text).toMatch(/allocator's live bytes after the calm\s+8\s+0\.60 \[0\.10, 1\.20\]\s+0\.2 \[-0\.4, 0\.9\]\s+0\.200\s+no leak/);
    expect(text).toMatch(/RssAnon after the calm \(beside, not judged\)\s+8 .*inconclusive/);
    expect(text).toMatch(/stands on the allocator's live bytes \(apollo-router jemalloc via its Prometheus endpoint\) read after each 3 s calm/);
    expect(text).toMatch(/cannot see memory allocated outside that allocator \(mapped by hand with mmap/);
    expect(text).toContain('reaches at most 0.9 bytes per request');
    const md = renderSoakMarkdown(allocatorSoak);
    expect(md).toMatch(/read from \/proc and its allocator's statistics from apollo-router jemalloc via its Prometheus endpoint/);
    expect(md).toMatch(/\| RssAnon after calm MB \| allocated MB \| allocator resident MB \| allocator retained MB \|/);
    expect(md).toMatch(/\| 180\.0 \| 40\.0 \| 25\.0 \| 38\.0 \| 12\.0 \|/);
    const html = renderSoakHtml(allocatorSoak);
    expect(html).toMatch(
      /<svg id="memory"[\s\S]*data-series="allocator(?:&#39;|&#x27;|')s live bytes after the calm"[\s\S]*data-series="trend of the live bytes"/,
    );
    expect(html).not.toContain('data-series="trend of RssAnon"');
  });

  it('says so when the statistics were asked for and no calm read them, and judges RssAnon', () => {
    const unread: SoakResult = {
      ...allocatorSoak,
      intervals: nativeSoak.intervals.map((i) => ({
        ...i,
        nativeCalm: {
          ...i.nativeCalm!,
          allocator: {
            allocatedBytes: null,
            residentBytes: null,
            retainedBytes: null,
            error: 'no metric apollo_router_jemalloc_allocated on the endpoint',
          },
        },
      })),
      analysis: nativeSoak.analysis,
    };
    const text = renderSoakTerminal(unread);
    expect(text).toMatch(/stands on RssAnon/);
    expect(text).toContain(
      "Its allocator's statistics (apollo-router jemalloc via its Prometheus endpoint) were asked for at each calm and none was read (no metric apollo_router_jemalloc_allocated on the endpoint)",
    );
  });
});
