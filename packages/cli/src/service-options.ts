/**
 * The flags sweep and compare share: the services around the gateway, the request timeout,
 * profiling interval and where runs go. Declared once so the two commands cannot drift apart.
 */
import type { Command } from 'commander';
import { DEFAULT_SUBGRAPH_PORTS, defaultProfilesDir } from '@gwprof/collect';
import { parseIntegerList, parsePort, parsePositiveNumber } from './options.js';

export interface ServiceFlags {
  timeout: number;
  subgraphDelay: number;
  subgraphPorts: number[];
  gatewayPort: number;
  gatewayCpus?: number;
  gatewayMemory?: number;
  samplingInterval: number;
  out: string;
  runId?: string;
  color: boolean;
}

export function addServiceOptions(command: Command): Command {
  return command
    .option('--timeout <seconds>', 'a request without a response after this long counts as a timeout', parsePositiveNumber('--timeout'), 10)
    .option('--subgraph-delay <ms>', 'fixed delay per subgraph request, to emulate the network', parsePositiveNumber('--subgraph-delay', { allowZero: true }), 0)
    .option('--subgraph-ports <list>', 'ports of accounts,reviews,products,inventory', parseIntegerList('--subgraph-ports'), Object.values(DEFAULT_SUBGRAPH_PORTS))
    .option('--gateway-port <port>', 'port of the gateway', parsePort('--gateway-port'), 4000)
    .option('--gateway-cpus <n>', 'cores reserved for the gateway (default: 1 on machines with ≥ 2 cores, the rest run subgraphs and load)', parsePositiveNumber('--gateway-cpus'))
    .option('--gateway-memory <MB>', 'memory cap of the gateway process (cgroup when possible)', parsePositiveNumber('--gateway-memory'))
    .option('--sampling-interval <µs>', 'V8 CPU sampling interval in microseconds (1000 costs ~12% CPU on Mesh here, 4000 ~2%: see README)', parsePositiveNumber('--sampling-interval'), 4000)
    .option('-o, --out <dir>', 'folder for run folders', defaultProfilesDir)
    .option('--run-id <id>', 'name of the run folder (default: timestamp and command)')
    .option('--no-color', 'no ANSI colours in the terminal output');
}
