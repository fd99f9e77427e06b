/**
 * Whether a step measured the harness rather than the gateway: the gateway's cores had room to
 * spare while the harness's were full (by gwprof's processes or the machine's others), or one of
 * the harness's single-threaded processes ran flat out. Such a step's throughput is not the
 * gateway's capacity, and capacity, the knee and the optimum leave it out.
 */
import type { CoreUse } from '@gwprof/results';

/**
 * A gateway at this share of its cores is at its limit whatever the harness did. Below it, with the
 * harness's cores full, the step cannot tell whose limit it met, and it is not called the
 * gateway's: Hive Router at 86% of its core beside a harness 98% busy served 3,318 req/s
 * (bench/results/native-quota/hive-router-no-profile.txt).
 */
export const GATEWAY_FULL = 0.9;
/** Harness cores this busy, or one harness process this busy (% of a core), leave the gateway waiting. */
export const HARNESS_FULL_PERCENT = 90;

export interface HarnessBoundInput {
  /** The gateway process's CPU, % of one core; null for a gateway gwprof cannot see. */
  gatewayCpuPercent: number | null;
  gatewayCores: CoreUse | null;
  harnessCores: CoreUse | null;
  /** % of one core of each harness process. */
  processes: Record<string, number | null>;
}

/** Other processes on the gateway's cores took at least this much of them (percentage points): worth a warning. */
export const NEIGHBOUR_PERCENT = 20;

/**
 * The gateway's cores are its own only among gwprof's processes: other processes of the machine
 * may run there too. When they took a fair share of them, the step says so.
 */
export function neighbourWarning(gatewayCpuPercent: number | null, gatewayCores: CoreUse | null): string | null {
  // Under a quota the gateway cannot fill its core: what is left is not taken from it.
  if (gatewayCpuPercent === null || !gatewayCores || gatewayCores.quotaCores !== undefined) return null;
  const count = gatewayCores.cpus.split(',').length;
  const others = gatewayCores.busyPercent - gatewayCpuPercent / count;
  if (others < NEIGHBOUR_PERCENT) return null;
  return `other processes of the machine used about ${Math.round(others)}% of the gateway's CPU ${gatewayCores.cpus} (busy ${Math.round(gatewayCores.busyPercent)}%, the gateway ${Math.round(gatewayCpuPercent / count)}%): the gateway shared its core, and its figures are slower than alone`;
}

/** The cores' worth of CPU the gateway may use: its CPUs, or its quota when that is lower. */
function gatewayCapacity(cores: CoreUse): number {
  const count = cores.cpus.split(',').length;
  return cores.quotaCores !== undefined ? Math.min(count, cores.quotaCores) : count;
}

export function harnessBoundReason(input: HarnessBoundInput): string | null {
  const { gatewayCpuPercent, gatewayCores, harnessCores, processes } = input;
  if (gatewayCpuPercent === null || !gatewayCores) return null;
  const gatewayShare = gatewayCpuPercent / (100 * gatewayCapacity(gatewayCores));
  if (gatewayShare >= GATEWAY_FULL) return null;
  const known = Object.entries(processes).filter((entry): entry is [string, number] => entry[1] !== null);
  const flatOut = known.filter(([, cpu]) => cpu >= HARNESS_FULL_PERCENT).map(([name]) => name);
  const coresFull = harnessCores !== null && harnessCores.busyPercent >= HARNESS_FULL_PERCENT;
  if (!coresFull && flatOut.length === 0) return null;
  const ours = known.reduce((sum, [, cpu]) => sum + cpu, 0);
  const parts = known
    .sort((a, b) => b[1] - a[1])
    .map(([name, cpu]) => `${name} ${Math.round(cpu)}%`)
    .join(', ');
  const cores = harnessCores ? `the harness's CPU ${harnessCores.cpus} was ${Math.round(harnessCores.busyPercent)}% busy` : 'the harness was busy';
  const others = harnessCores
    ? `; other processes about ${Math.max(0, Math.round(harnessCores.busyPercent * harnessCores.cpus.split(',').length - ours))}%`
    : '';
  const single = flatOut.length > 0 ? `, ${flatOut.join(' and ')} at its limit` : '';
  return `${cores} (gwprof's processes: ${parts}${others})${single}, while the gateway used ${Math.round(gatewayShare * 100)}% of its CPU ${gatewayCores.cpus}${gatewayCores.quotaCores !== undefined ? ` (quota ${gatewayCores.quotaCores} cores)` : ''}: the step measured the harness, not the gateway's capacity`;
}
