/**
 * The services around the gateway under test, shared by every kind of run: the four subgraphs
 * (or a scenario file's own), and a way to launch a gateway (fresh process each time for compare)
 * with its in-process profiler connected, within the run's resource plan (resource-plan.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pinSelf, type CpuQuota, type MemoryCap } from '../processes/isolation.js';
import type { ResourcePlan } from './resource-plan.js';
import type { RunLogs } from '../processes/log.js';
import { ProcessRegistry } from '../processes/processes.js';
import { startSubgraphs, urlsForFederation, type RunningSubgraphs, type SubgraphViews } from './subgraphs.js';
import { startScenarioSubgraphs } from './scenario-subgraphs.js';
import type { ScenarioSubgraph } from '../scenario/scenario-file.js';
import { startGateway, type CallgrindLaunch, type RunningGateway } from './gateway-process.js';
import type { NodeBinary } from '../processes/node-binaries.js';
import { ProfilerClient, withProfilerPreload } from '../profiler/controller.js';
import { profilerWrapper, type ExternalProfiler } from '../profiler/external.js';
import { perfProfilerOf } from '../profiler/perf-profiler.js';
import { isNodeProcess } from '../profiler/inspector-profiler.js';
import type { GatewayProfiler } from '../profiler/gateway-profiler.js';
import type { GatewayAdapter, SubgraphName } from '../gateways/types.js';
import type { GatewayBuild } from '@gwprof/results';
import { callgrindClientBuild, processBuild } from '../gateways/native-builds.js';
import type { SubgraphsChoice } from './native-subgraphs.js';

export type ProfilerKind = 'inspector' | 'clinic' | '0x' | 'none';

/** Where and how the services around the gateway run: shared by sweep and compare. */
export interface ServiceOptions {
  subgraphDelayMs: number;
  /** Per subgraph by name, instead of subgraphDelayMs (the others none): a slow subgraph planted. */
  subgraphDelaysMs?: Record<string, number>;
  subgraphPorts: Record<SubgraphName, number>;
  /** A comparison's candidate's own subgraph addresses (the same processes, counted apart). */
  candidateSubgraphPorts?: Record<SubgraphName, number>;
  gatewayPort: number;
  gatewayCpus?: number;
  gatewayMemoryMB?: number;
  /** A share of the CPU for the gateway, in cores (0.5: half a core), from a cgroup quota. */
  gatewayCpuQuota?: number;
  /** The demo's subgraphs in Node (graphql-js) or Rust (async-graphql); `auto`: Rust in front of a built-in native gateway. */
  subgraphs?: SubgraphsChoice;
}

/** A scenario file's own subgraphs, started or found in place of the demo's. */
export interface OwnSubgraphs {
  subgraphs: ScenarioSubgraph[];
  /** The scenario file's folder: where their commands run. */
  dir: string;
}

export interface LaunchedGateway {
  gateway: RunningGateway;
  /** A native gateway's binary (a built-in's build, or a cmd: binary's hash); null for Node. */
  build: GatewayBuild | null;
  profiler: GatewayProfiler | null;
  /** Why in-process profiling was asked for but is not available (e.g. not a Node gateway). */
  profilerUnavailable: string | null;
  external: ExternalProfiler | null;
}

export interface TestBed {
  subgraphs: RunningSubgraphs;
  /** The same subgraphs at the candidate's own addresses; null outside a comparison. */
  candidateSubgraphs: RunningSubgraphs | null;
  registry: ProcessRegistry;
  /** `port` and `memoryCap` default to the run's; a comparison gives its candidate others. */
  launchGateway(options: LaunchOptions): Promise<LaunchedGateway>;
  close(): Promise<void>;
}

export interface LaunchOptions {
  adapter: GatewayAdapter;
  gatewayEnv: Record<string, string>;
  processName: string;
  port?: number;
  memoryCap?: MemoryCap | null;
  cpuQuota?: CpuQuota | null;
  /** Another Node.js, or V8 flags on node's command line; default the harness's node as it is. */
  node?: { binary: NodeBinary; v8Flags: readonly string[] };
  /** The subgraph addresses it is given; default the run's. */
  subgraphs?: RunningSubgraphs;
  /** Under callgrind (a comparison by instructions): then on no pinned core, since counts do not depend on speed. */
  callgrind?: CallgrindLaunch;
  /** false: no CPU profiler for it (a process under a valgrind tool that is not measured by time). */
  profiled?: boolean;
}

