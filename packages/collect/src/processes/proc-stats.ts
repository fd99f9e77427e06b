/** CPU time and resident memory of process trees, read from /proc (Linux). */
import { readFileSync, readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const sysconfCache = new Map<string, number>();

/** A sysconf value from getconf, read once; the fallback where getconf is missing. */
function sysconf(name: string, fallback: number): number {
  let value = sysconfCache.get(name);
  if (value === undefined) {
    try {
      value = Number(execFileSync('getconf', [name], { encoding: 'utf8' }).trim()) || fallback;
    } catch {
      value = fallback;
    }
    sysconfCache.set(name, value);
  }
  return value;
}

/** The kernel's clock ticks per second (CLK_TCK), in which /proc's CPU times count. */
export function clockTicksPerSecond(): number {
  return sysconf('CLK_TCK', 100);
}

interface StatFields {
  ppid: number;
  cpuTicks: number;
}

function readStat(pid: number): StatFields | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces and parentheses: fields start after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), cpuTicks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

/** The pid and all its live descendants. */
export function processTree(rootPid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const stat = readStat(pid);
    if (!stat) continue;
    const list = children.get(stat.ppid);
    if (list) list.push(pid);
    else children.set(stat.ppid, [pid]);
  }
  const tree: number[] = [];
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    if (readStat(pid) === null) continue;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Total user+system CPU seconds consumed so far by these processes. */
export function cpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) ticks += readStat(pid)?.cpuTicks ?? 0;
  return ticks / clockTicksPerSecond();
}

export function rssBytes(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      total += Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * sysconf('PAGESIZE', 4096);
    } catch {
      // exited
    }
  }
  return total;
}

/** Threads of these processes, from /proc/<pid>/task; null when none could be read. */
export function threadCount(pids: readonly number[]): number | null {
  let threads = 0;
  let read = false;
  for (const pid of pids) {
    try {
      threads += readdirSync(`/proc/${pid}/task`).length;
      read = true;
    } catch {
      // exited
    }
  }
  return read ? threads : null;
}

/**
 * Measures CPU of a set of process trees over a window, and peak RSS sampled during it.
 * CPU of processes that exit inside the window is lost; the gateway and subgraphs live across it.
 */
export class TreeUsageMeter {
  private startCpu = 0;
  private startTime = 0;
  private peakRss = 0;
  private timer: NodeJS.Timeout | undefined;
  private pids: number[] = [];

  /**
   * sampleRssMs: how often to sample peak RSS (and pick up new child processes) during the window,
   * or null for CPU only: every sample is a /proc scan in the load generator's own process.
   */
  constructor(
    private readonly roots: () => number[],
    private readonly sampleRssMs: number | null = 250,
  ) {}

  start(): void {
    this.pids = this.roots().flatMap(processTree);
    this.startCpu = cpuSeconds(this.pids);
    this.startTime = performance.now();
    this.peakRss = rssBytes(this.pids);
    if (this.sampleRssMs === null) return;
    this.timer = setInterval(() => {
      this.pids = this.roots().flatMap(processTree);
      this.peakRss = Math.max(this.peakRss, rssBytes(this.pids));
    }, this.sampleRssMs);
    this.timer.unref();
  }

  stop(): { cpuSeconds: number; wallSeconds: number; cpuPercent: number; rssMaxMB: number; pids: number[]; threads: number | null } {
    if (this.timer) clearInterval(this.timer);
    const wallSeconds = (performance.now() - this.startTime) / 1000;
    const used = Math.max(0, cpuSeconds(this.pids) - this.startCpu);
    this.peakRss = Math.max(this.peakRss, rssBytes(this.pids));
    return {
      cpuSeconds: used,
      wallSeconds,
      cpuPercent: wallSeconds > 0 ? (used / wallSeconds) * 100 : 0,
      rssMaxMB: this.peakRss / (1024 * 1024),
      pids: this.pids,
      threads: threadCount(this.pids),
    };
  }
}
