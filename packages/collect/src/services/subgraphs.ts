/** The four federation subgraphs, one process each, on 127.0.0.1 and the harness's CPU set. */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pidListeningOn } from '../processes/listening-pid.js';
import type { Logger } from 'pino';
import { assertPortFree, waitForPort } from '../processes/ports.js';
import type { ManagedProcess, ProcessRegistry } from '../processes/processes.js';
import { subgraphsDir } from '../paths.js';
import { SUBGRAPH_NAMES, type SubgraphName } from '../gateways/types.js';
import { GwprofError } from '@gwprof/results';
import type { CallLogPage } from '@gwprof/subgraph-server';

export const DEFAULT_SUBGRAPH_PORTS: Record<SubgraphName, number> = { accounts: 4001, reviews: 4002, products: 4003, inventory: 4004 };

export interface RunningSubgraphs {
  /** Name → the URL the gateway reaches it at. */
  urls: Record<string, string>;
  /** The process serving a subgraph; null when it is not ours and could not be found. */
  pidOf(name: string): number | null;
  /**
   * Requests each subgraph has served so far; null when gwprof cannot count them (a scenario
   * file's own subgraphs: not gwprof's code, and not proxied).
   */
  requestCounts: (() => Promise<Record<string, number>>) | null;
  /**
   * The calls of traced requests each subgraph logged since the last take (call-log.ts), emptying
   * the logs; a subgraph that keeps no log is null. Absent where none can be read. `untraced`: from
   * now on, also log (true) or stop logging (false) calls that carry no traceparent.
   */
  takeCalls?: (untraced?: boolean) => Promise<Record<string, CallLogPage | null>>;
  /** Harness processes that serve them beside the subgraphs themselves (gwprof's counting proxy), by name. */
  helperPids?: () => Record<string, number>;
  stop(): Promise<void>;
}

/** Requests served so far on these ports, from each subgraph's (or counting proxy's) /__gwprof/stats there. */
export function countRequests(ports: Record<string, number>): () => Promise<Record<string, number>> {
  return async () => {
    const counts: Record<string, number> = {};
    await Promise.all(
      Object.keys(ports).map(async (name) => {
        const response = await fetch(`http://127.0.0.1:${ports[name]}/__gwprof/stats`, { signal: AbortSignal.timeout(5000) });
        counts[name] = ((await response.json()) as { requests: number }).requests;
      }),
    );
    return counts;
  };
}

/** Each subgraph's (or counting proxy's) traced calls since the last take, from /__gwprof/calls; null where it keeps no log (the native subgraphs). */
export function takeCalls(ports: Record<string, number>): (untraced?: boolean) => Promise<Record<string, CallLogPage | null>> {
  return async (untraced) => {
    const query = untraced === undefined ? '' : `?untraced=${untraced ? 1 : 0}`;
    const pages: Record<string, CallLogPage | null> = {};
    await Promise.all(
      Object.keys(ports).map(async (name) => {
        const response = await fetch(`http://127.0.0.1:${ports[name]}/__gwprof/calls${query}`, { signal: AbortSignal.timeout(5000) });
        const page = response.ok ? ((await response.json().catch(() => null)) as CallLogPage | null) : null;
        pages[name] = page && Array.isArray(page.calls) ? page : null;
      }),
    );
    return pages;
  };
}

/**
 * gwprof subgraphs somebody else started (`gwprof up`, for a gateway measured by URL): their
 * request counts over HTTP and, when a local process listens on their port, their pid. When none
 * answers, fan-out is simply unknown: each step says so.
 */
export async function attachSubgraphs(ports: Record<SubgraphName, number>): Promise<RunningSubgraphs> {
  const requestCounts = countRequests(ports);
  const calls = takeCalls(ports);
  const everyPid = readdirSync('/proc').map(Number).filter(Number.isInteger);
  const pids = Object.fromEntries(SUBGRAPH_NAMES.map((name) => [name, pidListeningOn(ports[name], everyPid)])) as Record<SubgraphName, number | null>;
  return { urls: urlsOf(ports), pidOf: (name) => pids[name as SubgraphName] ?? null, requestCounts, takeCalls: calls, stop: async () => undefined };
}

/** The subgraphs as each gateway sees them: the run's addresses, and a comparison's candidate's own (null otherwise). */
export interface SubgraphViews {
  subgraphs: RunningSubgraphs;
  candidate: RunningSubgraphs | null;
}

