/**
 * One interface for every gateway under test. An adapter says how to prepare and launch a
 * gateway; starting, waiting until ready, CPU sets, memory caps, profiling and stopping are
 * shared (gateway-process.ts), so every adapter is measured the same way.
 */
import type { Logger } from 'pino';
import type { GatewayBuild } from '@gwprof/results';

export const SUBGRAPH_NAMES = ['accounts', 'reviews', 'products', 'inventory'] as const;
export type SubgraphName = (typeof SUBGRAPH_NAMES)[number];

/**
 * Set to 1 in a gateway's environment when gwprof traces (`--trace`): the built-in gateways then
 * forward each request's `traceparent` to their subgraph calls, each by its own setting; a `cmd:`
 * gateway may read it too (docs/traces.md).
 */
export const TRACE_CONTEXT_ENV = 'GWPROF_TRACE_CONTEXT';

/**
 * Set, when gwprof receives spans (`--trace`), to its OTLP/HTTP receiver's base URL
 * (`http://127.0.0.1:PORT`; traces go to PORT/v1/traces): the built-in gateways that export OTLP
 * are told to export there, each by its own setting; a `cmd:` gateway may read it too.
 */
export const OTLP_ENDPOINT_ENV = 'GWPROF_OTLP_ENDPOINT';

export interface GatewayContext {
  port: number;
  /** The demo's four for the built-in gateways; a scenario file's own for `cmd:` gateways. */
  subgraphUrls: Record<string, string>;
  /** PORT and SUBGRAPH_<NAME>_URL, as given to every gateway process, and TRACE_CONTEXT_ENV when tracing. */
  env: Record<string, string>;
  /** The run folder: adapters may write generated files under it. */
  runDir: string;
  /**
   * The `node` to start a Node gateway with: the harness's own, or a shim that runs another version
   * or adds V8 flags (it is also first on the gateway's PATH, for `cmd:` gateways that call `node`).
   */
  node: string;
  logger: Logger;
}

export interface GatewayLaunch {
  command: string;
  args: string[];
  cwd: string;
  /** True when command is `node` running a script: profilers (clinic, 0x) can wrap it. */
  isNodeScript: boolean;
  /** Environment the gateway itself needs, beside PORT and the subgraph URLs. */
  env?: Record<string, string>;
}

export interface GatewayAdapter {
  /** The spec the user gave: mesh, hive, apollo, cmd:… */
  readonly spec: string;
  readonly description: string;
  /** Name → version of the packages that make this gateway, for the run's environment. */
  packageVersions(): Record<string, string>;
  /** Work done once per gateway start, before launch (compose a supergraph, build artifacts). */
  prepare(context: GatewayContext): Promise<void>;
  launch(context: GatewayContext): GatewayLaunch;
  /** Removes what prepare() made, once the gateway has stopped. */
  dispose?(): void;
  /** How long a start may take before it is called failed. */
  readonly startTimeoutMs: number;
  /** The form of the demo's subgraphs it composes: 1 (`extend type … @key`, the default) or 2 (`@link`, the native routers). */
  readonly federation?: 1 | 2;
  /** A native gateway's binary, for the record; absent for Node gateways. */
  build?(): Promise<GatewayBuild>;
  /** How perf walks a native gateway's stacks: frame pointers where its build keeps them, DWARF otherwise. */
  readonly stackWalk?: 'fp' | 'dwarf';
  /**
   * The schema files the running gateway watches and reloads when they change (a soak's
   * --reload-every rewrites them in place), as the last prepare() wrote them; absent: it reloads none.
   */
  reloadFiles?(): string[];
  /**
   * The same gateway started so that it serves its schema files anew when they change, for one that
   * watches them only when told to (the native routers); a reload soak starts this one.
   */
  reloading?(): GatewayAdapter;
}
