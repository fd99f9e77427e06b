/** What a step asks of whatever profiles the gateway: sample over its window, then write the profile. */
export interface GatewayProfiler {
  start(intervalUs: number): Promise<void>;
  /** Stops sampling and writes the profile to `file`; returns its sample count. */
  stop(file: string): Promise<number>;
  close(): void;
}
