/**
 * How busy a set of CPUs was over a window, by anything that ran on them (gwprof's processes or
 * the machine's others), from /proc/stat; and the CPUs a process may run on, from its status.
 * A harness whose cores were full cannot have driven the gateway to its limit.
 */
import { readFileSync } from 'node:fs';
import type { CoreUse } from '@gwprof/results';

/** The CPUs a process may run on (its affinity), from /proc/<pid>/status; null when unreadable. */
export function allowedCpus(pid: number | 'self'): number[] | null {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Cpus_allowed_list:'));
    return line ? parseCpuList(line.slice('Cpus_allowed_list:'.length).trim()) : null;
  } catch {
    return null;
  }
}

/** The CPU quota of a process's cgroup, in cores (cgroup v1 cfs quota, or v2 cpu.max); null when it has none. */
export function cpuQuotaOf(pid: number): number | null {
  try {
    for (const line of readFileSync(`/proc/${pid}/cgroup`, 'utf8').trim().split('\n')) {
      const [, controllers, cgPath] = line.split(':');
      if (controllers?.split(',').includes('cpu')) {
        const dir = `/sys/fs/cgroup/${controllers}/${cgPath ?? ''}`;
        const quota = Number(readFileSync(`${dir}/cpu.cfs_quota_us`, 'utf8'));
        const period = Number(readFileSync(`${dir}/cpu.cfs_period_us`, 'utf8'));
        return quota > 0 && period > 0 ? quota / period : null;
      }
      if (controllers === '') {
        const [quota, period] = readFileSync(`/sys/fs/cgroup/${cgPath ?? ''}/cpu.max`, 'utf8')
          .trim()
          .split(/\s+/);
        return quota !== 'max' && Number(period) > 0 ? Number(quota) / Number(period) : null;
      }
    }
  } catch {
    // no cgroup files: no quota known
  }
  return null;
}

/** "0-2,5" → [0, 1, 2, 5]. */
export function parseCpuList(list: string): number[] {
  return list.split(',').flatMap((part) => {
    const [from, to] = part.split('-').map(Number);
    if (from === undefined || Number.isNaN(from)) return [];
    return Array.from({ length: (to ?? from) - from + 1 }, (_, i) => from + i);
  });
}

interface CpuTimes {
  busy: number;
  total: number;
}

/** Per CPU: ticks spent busy (all but idle and iowait) and in all, since boot. */
export function readCpuTimes(stat = readFileSync('/proc/stat', 'utf8')): Map<number, CpuTimes> {
  const times = new Map<number, CpuTimes>();
  for (const line of stat.split('\n')) {
    const match = /^cpu(\d+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const ticks = match[2]!.trim().split(/\s+/).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already in user).
    const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0);
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
    times.set(Number(match[1]), { busy: total - idle, total });
  }
  return times;
}

/** The busy share of `cpus` between two readings, in % (100: every one of them busy all the time). */
export function busyPercent(before: Map<number, CpuTimes>, after: Map<number, CpuTimes>, cpus: readonly number[]): number | null {
  let busy = 0;
  let total = 0;
  for (const cpu of cpus) {
    const a = before.get(cpu);
    const b = after.get(cpu);
    if (!a || !b) return null;
    busy += b.busy - a.busy;
    total += b.total - a.total;
  }
  return total > 0 ? (busy / total) * 100 : null;
}

/** Both sides' CPUs over a step's window: the gateway's (and its quota), and the harness's own. */
export function meterCores(gatewayPid: number | null): { stop(): { gateway: CoreUse | null; harness: CoreUse | null } } {
  const meterOf = (pid: number | 'self' | null): CoreBusyMeter | null => {
    const cpus = pid === null ? null : allowedCpus(pid);
    return cpus && cpus.length > 0 ? new CoreBusyMeter(cpus) : null;
  };
  const useOf = (meter: CoreBusyMeter | null): CoreUse | null => {
    const busy = meter?.stop() ?? null;
    return meter && busy !== null ? { cpus: meter.cpus.join(','), busyPercent: Math.round(busy * 10) / 10 } : null;
  };
  const gateway = meterOf(gatewayPid);
  const harness = meterOf('self');
  const quota = gatewayPid === null ? null : cpuQuotaOf(gatewayPid);
  return {
    stop() {
      const gatewayUse = useOf(gateway);
      return { gateway: gatewayUse && quota !== null ? { ...gatewayUse, quotaCores: quota } : gatewayUse, harness: useOf(harness) };
    },
  };
}

/** The busy share of a set of CPUs over a window. */
export class CoreBusyMeter {
  private readonly before = readCpuTimes();

  constructor(readonly cpus: readonly number[]) {}

  stop(): number | null {
    return busyPercent(this.before, readCpuTimes(), this.cpus);
  }
}
