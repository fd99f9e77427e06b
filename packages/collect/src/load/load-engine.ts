/** What every load engine (closed loop, open loop, k6) gives the step that runs it. */
export interface LoadEngine {
  /** Stops sending, abandons what is in flight and closes every connection. */
  stop(): Promise<void>;
  /** Closed loop: connections that have had a first response (or failure); null for open loop. */
  answered(): number | null;
  /** The engine's own processes (k6), whose CPU counts as the load generator's; absent: it runs in the harness. */
  pids?(): number[];
}
