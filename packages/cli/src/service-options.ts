/**
 * The flags sweep and compare share: the services around the gateway, the request timeout,
 * profiling interval and where runs go. Declared once so the two commands cannot drift apart.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { DEFAULTS } from '@gwprof/collect';
import { parseDuration, parsePort, parsePortList, parsePositiveNumber, parseSize } from './options.js';
import { subgraphPortsFrom } from './defaults.js';

export interface ServiceFlags {
  timeout: number;
  /** One delay for every subgraph, or per subgraph by name (the others none). */
  subgraphDelay: number | Record<string, number>;
  subgraphPorts: number[];
  gatewayPort: number;
  gatewayCpus?: number;
  gatewayMemory?: number;
  gatewayCpuQuota?: number;
  subgraphs: 'node' | 'native' | 'auto';
  /** Absent on commands that profile nothing (up, goldens). */
  samplingInterval?: number;
  heapSampling?: number;
  out: string;
  runId?: string;
  color: boolean;
}

/** `profiling: false` for commands that profile nothing (up, goldens, soak): no sampling flags to mislead. */
export function addServiceOptions(command: Command, { profiling = true } = {}): Command {
  command
    .option(
      '--timeout <time>',
      'a request without a response after this long counts as a timeout (10s, 1m; a bare number is seconds)',
      parseDuration('--timeout'),
      DEFAULTS.timeoutSec,
    )
    .option(
      '--subgraph-delay <time>',
      'fixed delay per subgraph request, to emulate the network (5ms, 0.1s; a bare number is milliseconds), or per subgraph: reviews=100ms,accounts=5ms (the others none)',
      parseSubgraphDelay,
      DEFAULTS.subgraphDelayMs,
    )
    .addOption(
      new Option(
        '--subgraphs <kind>',
        "the demo's subgraphs: node (graphql-js), native (Rust, async-graphql, built with cargo on first use) or auto (native in front of a built-in native gateway, whose fan-out the Node ones cannot serve)",
      )
        .choices(['node', 'native', 'auto'])
        .default('auto'),
    )
    .option('--subgraph-ports <list>', 'ports of accounts,reviews,products,inventory', parsePortList('--subgraph-ports'), Object.values(DEFAULTS.subgraphPorts))
    .option('--gateway-port <port>', 'port of the gateway', parsePort('--gateway-port'), DEFAULTS.gatewayPort)
    .option(
      '--gateway-cpus <n>',
      'cores reserved for the gateway (default: 1 on machines with ≥ 2 cores, the rest run subgraphs and load)',
      parsePositiveNumber('--gateway-cpus'),
    )
    .option(
      '--gateway-memory <size>',
      'memory cap of the gateway process, cgroup when possible (512MB, 1GB; a bare number is MB)',
      parseSize('--gateway-memory', 1e6, 'MB'),
    )
    .option(
      '--gateway-cpu-quota <cores>',
      "the gateway's CPU as a share of cores from a cgroup quota (0.5: half a core), when two cores cannot hold a native gateway and the harness that loads it; throughput is then per core-second (docs/native-gateways.md)",
      parsePositiveNumber('--gateway-cpu-quota'),
    );
  if (profiling) addProfilingOptions(command);
  return command
    .option('-o, --out <dir>', 'folder for run folders', DEFAULTS.outDir)
    .option('--run-id <id>', 'name of the run folder (default: timestamp and command)')
    .option('--no-color', 'no ANSI colours in the terminal output');
}

function addProfilingOptions(command: Command): void {
  command
    .option(
      '--sampling-interval <time>',
      'V8 CPU sampling interval (4ms, 500us; a bare number is microseconds): 1ms costs ~12% CPU per request on Mesh, 4ms ~2% (docs/validation/profiler-overhead.md)',
      parseDuration('--sampling-interval', 1e-6),
      DEFAULTS.samplingIntervalUs,
    )
    .option(
      '--heap-sampling <bytes>',
      'mean bytes between allocation samples in each profiled window; 0: no allocation profile (docs/allocations.md has the cost)',
      parsePositiveNumber('--heap-sampling', { allowZero: true }),
      DEFAULTS.heapSamplingBytes,
    );
}

/** The service flags as collect's options. */
export function serviceOptions(flags: ServiceFlags) {
  return {
    timeoutSec: flags.timeout,
    subgraphDelayMs: typeof flags.subgraphDelay === 'number' ? flags.subgraphDelay : 0,
    ...(typeof flags.subgraphDelay === 'number' ? {} : { subgraphDelaysMs: flags.subgraphDelay }),
    subgraphPorts: subgraphPortsFrom(flags.subgraphPorts),
    gatewayPort: flags.gatewayPort,
    ...(flags.gatewayCpus !== undefined ? { gatewayCpus: flags.gatewayCpus } : {}),
    ...(flags.gatewayMemory !== undefined ? { gatewayMemoryMB: flags.gatewayMemory } : {}),
    ...(flags.gatewayCpuQuota !== undefined ? { gatewayCpuQuota: flags.gatewayCpuQuota } : {}),
    subgraphs: flags.subgraphs,
    samplingIntervalUs: flags.samplingInterval ?? DEFAULTS.samplingIntervalUs,
    heapSamplingBytes: flags.heapSampling !== undefined && flags.heapSampling > 0 ? flags.heapSampling : null,
    outDir: flags.out,
    ...(flags.runId ? { runId: flags.runId } : {}),
    commandLine: process.argv.slice(2),
  };
}

/**
 * The flags of the services a run was given, as arguments for another command's run under the
 * same settings (a bisection's confirmation by compare); where runs go is the caller's to say.
 */
export function serviceArgs(flags: ServiceFlags): string[] {
  const given: Array<[string, string | number | undefined]> = [
    ['--timeout', flags.timeout],
    ['--subgraph-delay', subgraphDelayArg(flags.subgraphDelay)],
    ['--subgraphs', flags.subgraphs],
    ['--subgraph-ports', flags.subgraphPorts.join(',')],
    ['--gateway-port', flags.gatewayPort],
    ['--gateway-cpus', flags.gatewayCpus],
    ['--gateway-memory', flags.gatewayMemory],
    ['--gateway-cpu-quota', flags.gatewayCpuQuota],
    ['--sampling-interval', flags.samplingInterval],
    ['--heap-sampling', flags.heapSampling],
  ];
  return given.flatMap(([flag, value]) => (value === undefined ? [] : [flag, String(value)]));
}

const delayOf = parseDuration('--subgraph-delay', 0.001, { allowZero: true });

/** `5ms` for every subgraph, or `reviews=100ms,accounts=5ms` for those named (their names are checked once the subgraphs are known). */
export function parseSubgraphDelay(value: string): number | Record<string, number> {
  if (!value.includes('=')) return delayOf(value);
  return Object.fromEntries(
    value.split(',').map((entry) => {
      const [name, time, extra] = entry.split('=').map((part) => part.trim());
      if (!name || time === undefined || extra !== undefined) throw new InvalidArgumentError(`--subgraph-delay: "${entry}" is not name=time (reviews=100ms)`);
      return [name, delayOf(time)];
    }),
  );
}

function subgraphDelayArg(delay: number | Record<string, number>): string | number {
  return typeof delay === 'number'
    ? delay
    : Object.entries(delay)
        .map(([name, ms]) => `${name}=${ms}ms`)
        .join(',');
}
