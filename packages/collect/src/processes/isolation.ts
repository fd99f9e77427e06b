/**
 * CPU sets and the gateway's memory cap. By default, on a machine with two or more cores,
 * the gateway gets its own core(s) and everything else (subgraphs, load generator, harness)
 * the rest, so the load generator never steals the gateway's CPU. The memory cap uses a
 * cgroup (v1 or v2) when one can be created; otherwise V8's heap flag, and says so.
 */
import { availableParallelism } from 'node:os';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { GwprofError } from '@gwprof/results';

export interface CpuPlan {
  gateway: string | null;
  others: string | null;
}

function cpuList(ids: number[]): string {
  return ids.join(',');
}

/** gatewayCpus: number of cores for the gateway, or undefined for the default. */
export function planCpuSets(gatewayCpus: number | undefined, cores = availableParallelism()): CpuPlan {
  if (gatewayCpus !== undefined && (!Number.isInteger(gatewayCpus) || gatewayCpus < 1)) {
    throw new GwprofError(`--gateway-cpus must be a whole number ≥ 1 (got ${gatewayCpus})`);
  }
  if (gatewayCpus !== undefined && gatewayCpus > cores) {
    throw new GwprofError(`--gateway-cpus ${gatewayCpus} exceeds the ${cores} cores of this machine`);
  }
  if (cores < 2) return { gateway: null, others: null };
  const count = gatewayCpus ?? 1;
  const all = Array.from({ length: cores }, (_, i) => i);
  const gateway = all.slice(cores - count);
  const rest = all.slice(0, cores - count);
  // When the gateway takes every core, the others share them rather than get none.
  return { gateway: cpuList(gateway), others: cpuList(rest.length > 0 ? rest : all) };
}

/** Prefix that runs a command on a CPU set. */
export function pinnedCommand(cpus: string | null, command: string, args: string[]): { command: string; args: string[] } {
  if (!cpus) return { command, args };
  return { command: 'taskset', args: ['-c', cpus, command, ...args] };
}

let setprivAvailable: boolean | undefined;

/**
 * Makes the kernel SIGKILL the command when the harness dies, even of SIGKILL, where no
 * cleanup code can run (util-linux setpriv --pdeathsig; the setting survives exec).
 */
export function orphanGuardedCommand(command: string, args: string[]): { command: string; args: string[] } {
  if (setprivAvailable === undefined) setprivAvailable = existsSync('/usr/bin/setpriv');
  if (!setprivAvailable) return { command, args };
  return { command: '/usr/bin/setpriv', args: ['--pdeathsig', 'KILL', '--', command, ...args] };
}

/** Pins this process (every thread) to a CPU set. */
export function pinSelf(cpus: string | null): void {
  if (!cpus) return;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', cpus, String(process.pid)], { stdio: 'ignore' });
  } catch {
    // taskset missing: run unpinned, the environment records the intended sets only when applied
  }
}

export interface MemoryCap {
  method: string;
  /** Wraps the gateway command so it starts inside the cap. */
  wrap(command: string, args: string[]): { command: string; args: string[] };
  /** Extra NODE_OPTIONS, for the heap-flag fallback. */
  nodeOptions: string | null;
  release(): void;
}

function ownCgroupPath(controller: string): { version: 1 | 2; dir: string } | null {
  try {
    const lines = readFileSync('/proc/self/cgroup', 'utf8').trim().split('\n');
    for (const line of lines) {
      const [, controllers, cgPath] = line.split(':');
      if (controllers?.split(',').includes(controller)) {
        const dir = path.join('/sys/fs/cgroup', controller, cgPath ?? '');
        if (existsSync(dir)) return { version: 1, dir };
      }
    }
    const unified = lines.find((l) => l.startsWith('0::'));
    if (unified) {
      const dir = path.join('/sys/fs/cgroup', unified.slice(3));
      if (existsSync(path.join(dir, 'cgroup.controllers'))) return { version: 2, dir };
    }
  } catch {
    // not Linux
  }
  return null;
}

/** A share of the CPU for the gateway, from a cgroup: less than a core, when two cores cannot hold a native gateway and its harness. */
export interface CpuQuota {
  cores: number;
  method: string;
  wrap(command: string, args: string[]): { command: string; args: string[] };
  release(): void;
}

const CFS_PERIOD_US = 100_000;

/** A cgroup (v1 `cpu`, or v2 `cpu.max`) that lets its processes use `cores` cores' worth of CPU time; refused when none can be made. */
export function createCpuQuota(cores: number, name: string): CpuQuota {
  if (!Number.isFinite(cores) || cores < 0.05) throw new GwprofError(`--gateway-cpu-quota must be at least 0.05 (cores), got ${cores}`);
  const parent = ownCgroupPath('cpu');
  if (!parent) throw new GwprofError('--gateway-cpu-quota needs a writable cpu cgroup (run as root on a Linux with cgroups), and there is none here');
  const dir = path.join(parent.dir, name);
  const quotaUs = Math.round(cores * CFS_PERIOD_US);
  try {
    mkdirSync(dir, { recursive: true });
    if (parent.version === 1) {
      writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(CFS_PERIOD_US));
      writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), String(quotaUs));
    } else {
      writeFileSync(path.join(dir, 'cpu.max'), `${quotaUs} ${CFS_PERIOD_US}`);
    }
  } catch (error) {
    throw new GwprofError(`--gateway-cpu-quota: cannot set a CPU quota in ${dir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const procs = path.join(dir, 'cgroup.procs');
  return {
    cores,
    method: `cgroup v${parent.version} (${dir}): ${quotaUs} µs per ${CFS_PERIOD_US} µs`,
    wrap: (command, args) => ({ command: 'sh', args: ['-c', 'echo $$ > "$0" && exec "$@"', procs, command, ...args] }),
    release: () => {
      try {
        rmdirSync(dir);
      } catch {
        // still has processes or already removed
      }
    },
  };
}

export function createMemoryCap(limitMB: number, name: string): MemoryCap {
  if (!Number.isFinite(limitMB) || limitMB < 64) {
    throw new GwprofError(`--gateway-memory must be at least 64 (MB), got ${limitMB}`);
  }
  const bytes = Math.round(limitMB * 1024 * 1024);
  const parent = ownCgroupPath('memory');
  if (parent) {
    const dir = path.join(parent.dir, name);
    try {
      mkdirSync(dir, { recursive: true });
      if (parent.version === 1) {
        writeFileSync(path.join(dir, 'memory.limit_in_bytes'), String(bytes));
      } else {
        writeFileSync(path.join(dir, 'memory.max'), String(bytes));
      }
      const procs = path.join(dir, 'cgroup.procs');
      return {
        method: `cgroup v${parent.version} (${dir})`,
        // The shell moves itself into the cgroup, then execs the gateway: same pid, capped from its first byte.
        wrap: (command, args) => ({ command: 'sh', args: ['-c', 'echo $$ > "$0" && exec "$@"', procs, command, ...args] }),
        nodeOptions: null,
        release: () => {
          try {
            rmdirSync(dir);
          } catch {
            // still has processes or already removed
          }
        },
      };
    } catch {
      // no permission: fall through to the heap flag
    }
  }
  return {
    method: 'V8 heap flag only (no writable memory cgroup): --max-old-space-size',
    wrap: (command, args) => ({ command, args }),
    nodeOptions: `--max-old-space-size=${Math.max(32, Math.floor(limitMB * 0.75))}`,
    release: () => undefined,
  };
}
