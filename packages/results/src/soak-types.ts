/**
 * `gwprof soak`: hours to days of load on one gateway process, recorded interval by interval in
 * bounded memory, with a forced GC in a calm at the end of each interval and heap snapshots now and
 * then. `soak.json`-shaped `results.json` (kind "soak") is rewritten after every interval.
 */
import type { SoakAllocationSites } from './allocation-site-types.js';
import type { FailureCounts } from './failures.js';
import type { LatencyMs, RecordHeader, RequestSourceRecord, RunEnvironment, ServicesRecord } from './types.js';
import type { SoakIntervalReloads, SoakReloadAnalysis, SoakReloadConfig } from './soak-reload-types.js';

export interface SoakConfig extends RequestSourceRecord, ServicesRecord {
  gateway: string;
  gatewayEnv: Record<string, string>;
  scenario: string;
  /** Open loop at a fixed rate, or closed loop at a number of connections. */
  load: { kind: 'open'; rate: number; arrivals: 'poisson' | 'uniform' } | { kind: 'closed'; concurrency: number };
  /** How the rate was chosen: given, or a fraction of a closed-loop probe's peak. */
  rateFrom: { probedPeakRps: number; fraction: number } | null;
  durationSec: number;
  intervalSec: number;
  /** Seconds without load at the end of each interval, before the forced GC. */
  calmSec: number;
  /** A heap snapshot every this many intervals while heap or external memory grows, and after the last; 0: none. */
  snapshotEvery: number;
  /** Seconds from the start that count as warm-up: caches filling, not a leak. */
  warmupSec: number;
  /** A slope above this many bytes per successful request is a leak. */
  leakThresholdBytesPerRequest: number;
  /** Supergraph swaps while serving (--reload-every); absent or null: none. */
  reload?: SoakReloadConfig | null;
  /** Where a native gateway's allocator statistics are read at each calm; absent or null: none are read. */
  allocator?: SoakAllocatorSource | null;
}

/**
 * A native gateway's allocator statistics on a Prometheus endpoint: Apollo Router's jemalloc gauges,
 * or a `cmd:` gateway's metric named by --allocator-metric. Each list holds the metric selectors
 * tried in order (a name, optionally with labels: `name{kind="allocated"}`); the first one found is read.
 */
export interface SoakAllocatorSource {
  /** Named for the report: "apollo-router jemalloc via its Prometheus endpoint". */
  description: string;
  /** The Prometheus text endpoint, on loopback. */
  url: string;
  /** Bytes the program holds in live allocations (jemalloc's stats.allocated): the series the verdict reads. */
  allocated: string[];
  /** Pages the allocator holds resident (jemalloc's stats.resident); empty: not published. */
  resident: string[];
  /** Memory the allocator keeps mapped but returned to the kernel (jemalloc's stats.retained); empty: not published. */
  retained: string[];
}

/** The allocator's statistics read from its endpoint at a calm, bytes; null where not published or not read. */
export interface SoakAllocatorReading {
  allocatedBytes: number | null;
  residentBytes: number | null;
  retainedBytes: number | null;
  /** Why the live bytes were not read (the endpoint did not answer, the metric was absent); null when they were. */
  error: string | null;
}

/** The gateway's state sampled during an interval's load (every few seconds): means and maxima. */
export interface SoakGatewaySample {
  rssBytes: number;
  heapUsedBytes: number;
  heapTotalBytes: number;
  externalBytes: number;
  arrayBuffersBytes: number;
  openFds: number | null;
  /** process.getActiveResourcesInfo(): timers, sockets, handles and requests still pending. */
  activeResources: number;
  /** Event-loop delay p99 since the previous sample, ms. */
  eventLoopDelayP99Ms: number;
}

/** Heap after a forced full GC in the calm at the end of an interval: the series the verdict reads. */
export interface SoakCalm {
  atSec: number;
  /** Successful requests since the start of the soak, at this calm. */
  okRequestsSoFar: number;
  heapUsedBytes: number;
  heapTotalBytes: number;
  externalBytes: number;
  arrayBuffersBytes: number;
  rssBytes: number;
  /** Resident anonymous memory (Linux RssAnon); absent in results written before it was read. */
  rssAnonBytes?: number | null;
  /** Heap pages V8 has touched (total_physical_size). */
  heapPhysicalBytes?: number;
  /** Memory V8 itself holds in malloc. */
  v8MallocedBytes?: number;
}

/**
 * A native gateway's memory read from /proc after the calm (RSS and its anonymous part, summed over
 * the gateway's processes): outside a managed heap no forced collection exists, so this is memory
 * as the process and its allocator hold it, cached free blocks and fragmentation included.
 */
export interface SoakProcessMemory {
  atSec: number;
  /** Successful requests since the start of the soak, at this calm. */
  okRequestsSoFar: number;
  rssBytes: number;
  /** RssAnon: heap, stacks and anonymous maps, without the binary's and libraries' file pages. */
  rssAnonBytes: number | null;
  /** The allocator's own statistics, read right after /proc when the soak has a source for them; absent: none. */
  allocator?: SoakAllocatorReading | null;
}