/**
 * Starts the four subgraphs. With `candidatePorts`, each also listens there and counts those
 * requests apart: a comparison's candidate gets these addresses, so that with both sides loaded at
 * once each side's fan-out counts its own subgraph requests only.
 */
export async function startSubgraphs(options: {
  ports: Record<SubgraphName, number>;
  candidatePorts?: Record<SubgraphName, number> | null;
  delayMs: number;
  /** Per subgraph by name, instead of delayMs (the others none). */
  delaysMs?: Record<string, number>;
  cpus: string | null;
  registry: ProcessRegistry;
  logger: (name: SubgraphName) => Logger;
  /** The native subgraphs' binary (native-subgraphs.ts), or null for the Node ones. */
  nativeBinary?: string | null;
}): Promise<SubgraphViews> {
  const unknown = Object.keys(options.delaysMs ?? {}).filter((name) => !(SUBGRAPH_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0) throw new GwprofError(`--subgraph-delay: no subgraph ${unknown.join(', ')} (the demo's are ${SUBGRAPH_NAMES.join(', ')})`);
  const delayOf = (name: SubgraphName): number => (options.delaysMs ? (options.delaysMs[name] ?? 0) : options.delayMs);
  const portsOf = (name: SubgraphName): number[] => [options.ports[name], ...(options.candidatePorts ? [options.candidatePorts[name]] : [])];
  for (const name of SUBGRAPH_NAMES) for (const port of portsOf(name)) await assertPortFree(port, `subgraph ${name}`);
  const processes = {} as Record<SubgraphName, ManagedProcess>;
  for (const name of SUBGRAPH_NAMES) {
    processes[name] = options.registry.spawn({
      name: `subgraph-${name}`,
      // The same contract either way: PORT (a list, each counted apart) and SUBGRAPH_DELAY_MS.
      command: options.nativeBinary ?? process.execPath,
      args: options.nativeBinary ? [name] : [path.join(subgraphsDir, name, 'dist', 'main.js')],
      cpus: options.cpus,
      env: { ...process.env, PORT: portsOf(name).join(','), SUBGRAPH_DELAY_MS: String(delayOf(name)), NODE_OPTIONS: '' },
      logger: options.logger(name),
    });
  }
  const stop = async (): Promise<void> => {
    await Promise.all(Object.values(processes).map((p) => p.stop()));
  };
  try {
    await Promise.all(SUBGRAPH_NAMES.flatMap((name) => portsOf(name).map((port) => waitForPort(port, 30_000, () => processes[name].isRunning()))));
  } catch (error) {
    const tails = SUBGRAPH_NAMES.filter((n) => !processes[n].isRunning()).map((n) => `${n}: ${processes[n].tail().slice(-3).join(' | ')}`);
    await stop();
    throw new GwprofError(`subgraphs failed to start: ${(error as Error).message}${tails.length ? ` (${tails.join('; ')})` : ''}`);
  }
  const view = (ports: Record<SubgraphName, number>): RunningSubgraphs => ({
    urls: urlsOf(ports),
    pidOf: (name) => processes[name as SubgraphName]?.pid ?? null,
    requestCounts: countRequests(ports),
    takeCalls: takeCalls(ports),
    stop,
  });
  return { subgraphs: view(options.ports), candidate: options.candidatePorts ? view(options.candidatePorts) : null };
}

function urlsOf(ports: Record<SubgraphName, number>): Record<SubgraphName, string> {
  return Object.fromEntries(SUBGRAPH_NAMES.map((name) => [name, `http://127.0.0.1:${ports[name]}/graphql`])) as Record<SubgraphName, string>;
}

/** The demo subgraphs serve their Federation 2 form at this path (packages/subgraph-server); /graphql serves the first form. */
export const FED2_PATH = '/fed2/graphql';

/** The demo subgraphs' addresses in the form a gateway composes: Federation 2 for the native routers, as they are otherwise. */
export function urlsForFederation(urls: Record<string, string>, federation: 1 | 2 | undefined): Record<string, string> {
  if (federation !== 2) return urls;
  return Object.fromEntries(Object.entries(urls).map(([name, url]) => [name, Object.assign(new URL(url), { pathname: FED2_PATH }).toString()]));
}
