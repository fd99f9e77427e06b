/**
 * A scenario file's own subgraphs: those with a command are started from the file's folder (with
 * PORT set) on the harness's CPU set and stopped with the run; the others must already answer.
 * gwprof does not run their code, so it counts their requests only through its counting proxy
 * (`proxy: true`): the subgraph then gets an inner port and the proxy takes the file's URL. A
 * comparison's candidate gets proxies of its own on other ports, so that with both sides loaded at
 * once each side's fan-out counts its own calls, as with the demo's subgraphs.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { GwprofError } from '@gwprof/results';
import { pidListeningOn } from '../processes/listening-pid.js';
import { assertPortFree, freePort, waitForPort } from '../processes/ports.js';
import type { ManagedProcess, ProcessRegistry } from '../processes/processes.js';
import type { ScenarioSubgraph } from '../scenario/scenario-file.js';
import { countRequests, takeCalls, type RunningSubgraphs, type SubgraphViews } from './subgraphs.js';

const START_TIMEOUT_MS = 60_000;
const ANSWER_TIMEOUT_MS = 5_000;
const PROXY_MAIN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'counting-proxy-main.js');

interface StartOptions {
  subgraphs: ScenarioSubgraph[];
  dir: string;
  cpus: string | null;
  registry: ProcessRegistry;
  logger: (name: string) => Logger;
  /** A comparison: the candidate's view, with proxies of its own where the file asks for proxies. */
  candidate: boolean;
}

interface ProxyEntry {
  name: string;
  listen: number;
  target: number;
}

export async function startScenarioSubgraphs(options: StartOptions): Promise<SubgraphViews> {
  const started = options.subgraphs.filter((s) => s.command !== null);
  for (const subgraph of started) await assertPortFree(subgraph.port, `subgraph ${subgraph.name} of the scenario file`);
  // A proxied subgraph listens on an inner port; the proxy takes the port the gateway is given.
  const innerPorts = new Map<string, number>();
  for (const subgraph of started) if (subgraph.proxy) innerPorts.set(subgraph.name, await freePort());
  const processes = new Map<string, ManagedProcess>();
  for (const subgraph of started) processes.set(subgraph.name, spawnSubgraph(subgraph, innerPorts.get(subgraph.name) ?? subgraph.port, options));
  const stop = async (): Promise<void> => {
    await Promise.all([...processes.values()].map((p) => p.stop()));
  };
  const proxied = options.subgraphs.filter((s) => innerPorts.has(s.name));
  const baseline: ProxyEntry[] = proxied.map((s) => ({ name: s.name, listen: s.port, target: innerPorts.get(s.name)! }));
  const candidate: ProxyEntry[] = [];
  if (options.candidate) for (const entry of baseline) candidate.push({ ...entry, listen: await freePort() });
  try {
    await Promise.all(options.subgraphs.map((s) => answers(s, innerPorts.get(s.name) ?? s.port, processes.get(s.name) ?? null)));
    if (proxied.length > 0) processes.set('counting-proxy', await startProxies([...baseline, ...candidate], options));
  } catch (error) {
    await stop();
    throw error;
  }
  const everyPid = readdirSync('/proc').map(Number).filter(Number.isInteger);
  const pids = new Map(options.subgraphs.map((s) => [s.name, processes.get(s.name)?.pid ?? pidListeningOn(s.port, everyPid)]));
  // Fan-out is every subgraph's requests: with one of them uncounted, a count of the others would read low.
  const allCounted = options.subgraphs.every((s) => s.proxy);
  const view = (entries: ProxyEntry[]): RunningSubgraphs => {
    const portOf = (s: ScenarioSubgraph) => entries.find((e) => e.name === s.name)?.listen ?? s.port;
    const urlOf = (s: ScenarioSubgraph) => Object.assign(new URL(s.url), { port: String(portOf(s)) }).toString();
    return {
      urls: Object.fromEntries(options.subgraphs.map((s) => [s.name, urlOf(s)])),
      pidOf: (name) => pids.get(name) ?? null,
      requestCounts: allCounted ? countRequests(Object.fromEntries(options.subgraphs.map((s) => [s.name, portOf(s)]))) : null,
      // Only the proxied ones log calls; the others are reported unlogged.
      takeCalls: async (untraced) => {
        const proxiedPorts = Object.fromEntries(options.subgraphs.filter((s) => s.proxy).map((s) => [s.name, portOf(s)]));
        const pages = await takeCalls(proxiedPorts)(untraced);
        return Object.fromEntries(options.subgraphs.map((s) => [s.name, pages[s.name] ?? null]));
      },
      helperPids: (): Record<string, number> => {
        const proxy = processes.get('counting-proxy');
        return proxy ? { 'counting proxy': proxy.pid } : {};
      },
      stop,
    };
  };
  return { subgraphs: view(baseline), candidate: options.candidate ? view(candidate) : null };
}

function spawnSubgraph(subgraph: ScenarioSubgraph, port: number, options: StartOptions): ManagedProcess {
  return options.registry.spawn({
    name: `subgraph-${subgraph.name}`,
    command: 'sh',
    args: ['-c', `exec ${subgraph.command}`],
    cpus: options.cpus,
    cwd: options.dir,
    env: { ...process.env, PORT: String(port), NODE_OPTIONS: '' },
    logger: options.logger(subgraph.name),
  });
}

/** One process for every counting proxy, on the harness's cores like the subgraphs. */
async function startProxies(list: ProxyEntry[], options: StartOptions): Promise<ManagedProcess> {
  const proxy = options.registry.spawn({
    name: 'counting-proxy',
    command: process.execPath,
    args: [PROXY_MAIN],
    cpus: options.cpus,
    env: { ...process.env, PROXIES: JSON.stringify(list), NODE_OPTIONS: '' },
    logger: options.logger('counting-proxy'),
  });
  try {
    for (const entry of list) await waitForPort(entry.listen, START_TIMEOUT_MS, () => proxy.isRunning());
  } catch (error) {
    await proxy.stop();
    throw new GwprofError(`gwprof's counting proxy failed to start: ${(error as Error).message} (${proxy.tail().slice(-3).join(' | ')})`);
  }
  return proxy;
}

async function answers(subgraph: ScenarioSubgraph, port: number, started: ManagedProcess | null): Promise<void> {
  try {
    await waitForPort(port, started ? START_TIMEOUT_MS : ANSWER_TIMEOUT_MS, () => started?.isRunning() ?? true);
  } catch (error) {
    if (!started) {
      throw new GwprofError(`subgraph ${subgraph.name} does not answer at ${subgraph.url}: start it, or give its command in the scenario file`);
    }
    const tail = started.tail().slice(-3).join(' | ');
    throw new GwprofError(`subgraph ${subgraph.name} (${subgraph.command}) failed to start: ${(error as Error).message}${tail ? ` (${tail})` : ''}`);
  }
}
