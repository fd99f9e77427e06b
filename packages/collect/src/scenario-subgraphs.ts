/**
 * A scenario file's own subgraphs: those with a command are started from the file's folder (with
 * PORT set) on the harness's CPU set and stopped with the run; the others must already answer.
 * Their requests are not counted: gwprof neither runs their code nor proxies them.
 */
import { readdirSync } from 'node:fs';
import type { Logger } from 'pino';
import { GwprofError } from '@gwprof/results';
import { pinnedCommand } from './isolation.js';
import { pidListeningOn } from './listening-pid.js';
import { assertPortFree, waitForPort } from './ports.js';
import type { ManagedProcess, ProcessRegistry } from './processes.js';
import type { ScenarioSubgraph } from './scenario-file.js';
import type { RunningSubgraphs } from './subgraphs.js';

const START_TIMEOUT_MS = 60_000;
const ANSWER_TIMEOUT_MS = 5_000;

export async function startScenarioSubgraphs(options: {
  subgraphs: ScenarioSubgraph[];
  dir: string;
  cpus: string | null;
  registry: ProcessRegistry;
  logger: (name: string) => Logger;
}): Promise<RunningSubgraphs> {
  const started = options.subgraphs.filter((s) => s.command !== null);
  for (const subgraph of started) await assertPortFree(subgraph.port, `subgraph ${subgraph.name} of the scenario file`);
  const processes = new Map<string, ManagedProcess>();
  for (const subgraph of started) {
    const { command, args } = pinnedCommand(options.cpus, 'sh', ['-c', `exec ${subgraph.command}`]);
    processes.set(
      subgraph.name,
      options.registry.spawn({
        name: `subgraph-${subgraph.name}`,
        command,
        args,
        cwd: options.dir,
        env: { ...process.env, PORT: String(subgraph.port), NODE_OPTIONS: '' },
        logger: options.logger(subgraph.name),
      }),
    );
  }
  const stop = async (): Promise<void> => {
    await Promise.all([...processes.values()].map((p) => p.stop()));
  };
  try {
    await Promise.all(options.subgraphs.map((s) => answers(s, processes.get(s.name) ?? null)));
  } catch (error) {
    await stop();
    throw error;
  }
  const everyPid = readdirSync('/proc').map(Number).filter(Number.isInteger);
  const pids = new Map(options.subgraphs.map((s) => [s.name, processes.get(s.name)?.pid ?? pidListeningOn(s.port, everyPid)]));
  return {
    urls: Object.fromEntries(options.subgraphs.map((s) => [s.name, s.url])),
    pidOf: (name) => pids.get(name) ?? null,
    requestCounts: null,
    stop,
  };
}

async function answers(subgraph: ScenarioSubgraph, started: ManagedProcess | null): Promise<void> {
  try {
    await waitForPort(subgraph.port, started ? START_TIMEOUT_MS : ANSWER_TIMEOUT_MS, () => started?.isRunning() ?? true);
  } catch (error) {
    if (!started) {
      throw new GwprofError(`subgraph ${subgraph.name} does not answer at ${subgraph.url}: start it, or give its command in the scenario file`);
    }
    const tail = started.tail().slice(-3).join(' | ');
    throw new GwprofError(`subgraph ${subgraph.name} (${subgraph.command}) failed to start: ${(error as Error).message}${tail ? ` (${tail})` : ''}`);
  }
}