export async function startTestBed(options: {
  resources: ResourcePlan;
  runDir: string;
  logs: RunLogs;
  subgraphPorts: Record<SubgraphName, number>;
  candidateSubgraphPorts?: Record<SubgraphName, number>;
  /** Instead of the demo's subgraphs; both sides of a comparison share them. */
  ownSubgraphs?: OwnSubgraphs | null;
  /** The demo's subgraphs in Rust (their binary), for a native gateway's fan-out; null or absent: the Node ones. */
  nativeSubgraphs?: string | null;
  subgraphDelayMs: number;
  subgraphDelaysMs?: Record<string, number>;
  gatewayPort: number;
  profiler: ProfilerKind;
  onProgress: (line: string, final: boolean) => void;
}): Promise<TestBed> {
  const { resources, logs, runDir } = options;
  const registry = new ProcessRegistry();
  const profilerDir = mkdtempSync(path.join(os.tmpdir(), 'gwprof-'));
  // What adapters prepared (Mesh's build) serves every restart of their gateway; removed at the end.
  const launched = new Set<GatewayAdapter>();
  const close = async (): Promise<void> => {
    await registry.stopAll();
    for (const adapter of launched) adapter.dispose?.();
    rmSync(profilerDir, { recursive: true, force: true });
  };
  pinSelf(resources.cpuPlan.others);

  const ownSubgraphViews = (own: OwnSubgraphs): Promise<SubgraphViews> =>
    startScenarioSubgraphs({
      ...own,
      cpus: resources.cpuPlan.others,
      registry,
      logger: (name) => logs.forProcess(`subgraph-${name}`),
      candidate: options.candidateSubgraphPorts !== undefined,
    });
  let views: SubgraphViews;
  try {
    options.onProgress('starting subgraphs…', false);
    views = options.ownSubgraphs
      ? await ownSubgraphViews(options.ownSubgraphs)
      : await startSubgraphs({
          ports: options.subgraphPorts,
          candidatePorts: options.candidateSubgraphPorts ?? null,
          delayMs: options.subgraphDelayMs,
          ...(options.subgraphDelaysMs ? { delaysMs: options.subgraphDelaysMs } : {}),
          cpus: resources.cpuPlan.others,
          registry,
          logger: (name) => logs.forProcess(`subgraph-${name}`),
          nativeBinary: options.nativeSubgraphs ?? null,
        });
  } catch (error) {
    await close();
    throw error;
  }

  return {
    subgraphs: views.subgraphs,
    candidateSubgraphs: views.candidate,
    registry,
    close,
    async launchGateway({
      adapter,
      gatewayEnv,
      processName,
      port = options.gatewayPort,
      memoryCap = resources.memoryCap,
      cpuQuota = resources.cpuQuota,
      node,
      subgraphs = views.subgraphs,
      callgrind,
      profiled = true,
    }: LaunchOptions): Promise<LaunchedGateway> {
      options.onProgress(`starting gateway ${adapter.spec}…`, false);
      launched.add(adapter);
      const external = options.profiler === 'clinic' || options.profiler === '0x' ? profilerWrapper(options.profiler, runDir) : null;
      const gateway = await startGateway({
        adapter,
        port,
        // A scenario file's own subgraphs serve one form, and only cmd: gateways (no federation field) meet them.
        subgraphUrls: urlsForFederation(subgraphs.urls, adapter.federation),
        extraEnv: gatewayEnv,
        nodeOptions: [
          ...(options.profiler === 'inspector' ? [withProfilerPreload(undefined)] : []),
          ...(memoryCap?.nodeOptions ? [memoryCap.nodeOptions] : []),
        ],
        harnessEnv: options.profiler === 'inspector' ? { GWPROF_PROFILER_DIR: profilerDir } : (external?.env ?? {}),
        cpus: callgrind ? null : resources.cpuPlan.gateway,
        ...(callgrind ? { callgrind } : {}),
        memoryCap,
        cpuQuota,
        ...(external ? { wrapNodeScript: external.wrap } : {}),
        runDir,
        registry,
        logger: logs.forProcess(processName),
        processName,
        ...(node ? { node: { ...node, shimDir: path.join(profilerDir, 'node', processName) } } : {}),
      });
      let profiler: GatewayProfiler | null = null;
      let profilerUnavailable: string | null = null;
      // A native gateway has no V8 to profile: perf samples it instead (a cmd: binary unwound by DWARF, which
      // needs no frame pointers). Under callgrind the process is valgrind's, and the preload still answers.
      const stackWalk = adapter.stackWalk ?? (!callgrind && !isNodeProcess(gateway.serverPid) ? 'dwarf' : null);
      if (!profiled) {
        profilerUnavailable = 'not profiled';
      } else if (options.profiler === 'inspector' && stackWalk) {
        const native = perfProfilerOf(gateway.serverPid, stackWalk, path.join(profilerDir, `perf-${gateway.serverPid}.data`));
        profiler = native.profiler;
        profilerUnavailable = native.unavailable;
      } else if (options.profiler === 'inspector') {
        try {
          profiler = await ProfilerClient.connect(profilerDir, gateway.serverPid);
        } catch (error) {
          profilerUnavailable = (error as Error).message;
          logs.harness.warn({ err: profilerUnavailable }, 'CPU profiling unavailable');
          options.onProgress(`warning: CPU profiling unavailable: ${profilerUnavailable}`, true);
        }
      }
      // Under callgrind the process is valgrind's: the program it runs is on its command line.
      const build = adapter.build
        ? await adapter.build()
        : callgrind
          ? await callgrindClientBuild(gateway.serverPid, adapter.spec)
          : await processBuild(gateway.serverPid, adapter.spec);
      return { gateway, build, profiler, profilerUnavailable, external };
    },
  };
}
