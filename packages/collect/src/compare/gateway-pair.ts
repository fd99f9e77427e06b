/**
 * The two builds of a comparison, alive at once on the same cores and subgraphs, on two ports:
 * started together for an epoch and stopped together before the next, so one lucky or unlucky
 * process (its JIT decisions, its heap layout) counts as noise rather than as a verdict.
 */
import { createMemoryCap, type MemoryCap } from '../isolation.js';
import type { GatewayAdapter } from '../gateways/types.js';
import { launchGatewayUnderTest, type GatewayUnderTest } from '../gateway-under-test.js';
import type { TestBed } from '../test-bed.js';

export type Side = 'baseline' | 'candidate';
export const SIDES: readonly Side[] = ['baseline', 'candidate'];

export interface SideSpec {
  adapter: GatewayAdapter;
  env: Record<string, string>;
  port: number;
}

export class GatewayPair {
  private running: Record<Side, GatewayUnderTest> | null = null;
  private readonly candidateCap: MemoryCap | null;

  constructor(
    private readonly bed: TestBed,
    private readonly specs: Record<Side, SideSpec>,
    memoryLimitMB: number | null,
  ) {
    // Each side gets a memory cap of its own; the baseline uses the run's.
    this.candidateCap = memoryLimitMB === null ? null : createMemoryCap(memoryLimitMB, `gwprof-${process.pid}-candidate`);
  }

  /** Both sides for epoch `epoch`, freshly started; the start order alternates by epoch. */
  async start(epoch: number): Promise<Record<Side, GatewayUnderTest>> {
    await this.stop();
    const order: Side[] = epoch % 2 === 1 ? ['baseline', 'candidate'] : ['candidate', 'baseline'];
    const started: Partial<Record<Side, GatewayUnderTest>> = {};
    for (const side of order) {
      const spec = this.specs[side];
      started[side] = await launchGatewayUnderTest(this.bed, spec.adapter, spec.env, `${side}-e${epoch}`, {
        port: spec.port,
        ...(side === 'candidate' && this.candidateCap ? { memoryCap: this.candidateCap } : {}),
      });
    }
    this.running = started as Record<Side, GatewayUnderTest>;
    return this.running;
  }

  pids(): number[] {
    return this.running ? SIDES.flatMap((side) => (this.running![side].step.pid === null ? [] : [this.running![side].step.pid!])) : [];
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    for (const side of SIDES) {
      this.running[side].profiler?.close();
      await this.running[side].process?.stop();
    }
    this.running = null;
  }

  release(): void {
    this.candidateCap?.release();
  }
}
