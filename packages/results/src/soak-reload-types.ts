/**
 * A soak that swaps the gateway's supergraph while it serves (`gwprof soak --reload-every`): what
 * was asked, each reload as it was made and confirmed, the load around each one and between them,
 * and what the publish pass derives from them.
 */
import type { FailureCounts } from './failures.js';
import type { LatencyMs } from './step-types.js';

/** How gwprof makes the gateway reload, and how it sees that it did. */
export interface SoakReloadConfig {
  /** A reload this often, from the end of the warm-up (the warm-up's calms are memory without reloads). */
  everySec: number;
  /**
   * `files`: the files the gateway watches are rewritten in place, variant A and B in turn;
   * `command`: a shell command is run (GWPROF_RELOAD_VARIANT=a|b); `signal`: a signal to the gateway's server process.
   */
  how: 'files' | 'command' | 'signal';
  /** The files rewritten, the command, or the signal. */
  detail: string[];
  /**
   * A reload counts only when it was seen: the marker field of variant B appearing in (or gone from)
   * the gateway's introspection, or a line of the gateway's log matching a pattern.
   */
  seenBy: { kind: 'introspection'; field: string } | { kind: 'log'; pattern: string };
  /** Seconds before and after a reload that make its window; the rest of the load is cut into windows as long. */
  window: { beforeSec: number; afterSec: number };
  /** Longest wait for a reload to be seen, seconds. */
  seenWithinSec: number;
}

/** One reload: when the swap was made, to which variant, and when it was seen. */
export interface SoakReload {
  /** 0, 1, 2 … over the soak. */
  index: number;
  /** Seconds from the start of the soak, when the swap was made. */
  atSec: number;
  /** `b` carries the marker (an extra field no operation asks for); `a` is the supergraph as composed. */
  variant: 'a' | 'b';
  /** Seconds from the swap until the gateway served it; null: not seen within seenWithinSec (not counted as a reload). */
  seenAfterSec: number | null;
  /** Why the swap itself failed (the command's exit, the signal refused); null when it was made. */
  error: string | null;
}

/** A stretch of an interval's load: around a reload, or between reloads. */
export interface SoakLoadWindow {
  /** Seconds from the start of the soak. */
  startSec: number;
  endSec: number;
  /** The reload in it (its index), or null for a window with none. */
  reload: number | null;
  requests: { ok: number; failed: number };
  failureCounts: FailureCounts;
  latencyMs: LatencyMs | null;
}

/** An interval's reloads and its load cut into windows. */
export interface SoakIntervalReloads {
  reloads: SoakReload[];
  windows: SoakLoadWindow[];
  /** Reloads made so far in the soak, at this interval's calm. */
  reloadsSoFar: number;
}

/** The windows of one kind, together. */
export interface SoakWindowGroup {
  windows: number;
  ok: number;
  failed: number;
  /** The median of the windows' p99 latencies, ms. */
  medianP99Ms: number | null;
  /** The largest window p99, ms. */
  maxP99Ms: number | null;
}

export interface SoakReloadEffect {
  index: number;
  atSec: number;
  seenAfterSec: number | null;
  failed: number;
  ok: number;
  p99Ms: number | null;
  /** Its window's p99 over the median p99 of the windows without a reload. */
  p99Ratio: number | null;
}

/** The memory series the verdict reads, without reloads and after them. */
export interface SoakReloadMemory {
  series: 'heapAfterGc' | 'rssAnonAfterCalm';
  /** The last calm before the first reload (the end of the warm-up), bytes; null when reloads began in the first interval. */
  beforeBytes: number | null;
  /** The last calm, bytes, and the reloads seen by then. */
  afterBytes: number | null;
  reloadsBy: number;
  /** (after − before) / reloads seen, bytes; null without a before or a reload. */
  bytesPerReload: number | null;
}

export interface SoakReloadAnalysis {
  everySec: number;
  /** Swaps made, reloads seen (counted), swaps not seen within the wait, swaps that failed. */
  made: number;
  seen: number;
  unseen: number;
  swapFailed: number;
  /** Seconds from a swap until it was served: median and max over the seen ones. */
  seenAfterSec: { median: number; max: number } | null;
  aroundReloads: SoakWindowGroup;
  withoutReloads: SoakWindowGroup;
  /** The median window p99 around reloads over that without; null when either has none. */
  p99Ratio: number | null;
  /** Each seen reload's window. */
  effects: SoakReloadEffect[];
  memory: SoakReloadMemory | null;
}
