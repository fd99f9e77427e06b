/**
 * The preload's accounts of the gateway process: Node's own GC pauses and every thread's CPU over a
 * profiled window, and a soak's process state. Plain CommonJS with no side effect on load, so the
 * preload can require it.
 */
import fs = require('node:fs');
import perfHooks = require('node:perf_hooks');
import v8 = require('node:v8');
import type { ProcessStats, WindowAccountReply } from './protocol.js';

/**
 * Node's own account of the profiled window, to set beside the profile: the GC pauses it reports
 * (perf_hooks "gc" entries that started in the window) and the CPU time of the main thread and of
 * every other thread (GC helpers, libuv pool), from /proc/self/task.
 */
export class WindowAccount {
  private observer: perfHooks.PerformanceObserver | null = null;
  private startedAt = 0;
  private gcMs = 0;
  private gcCount = 0;
  private byKind: Record<string, number> = {};
  private threadsAtStart: Record<string, number> = {};

  start(): void {
    this.startedAt = perfHooks.performance.now();
    this.gcMs = 0;
    this.gcCount = 0;
    this.byKind = {};
    this.threadsAtStart = threadTicks();
    this.observer = new perfHooks.PerformanceObserver((list) => this.add(list.getEntries()));
    this.observer.observe({ entryTypes: ['gc'] });
  }

  private add(entries: readonly perfHooks.PerformanceEntry[]): void {
    for (const entry of entries) {
      if (entry.startTime < this.startedAt) continue;
      const kind = String((entry as { detail?: { kind?: number } }).detail?.kind ?? 'unknown');
      this.gcMs += entry.duration;
      this.gcCount++;
      this.byKind[kind] = (this.byKind[kind] ?? 0) + entry.duration;
    }
  }

  /** Thread CPU comes back in clock ticks: the harness knows how long a tick is (CLK_TCK). */
  stop(): WindowAccountReply {
    const windowMs = perfHooks.performance.now() - this.startedAt;
    // Entries are delivered asynchronously: take the ones still queued.
    if (this.observer) this.add(this.observer.takeRecords());
    this.observer?.disconnect();
    this.observer = null;
    const after = threadTicks();
    const ticksOf = (tid: string): number => (after[tid] ?? 0) - (this.threadsAtStart[tid] ?? 0);
    const tids = Object.keys(after);
    const main = String(process.pid);
    const threadTicksInWindow =
      tids.length > 0 ? { main: ticksOf(main), others: tids.filter((t) => t !== main).reduce((sum, t) => sum + ticksOf(t), 0) } : null;
    return { nodeGc: { ms: this.gcMs, count: this.gcCount, windowMs, msByKind: this.byKind }, threadTicks: threadTicksInWindow };
  }
}

/**
 * The process's state for a soak, sample by sample: memory, open descriptors, pending resources,
 * event-loop delay and GC pauses since the previous sample. Started by the first sample.
 */
export class ProcessAccount {
  private readonly delay = perfHooks.monitorEventLoopDelay({ resolution: 10 });
  private readonly observer = new perfHooks.PerformanceObserver((list) => {
    for (const entry of list.getEntries()) this.gcMs += entry.duration;
  });
  private gcMs = 0;

  constructor() {
    this.delay.enable();
    this.observer.observe({ entryTypes: ['gc'] });
  }

  sample(): ProcessStats {
    for (const entry of this.observer.takeRecords()) this.gcMs += entry.duration;
    const memory = process.memoryUsage();
    const result = {
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
      heapTotalBytes: memory.heapTotal,
      externalBytes: memory.external,
      arrayBuffersBytes: memory.arrayBuffers,
      openFds: openFds(),
      activeResources: process.getActiveResourcesInfo().length,
      eventLoopDelayP99Ms: this.delay.count > 0 ? this.delay.percentile(99) / 1e6 : 0,
      gcMs: this.gcMs,
    };
    this.delay.reset();
    this.gcMs = 0;
    return result;
  }
}

function openFds(): number | null {
  try {
    return fs.readdirSync('/proc/self/fd').length;
  } catch {
    return null;
  }
}

/** utime + stime of every thread of this process, in ticks; {} where /proc is missing. */
function threadTicks(): Record<string, number> {
  const ticks: Record<string, number> = {};
  let tids: string[];
  try {
    tids = fs.readdirSync('/proc/self/task');
  } catch {
    return ticks;
  }
  for (const tid of tids) {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks[tid] = Number(fields[11]) + Number(fields[12]);
    } catch {
      // the thread ended
    }
  }
  return ticks;
}

/** RssAnon from /proc (Linux): resident memory without the mapped files (code, libraries) that come and go with use. */
export function anonymousRss(): number | null {
  try {
    const line = /^RssAnon:\s+(\d+) kB/m.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    return line ? Number(line[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Bytes allocated on V8's heap since the first reading: the used heap's growth plus what every GC
 * in between freed (v8.GCProfiler's heap statistics before and after each). V8 keeps no running
 * total of what it allocated; this one is exact up to the GCs' own bookkeeping.
 */
export class AllocatedBytes {
  private profiler: v8.GCProfiler | null = null;
  private freed = 0;
  private base: number | null = null;

  bytes(): number {
    if (this.profiler) {
      for (const gc of this.profiler.stop()?.statistics ?? []) this.freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize;
    }
    this.profiler = new v8.GCProfiler();
    this.profiler.start();
    const total = this.freed + v8.getHeapStatistics().used_heap_size;
    this.base ??= total;
    return total - this.base;
  }
}
