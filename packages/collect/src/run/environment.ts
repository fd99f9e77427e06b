/** What the run ran on, recorded with its results so figures can be compared honestly. */
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import type { RunEnvironment } from '@gwprof/results';
import { repoRoot } from '../paths.js';
import type { FdLimit } from '../processes/fd-limit.js';
import type { CpuPlan } from '../processes/isolation.js';

function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

export function describeEnvironment(options: {
  cpuPlan: CpuPlan;
  memoryLimitMB: number | null;
  memoryLimitMethod: string | null;
  cpuQuota?: { cores: number; method: string } | null;
  fdLimit: FdLimit;
  gatewayPackages: Record<string, string>;
  commandLine: string[];
}): RunEnvironment {
  const cpus = os.cpus();
  return {
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpuModel: cpus[0]?.model ?? 'unknown',
    cpuCount: os.availableParallelism(),
    totalMemMB: Math.round(os.totalmem() / (1024 * 1024)),
    cpuSets: { gateway: options.cpuPlan.gateway, others: options.cpuPlan.others },
    gatewayMemoryLimitMB: options.memoryLimitMB,
    memoryLimitMethod: options.memoryLimitMethod,
    ...(options.cpuQuota ? { gatewayCpuQuota: options.cpuQuota } : {}),
    fdLimit: options.fdLimit,
    gatewayPackages: options.gatewayPackages,
    gitCommit: gitCommit(),
    commandLine: options.commandLine,
    hostname: os.hostname(),
  };
}
