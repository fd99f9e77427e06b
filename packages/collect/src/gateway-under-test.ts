/**
 * The gateway a sweep measures, however it got there: a process gwprof starts in its test bed
 * (mesh, hive, apollo, cmd:…), or a gateway already running that gwprof only sends load to
 * (url:…, with its subgraphs found by their ports and, with --gateway-pid, its process).
 */
import { GwprofError, type GatewayBuild } from '@gwprof/results';
import { processBuild } from './gateways/native-builds.js';
import type { GatewayAdapter } from './gateways/types.js';
import { stepGatewayOf, type RunningGateway } from './services/gateway-process.js';
import os from 'node:os';
import path from 'node:path';
import { InspectorProfiler, isNodeProcess } from './profiler/inspector-profiler.js';
import { perfProfilerOf } from './profiler/perf-profiler.js';
import type { GatewayProfiler } from './profiler/gateway-profiler.js';
import type { ExternalProfiler } from './profiler/external.js';
import { attachSubgraphs, type RunningSubgraphs } from './services/subgraphs.js';
import type { StepGateway } from './step/step-types.js';
import type { LaunchOptions, TestBed } from './services/test-bed.js';
import type { SubgraphName } from './gateways/types.js';

export interface GatewayUnderTest {
  step: StepGateway;
  subgraphs: RunningSubgraphs;
  profiler: GatewayProfiler | null;
  /** A native gateway's binary, for the record; null for Node or unknown. */
  build: GatewayBuild | null;
  /** Why there is no profiler although profiling was asked for. */
  profilerUnavailable: string | null;
  /** The process gwprof started; null for a gateway measured by URL. */
  process: RunningGateway | null;
  /** clinic or 0x around the process, when asked for. */
  external: ExternalProfiler | null;
}

export function isUrlSpec(spec: string): boolean {
  return spec.startsWith('url:');
}

/** The URL of a url: spec; load goes to loopback only. */
export function gatewayUrlOf(spec: string): string {
  const raw = spec.slice('url:'.length).trim();
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new GwprofError(`gateway spec url: needs a URL, e.g. url:http://127.0.0.1:4000/graphql (got "${raw}")`);
  }
  if (url.protocol !== 'http:') throw new GwprofError(`gateway URL ${raw}: only http:// is supported`);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
    throw new GwprofError(`gateway URL ${raw}: gwprof sends load to loopback only (127.0.0.1, localhost or [::1])`);
  }
  return url.href;
}

export async function launchGatewayUnderTest(
  bed: TestBed,
  adapter: GatewayAdapter,
  gatewayEnv: Record<string, string>,
  processName: string,
  placement: Pick<LaunchOptions, 'port' | 'memoryCap' | 'node' | 'subgraphs' | 'callgrind'> = {},
): Promise<GatewayUnderTest> {
  const launched = await bed.launchGateway({ adapter, gatewayEnv, processName, ...placement });
  return {
    step: stepGatewayOf(launched.gateway),
    subgraphs: placement.subgraphs ?? bed.subgraphs,
    profiler: launched.profiler,
    build: launched.build,
    profilerUnavailable: launched.profilerUnavailable,
    process: launched.gateway,
    external: launched.external,
  };
}

export async function attachGatewayUnderTest(options: {
  /** The spec's URL (gatewayUrlOf). */
  url: string;
  spec: string;
  pid: number | null;
  /** Subgraphs gwprof started for it; null: the demo's at subgraphPorts, started by someone else. */
  subgraphs: RunningSubgraphs | null;
  subgraphPorts: Record<SubgraphName, number>;
  profile: boolean;
}): Promise<GatewayUnderTest> {
  const step = attachedStepGateway(options.url, options.pid);
  const subgraphs = options.subgraphs ?? (await attachSubgraphs(options.subgraphPorts));
  let profiler: GatewayProfiler | null = null;
  let profilerUnavailable: string | null = null;
  if (options.profile) {
    if (options.pid === null) profilerUnavailable = 'a gateway measured by URL is profiled only with --gateway-pid naming its local process';
    else if (isNodeProcess(options.pid)) {
      try {
        profiler = await InspectorProfiler.attach(options.pid);
      } catch (error) {
        profilerUnavailable = (error as Error).message;
      }
    } else {
      // A native process: perf samples it, its stacks unwound by DWARF (no frame pointers needed).
      const native = perfProfilerOf(options.pid, 'dwarf', path.join(os.tmpdir(), `gwprof-perf-${options.pid}-${process.pid}.data`));
      profiler = native.profiler;
      profilerUnavailable = native.unavailable;
    }
  }
  const build = options.pid === null ? null : await processBuild(options.pid, options.spec);
  return { step, subgraphs, profiler, build, profilerUnavailable, process: null, external: null };
}

function attachedStepGateway(url: string, pid: number | null): StepGateway {
  const alive = (): boolean => {
    if (pid === null) return true;
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  return { url, pid, isRunning: alive, exitReason: () => (alive() ? null : `the gateway process ${pid} exited during the step`) };
}
