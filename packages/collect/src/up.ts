/**
 * `gwprof up`: the test bed of a sweep (subgraphs and a gateway, isolated the same way) kept
 * running for the maintainer's own tools (wrk, k6, a browser) until stopped.
 */
import { gatewayFromSpec, installGateway } from './gateways/index.js';
import { openSession, type Session } from './run/session.js';
import type { ServiceOptions } from './services/test-bed.js';
import { SUBGRAPH_NAMES, type SubgraphName } from './gateways/types.js';
import { demoSubgraphsBinary } from './services/native-subgraphs.js';
import { urlsForFederation } from './services/subgraphs.js';

export interface UpOptions extends ServiceOptions {
  gateway: string;
  gatewayEnv: Record<string, string>;
  outDir: string;
  runId?: string;
  commandLine: string[];
  onProgress: (line: string, final: boolean) => void;
}

export interface TestBedUp {
  runDir: string;
  gateway: { url: string; pid: number; cpus: string | null };
  subgraphs: Record<SubgraphName, { url: string; pid: number | null }>;
  /** Stops every process started. */
  close(): Promise<void>;
}

export async function bringUp(options: UpOptions): Promise<TestBedUp> {
  await installGateway(options.gateway, options.onProgress);
  const adapter = gatewayFromSpec(options.gateway);
  const nativeSubgraphs = await demoSubgraphsBinary(options.subgraphs ?? 'auto', [adapter], options.onProgress);
  const session: Session = openSession({
    ...options,
    label: `up-${options.gateway}`,
    maxConcurrency: 1,
    gatewayPackages: adapter.packageVersions(),
    profiler: 'none',
    nativeSubgraphs,
  });
  try {
    const bed = await session.startBed();
    const { gateway } = await bed.launchGateway({ adapter, gatewayEnv: options.gatewayEnv, processName: 'gateway' });
    return {
      runDir: session.runDir,
      gateway: { url: gateway.url, pid: gateway.serverPid, cpus: session.resources.cpuPlan.gateway },
      // The addresses this gateway was given: a native one's are the subgraphs' Federation 2 form.
      subgraphs: Object.fromEntries(
        SUBGRAPH_NAMES.map((n) => [n, { url: urlsForFederation(bed.subgraphs.urls, adapter.federation)[n]!, pid: bed.subgraphs.pidOf(n) }]),
      ) as TestBedUp['subgraphs'],
      close: () => session.close(),
    };
  } catch (error) {
    await session.close();
    throw error;
  }
}
