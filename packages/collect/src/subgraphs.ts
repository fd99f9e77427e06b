/** The four federation subgraphs, one process each, on 127.0.0.1 and the harness's CPU set. */
import path from 'node:path';
import type { Logger } from 'pino';
import { pinnedCommand } from './isolation.js';
import { assertPortFree, waitForPort } from './ports.js';
import type { ManagedProcess, ProcessRegistry } from './processes.js';
import { subgraphsDir } from './paths.js';
import { SUBGRAPH_NAMES, type SubgraphName } from './gateways/types.js';
import { GwprofError } from '@gwprof/results';

export const DEFAULT_SUBGRAPH_PORTS: Record<SubgraphName, number> = { accounts: 4001, reviews: 4002, products: 4003, inventory: 4004 };

export interface RunningSubgraphs {
  urls: Record<SubgraphName, string>;
  processes: Record<SubgraphName, ManagedProcess>;
  pids(): number[];
  /** Requests each subgraph has served so far. */
  requestCounts(): Promise<Record<SubgraphName, number>>;
  stop(): Promise<void>;
}

export async function startSubgraphs(options: {
  ports: Record<SubgraphName, number>;
  delayMs: number;
  cpus: string | null;
  registry: ProcessRegistry;
  logger: (name: SubgraphName) => Logger;
}): Promise<RunningSubgraphs> {
  for (const name of SUBGRAPH_NAMES) await assertPortFree(options.ports[name], `subgraph ${name}`);
  const processes = {} as Record<SubgraphName, ManagedProcess>;
  const urls = {} as Record<SubgraphName, string>;
  for (const name of SUBGRAPH_NAMES) {
    const port = options.ports[name];
    const { command, args } = pinnedCommand(options.cpus, process.execPath, [path.join(subgraphsDir, name, 'dist', 'main.js')]);
    processes[name] = options.registry.spawn({
      name: `subgraph-${name}`,
      command,
      args,
      env: { ...process.env, PORT: String(port), SUBGRAPH_DELAY_MS: String(options.delayMs), NODE_OPTIONS: '' },
      logger: options.logger(name),
    });
    urls[name] = `http://127.0.0.1:${port}/graphql`;
  }
  const stop = async (): Promise<void> => {
    await Promise.all(Object.values(processes).map((p) => p.stop()));
  };
  try {
    await Promise.all(SUBGRAPH_NAMES.map((name) => waitForPort(options.ports[name], 30_000, () => processes[name].isRunning())));
  } catch (error) {
    const tails = SUBGRAPH_NAMES.filter((n) => !processes[n].isRunning()).map((n) => `${n}: ${processes[n].tail().slice(-3).join(' | ')}`);
    await stop();
    throw new GwprofError(`subgraphs failed to start: ${(error as Error).message}${tails.length ? ` (${tails.join('; ')})` : ''}`);
  }

  return {
    urls,
    processes,
    pids: () => Object.values(processes).map((p) => p.pid),
    async requestCounts() {
      const counts = {} as Record<SubgraphName, number>;
      await Promise.all(
        SUBGRAPH_NAMES.map(async (name) => {
          const response = await fetch(`http://127.0.0.1:${options.ports[name]}/__gwprof/stats`, { signal: AbortSignal.timeout(5000) });
          counts[name] = ((await response.json()) as { requests: number }).requests;
        }),
      );
      return counts;
    },
    stop,
  };
}
