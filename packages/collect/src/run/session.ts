/**
 * What sweep and compare share around their measurements: everything checked before any process
 * starts (open files, CPU sets, memory cap), the run folder and logs, the environment record, the
 * test bed (subgraphs, gateway launcher) and its teardown.
 */
import { openRunFolder, makeRunId, type RunFolder } from './run-folder.js';
import { startTestBed, type OwnSubgraphs, type ProfilerKind, type ServiceOptions, type TestBed } from '../services/test-bed.js';
import { planResources, type ResourcePlan } from '../services/resource-plan.js';
import { describeEnvironment } from './environment.js';
import type { RunEnvironment } from '@gwprof/results';

/** What every kind of run (sweep, comparison, soak) is asked with: where it goes, who asked, how it is stopped and reports. */
export interface RunRequest {
  outDir: string;
  runId?: string;
  commandLine: string[];
  signal: AbortSignal;
  onProgress: (line: string, final: boolean) => void;
}

export interface SessionOptions extends ServiceOptions {
  outDir: string;
  /** Default: a timestamp and `label`. */
  runId?: string;
  label: string;
  maxConcurrency: number;
  /** A gateway already running (measured by URL): nothing to pin, cap or start but the load. */
  attached?: boolean;
  gatewayPackages: Record<string, string>;
  profiler: ProfilerKind;
  /** A scenario file's subgraphs, instead of the demo's. */
  ownSubgraphs?: OwnSubgraphs | null;
  /** The native demo subgraphs' binary, or null for the Node ones. */
  nativeSubgraphs?: string | null;
  commandLine: string[];
  onProgress: (line: string, final: boolean) => void;
}

export interface Session extends RunFolder {
  resources: ResourcePlan;
  environment: RunEnvironment;
  /** Starts the subgraphs; the bed launches gateways. */
  startBed(): Promise<TestBed>;
  /** Stops every process started and releases the memory cap; safe to call more than once. */
  close(): Promise<void>;
}

export function openSession(options: SessionOptions): Session {
  const resources = planResources({
    maxConcurrency: options.maxConcurrency,
    ...(options.gatewayCpus !== undefined ? { gatewayCpus: options.gatewayCpus } : {}),
    ...(options.gatewayMemoryMB !== undefined ? { gatewayMemoryMB: options.gatewayMemoryMB } : {}),
    ...(options.gatewayCpuQuota !== undefined ? { gatewayCpuQuota: options.gatewayCpuQuota } : {}),
    ...(options.attached ? { attached: true } : {}),
  });
  const folder = openRunFolder(options.outDir, options.runId ?? makeRunId(options.label));
  const environment = describeEnvironment({
    cpuPlan: resources.cpuPlan,
    memoryLimitMB: resources.memoryLimitMB,
    memoryLimitMethod: resources.memoryCap?.method ?? null,
    cpuQuota: resources.cpuQuota ? { cores: resources.cpuQuota.cores, method: resources.cpuQuota.method } : null,
    fdLimit: resources.fdLimit,
    gatewayPackages: options.gatewayPackages,
    commandLine: options.commandLine,
  });
  let bed: TestBed | null = null;
  let closed = false;
  return {
    ...folder,
    resources,
    environment,
    async startBed() {
      bed = await startTestBed({
        resources,
        runDir: folder.runDir,
        logs: folder.logs,
        subgraphPorts: options.subgraphPorts,
        ...(options.candidateSubgraphPorts ? { candidateSubgraphPorts: options.candidateSubgraphPorts } : {}),
        ownSubgraphs: options.ownSubgraphs ?? null,
        nativeSubgraphs: options.nativeSubgraphs ?? null,
        subgraphDelayMs: options.subgraphDelayMs,
        ...(options.subgraphDelaysMs ? { subgraphDelaysMs: options.subgraphDelaysMs } : {}),
        gatewayPort: options.gatewayPort,
        profiler: options.profiler,
        onProgress: options.onProgress,
      });
      return bed;
    },
    async close() {
      if (closed) return;
      closed = true;
      await bed?.close();
      resources.memoryCap?.release();
      resources.cpuQuota?.release();
      folder.logs.flush();
    },
  };
}
