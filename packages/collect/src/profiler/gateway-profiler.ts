import type { StepProfile } from '@gwprof/results';

/** What the gateway reported when its profile was written. */
export interface WrittenProfile {
  samples: number;
  /** Node's own account of the window (from the preload); null when the profiler cannot give one. */
  nodeGc: StepProfile['nodeGc'];
  threadCpuMs: StepProfile['threadCpuMs'];
}

/** What a step asks of whatever profiles the gateway: sample over its window, then write the profile. */
export interface GatewayProfiler {
  start(intervalUs: number): Promise<void>;
  /** Stops sampling and writes the profile to `file`. */
  stop(file: string): Promise<WrittenProfile>;
  close(): void;
}
