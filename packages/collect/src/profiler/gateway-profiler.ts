import type { StepProfile } from '@gwprof/results';

/** What the gateway reported when its profiles were written. */
export interface WrittenProfile {
  samples: number;
  /** Allocation samples; null when allocations were not sampled. */
  heapSamples: number | null;
  /** Node's own account of the window (from the preload); null when the profiler cannot give one. */
  nodeGc: StepProfile['nodeGc'];
  threadCpuMs: StepProfile['threadCpuMs'];
}

/** What a window samples: the CPU every intervalUs, and allocations every heapSamplingBytes (null: not at all). */
export interface SamplingPlan {
  intervalUs: number;
  heapSamplingBytes: number | null;
}

/** What a step asks of whatever profiles the gateway: sample over its window, then write the profiles. */
export interface GatewayProfiler {
  start(plan: SamplingPlan): Promise<void>;
  /** Stops sampling and writes the CPU profile to `cpuprofile` and, when allocations were sampled, the allocation profile to `heapprofile`. */
  stop(files: { cpuprofile: string; heapprofile: string | null }): Promise<WrittenProfile>;
  /**
   * TurboFan's inlining on or off, every optimised function dropped so that it holds at once; the
   * gateway's ms for it. Only the preload's profiler can (StepHeapProfile.attribution).
   */
  setInlining?(enabled: boolean): Promise<{ ms: number }>;
  /** Allocations alone, without the CPU sampler: started, then stopped into `heapprofile` (its samples). */
  startHeapSampling?(heapSamplingBytes: number): Promise<void>;
  stopHeapSampling?(heapprofile: string): Promise<{ heapSamples: number }>;
  /** A full GC (two, as `global.gc()` makes them), then the heap used after it; only the preload's profiler can. */
  collectGarbage?(): Promise<{ heapUsedBytes: number }>;
  /** Bytes allocated on V8's heap since the first call; only the preload's profiler can. */
  allocatedBytes?(): Promise<number>;
  /** A process of its own that samples the gateway (perf) while it runs: metered with the harness. */
  samplerPid?(): number | null;
  close(): void;
}
