/**
 * The two builds of a comparison, alive at once on the same cores and subgraphs, on two ports:
 * restarted together for each epoch, so one lucky or unlucky process (its JIT decisions, its heap
 * layout) counts as noise rather than as a verdict.
 */
import { createCpuQuota, createMemoryCap, type CpuQuota, type MemoryCap } from '../processes/isolation.js';
import type { NodeBinary } from '../processes/node-binaries.js';
import type { GatewayAdapter } from '../gateways/types.js';
import { launchGatewayUnderTest, type GatewayUnderTest } from '../gateway-under-test.js';
import type { TestBed } from '../services/test-bed.js';
import type { GatewayBuild } from '@gwprof/results';
import type { CallgrindLaunch } from '../services/gateway-process.js';

export type Side = 'baseline' | 'candidate';
export const SIDES: readonly Side[] = ['baseline', 'candidate'];

export interface SideSpec {
  adapter: GatewayAdapter;
  env: Record<string, string>;
  port: number;
  node: NodeBinary;
}

export class GatewayPair {
  private running: Partial<Record<Side, GatewayUnderTest>> | null = null;
  private readonly candidateCap: MemoryCap | null;
  private readonly candidateQuota: CpuQuota | null;
  private readonly builds = new Set<Side>();

  constructor(
    private readonly bed: TestBed,
    private readonly specs: Record<Side, SideSpec>,
    limits: { memoryLimitMB: number | null; cpuQuotaCores: number | null },
    /** Told each side's native build the first time that side starts. */
    private readonly onBuild: (side: Side, build: GatewayBuild) => void = () => undefined,
  ) {
    // Each side gets a memory cap and a CPU quota of its own; the baseline uses the run's.
    this.candidateCap = limits.memoryLimitMB === null ? null : createMemoryCap(limits.memoryLimitMB, `gwprof-${process.pid}-candidate`);
    this.candidateQuota = limits.cpuQuotaCores === null ? null : createCpuQuota(limits.cpuQuotaCores, `gwprof-${process.pid}-candidate`);
  }

  /** Stops both sides, so that a new epoch starts each afresh with startSide; returns how long that took, ms. */
  async restart(): Promise<number> {
    const t0 = performance.now();
    await this.stop();
    this.running = {};
    return performance.now() - t0;
  }

  /**
   * Starts one side. The caller warms it up at once: a side left idle after its start (while the
   * other warms up) ended up with different JIT decisions and 4-5% more CPU per request (docs/validation/history.md, the side bias).
   */
  async startSide(side: Side, epoch: number | string, v8Flags: readonly string[], callgrind?: CallgrindLaunch): Promise<GatewayUnderTest> {
    const spec = this.specs[side];
    const started = await launchGatewayUnderTest(this.bed, spec.adapter, spec.env, `${side}-e${epoch}`, {
      port: spec.port,
      node: { binary: spec.node, v8Flags },
      ...(callgrind ? { callgrind } : {}),
      ...(side === 'candidate' && this.candidateCap ? { memoryCap: this.candidateCap } : {}),
      ...(side === 'candidate' && this.candidateQuota ? { cpuQuota: this.candidateQuota } : {}),
      // Its own subgraph addresses: with both sides loaded at once, each side's fan-out counts its own requests.
      ...(side === 'candidate' && this.bed.candidateSubgraphs ? { subgraphs: this.bed.candidateSubgraphs } : {}),
    });
    this.running = { ...this.running, [side]: started };
    if (started.build && !this.builds.has(side)) {
      this.builds.add(side);
      this.onBuild(side, started.build);
    }
    return started;
  }

  /** Pids of the sides running now (settling waits for all of them to be quiet). */
  pids(): number[] {
    return Object.values(this.running ?? {}).flatMap((side) => (side.step.pid === null ? [] : [side.step.pid]));
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    for (const side of SIDES) {
      this.running[side]?.profiler?.close();
      await this.running[side]?.process?.stop();
    }
    this.running = null;
  }

  release(): void {
    this.candidateCap?.release();
    this.candidateQuota?.release();
  }
}
