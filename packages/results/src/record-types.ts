/**
 * What every record shares (results.json, compare.json, bisect.json): the schema version, the header
 * every record begins with, the machine it ran on, where its requests came from and the services
 * around the gateway. Bump RESULTS_SCHEMA_VERSION on any incompatible change to any record.
 */
export const RESULTS_SCHEMA_VERSION = 3;

export interface RunEnvironment {
  node: string;
  platform: string;
  cpuModel: string;
  cpuCount: number;
  totalMemMB: number;
  cpuSets: { gateway: string | null; others: string | null };
  gatewayMemoryLimitMB: number | null;
  /** How the memory cap was applied: cgroup v1/v2, heap flag, or not at all. */
  memoryLimitMethod: string | null;
  /** The gateway's CPU quota (--gateway-cpu-quota), in cores; absent when it had whole cores. */
  gatewayCpuQuota?: { cores: number; method: string };
  fdLimit: { soft: number; hard: number };
  gatewayPackages: Record<string, string>;
  /** Each native gateway's build, by spec (a comparison's by side: `baseline:grafbase`); absent for Node gateways and in older results. */
  gatewayBuilds?: Record<string, GatewayBuild>;
  gitCommit: string | null;
  commandLine: string[];
  hostname: string;
}

/** A native gateway's binary as measured: where it came from, how it was built, and its hash. */
export interface GatewayBuild {
  name: string;
  version: string;
  /** The registry and package or crate it came from, or the user's own command. */
  source: string;
  /** The build's settings: as published, or cargo's profile and flags. */
  profile: string;
  binary: string;
  sha256: string;
  licence: string;
}

/** Where a run's requests came from, as every record keeps it: query files, or a scenario file and its own subgraphs. */
export interface RequestSourceRecord {
  /** The query file sent; null when the requests came from a scenario file. */
  query: string | null;
  variables: string | null;
  /** The goldens checked: an expected-response file, or the scenario file's goldens file; null when none were given. */
  expect: string | null;
  /** The scenario file of the user's own operations (and subgraphs); absent or null otherwise. */
  scenarioFile?: string | null;
  /** The scenario file's own subgraphs (not gwprof's code); absent or null with the demo's. */
  ownSubgraphs?: string[] | null;
  /**
   * Those of them counted through gwprof's counting proxy (`proxy: true`): one more loopback hop per
   * subgraph call. Fan-out is counted only when all of them are. Absent in older results (none).
   */
  proxiedSubgraphs?: string[] | null;
  /** True: answers were not compared with goldens on purpose (--expect-none), only their status, JSON and errors. Absent in older results. */
  expectNone?: boolean;
}

/** The services around one gateway under test, as a sweep and a soak record them. */
export interface ServicesRecord {
  /** The demo's subgraphs: Node (graphql-js) or native (Rust, async-graphql); absent in older results (node). */
  subgraphs?: 'node' | 'native';
  timeoutSec: number;
  subgraphDelayMs: number;
  /** `--subgraph-delay name=time,…`: per subgraph, instead of subgraphDelayMs (the others none); absent otherwise. */
  subgraphDelaysMs?: Record<string, number>;
  subgraphPorts: Record<string, number>;
  gatewayPort: number;
}

/** What every run record starts with: a sweep's results.json, a comparison's compare.json, a soak's results.json. */
/** The kinds of run folder gwprof writes. */
export type RecordKind = 'sweep' | 'compare' | 'soak' | 'bisect';

export interface RecordHeader<K extends RecordKind> {
  schemaVersion: number;
  tool: { name: 'gwprof'; version: string };
  kind: K;
  runId: string;
  startedAt: string;
  finishedAt: string | null;
  /** running: still being written; complete; interrupted (signal); failed (harness error). */
  state: 'running' | 'complete' | 'interrupted' | 'failed';
  /** The harness error that ended the run early; null otherwise. */
  error: string | null;
}