export interface SoakInterval {
  index: number;
  /** Seconds from the start of the soak. */
  startSec: number;
  endSec: number;
  /** Seconds of load in it (the rest was the calm). */
  loadSec: number;
  requests: { sent: number; ok: number; failed: number; dropped: number };
  failureCounts: FailureCounts;
  okRps: number;
  latencyMs: LatencyMs | null;
  /** Over the interval's samples: mean and max of each, null without the preload. */
  gateway: { mean: SoakGatewaySample; max: SoakGatewaySample } | null;
  /** Gateway CPU % of one core over the load, from /proc. */
  gatewayCpuPercent: number | null;
  /** Share of the load's wall time in GC pauses (Node's account). */
  gcShare: number | null;
  calm: SoakCalm | null;
  /** A native gateway's memory after the calm (no preload, no forced GC); absent for Node gateways and in older results. */
  nativeCalm?: SoakProcessMemory | null;
  /** The harness's own RSS at the end of the interval. */
  harnessRssBytes: number;
  /** The harness's own heap used right after a full GC of its own at the calm; absent in older results. */
  harnessHeapAfterGcBytes?: number | null;
  /** A reload soak's swaps in this interval and its load in windows; absent without reloads. */
  reloads?: SoakIntervalReloads | null;
}

export interface SoakSnapshotClass {
  name: string;
  count: number;
  selfSize: number;
  retainedSize: number;
  retainerPath: string[] | null;
}

/** Two readings of `process.memoryUsage()` that RSS net of the heap is computed from. */
export interface RssAndHeap {
  rssBytes: number;
  heapTotalBytes: number;
}

export interface SoakSnapshot {
  atSec: number;
  /** Relative to the run folder; opens in Chrome DevTools' Memory panel. null once removed to bound the disk (its summary stays). */
  file: string | null;
  bytes: number;
  /**
   * The gateway's RSS and heap just before and just after writing the snapshot: the report shows
   * the step, which is why RSS net of the heap is judged only up to the first snapshot. Absent in
   * older results.
   */
  memoryAround?: { before: RssAndHeap; after: RssAndHeap } | null;
  /** The classes with the largest retained size; null when the summary failed (error says why). */
  classes: SoakSnapshotClass[] | null;
  error: string | null;
}

export interface SoakCrash {
  atSec: number;
  exitCode: number | null;
  signal: string | null;
  /** The last lines of the gateway's log. */
  logTail: string[];
}

/** A robust trend of one memory series after the warm-up. */
export interface SoakTrend {
  series: 'heapAfterGc' | 'external' | 'rssNetOfHeap' | 'rssAnonAfterCalm' | 'allocatedAfterCalm';
  points: number;
  /** When the series was read only up to a calm (RSS, up to the first heap snapshot after the warm-up), that calm's time; else null. */
  judgedUntilSec?: number | null;
  /** Theil–Sen slope and Sen's 90% interval, MB per hour. */
  mbPerHour: { slope: number; low: number | null; high: number | null };
  /** The same per successful request, bytes. */
  bytesPerRequest: { slope: number; low: number | null; high: number | null } | null;
  /** One-sided Mann–Kendall p-value of an upward trend. */
  pUp: number;
  /** The fitted line, for the chart: MB at x = hours from the start. */
  line: { interceptMb: number; slopeMbPerHour: number };
  verdict: 'leak' | 'no leak' | 'inconclusive';
}

export interface SoakGrowingClass {
  name: string;
  counts: Array<number | null>;
  retainedSizes: Array<number | null>;
  growthBytes: number;
  retainerPath: string[] | null;
}

/** A Node gateway's heap, a native process's RssAnon, or its allocator's live bytes where it publishes them. */
export type SoakMemoryMeasure = 'node-heap' | 'native-rss' | 'native-allocator';

export interface SoakAnalysis {
  verdict: 'leak' | 'no leak' | 'inconclusive' | 'crash';
  /** One line: why. */
  reason: string;
  /**
   * What the verdict stands on: a Node gateway's heap after a forced GC (with external memory and
   * RSS net of the heap), a native process's RssAnon after a calm, or its allocator's live bytes after
   * a calm. Absent in older results: the Node heap.
   */
  memoryMeasure?: SoakMemoryMeasure;
  /** The series the verdict reads. */
  trends: SoakTrend[];
  /** Series read beside the verdict, not judged (RssAnon when the allocator's live bytes are); absent: none. */
  besideTrends?: SoakTrend[];
  growingClasses: SoakGrowingClass[];
  /** The harness's own RSS slope after the warm-up, MB per hour (it should be flat). */
  harnessRssMbPerHour: number | null;
  /** The slope of the harness's heap after its own GC at the calms after the warm-up, MB per hour; absent in older results. */
  harnessHeapMbPerHour?: number | null;
  /** The exit code (EXIT, soak-outcome.ts) and the lines printed beside it. */
  exitCode: number;
  exitReasons: string[];
  /** Requests failed or slowed around reloads, memory after them; absent without reloads. */
  reloads?: SoakReloadAnalysis | null;
}

export interface SoakResult extends RecordHeader<'soak'> {
  config: SoakConfig;
  environment: RunEnvironment;
  intervals: SoakInterval[];
  snapshots: SoakSnapshot[];
  crash: SoakCrash | null;
  /** A native gateway's allocation sites of the bytes still live, counted under DHAT after the soak; absent or null when not counted. */
  allocationSites?: SoakAllocationSites | null;
  analysis: SoakAnalysis | null;
}
