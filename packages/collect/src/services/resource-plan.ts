/** What a run may be refused before any process starts: open files, the gateway's CPU set, its memory cap and CPU quota. */
import { GwprofError } from '@gwprof/results';
import { ensureFdLimit, type FdLimit } from '../processes/fd-limit.js';
import { createCpuQuota, createMemoryCap, planCpuSets, type CpuPlan, type CpuQuota, type MemoryCap } from '../processes/isolation.js';

export interface ResourcePlan {
  fdLimit: FdLimit;
  cpuPlan: CpuPlan;
  memoryCap: MemoryCap | null;
  memoryLimitMB: number | null;
  cpuQuota: CpuQuota | null;
}

/**
 * Checks and plans everything that can be refused before any process starts. A gateway that is
 * already running (`attached`) is not ours to pin or cap.
 */
export function planResources(options: {
  maxConcurrency: number;
  gatewayCpus?: number;
  gatewayMemoryMB?: number;
  gatewayCpuQuota?: number;
  attached?: boolean;
}): ResourcePlan {
  const fdLimit = ensureFdLimit(options.maxConcurrency);
  if (options.attached) {
    if (options.gatewayCpus !== undefined || options.gatewayMemoryMB !== undefined || options.gatewayCpuQuota !== undefined) {
      throw new GwprofError('--gateway-cpus, --gateway-memory and --gateway-cpu-quota apply to gateways gwprof starts, not to one measured by URL');
    }
    return { fdLimit, cpuPlan: { gateway: null, others: null }, memoryCap: null, memoryLimitMB: null, cpuQuota: null };
  }
  const cpuPlan = planCpuSets(options.gatewayCpus);
  const memoryCap = options.gatewayMemoryMB !== undefined ? createMemoryCap(options.gatewayMemoryMB, `gwprof-${process.pid}-gateway`) : null;
  const cpuQuota = options.gatewayCpuQuota !== undefined ? createCpuQuota(options.gatewayCpuQuota, `gwprof-${process.pid}-gateway`) : null;
  return { fdLimit, cpuPlan, memoryCap, memoryLimitMB: options.gatewayMemoryMB ?? null, cpuQuota };
}
