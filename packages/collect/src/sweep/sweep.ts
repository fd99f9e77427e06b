/**
 * The sweep: start the subgraphs and the gateway, then measure one step per concurrency level
 * and append it to results.json at once, so an interrupted run keeps every finished step. It
 * measures and records; everything derived (buckets, flame graphs, capacity) is the publish
 * pass's work, from the files.
 */
import type { RunResult } from '@gwprof/results';
import { assertPortsFree } from '../processes/ports.js';
import { gatewayFromSpec } from '../gateways/index.js';
import type { RunningGateway } from '../services/gateway-process.js';
import { attachGatewayUnderTest, gatewayUrlOf, isUrlSpec, launchGatewayUnderTest, type GatewayUnderTest } from '../gateway-under-test.js';
import { measureFanoutAlone } from '../load/fanout-probe.js';
import { openRun } from '../run/run-opening.js';
import { startOtlpReceiver } from '../services/otlp-receiver.js';
import { OTLP_ENDPOINT_ENV } from '../gateways/types.js';
import { newSweepRecord } from './sweep-record.js';
import { probeRates, runSteps } from './sweep-steps.js';
import type { SweepOptions } from './sweep-options.js';

export type { SweepOptions } from './sweep-options.js';

export interface SweepOutcome {
  run: RunResult;
  runDir: string;
  /**
   * What stopped the sweep early, when it was not an interruption: results.json records its message
   * and keeps every finished step; the caller publishes them, then reports it (a bug with its stack).
   */
  failure: Error | null;
}

export async function runSweep(options: SweepOptions): Promise<SweepOutcome> {
  // Bad input first (the gateway spec, the scenario's files), then what the machine may refuse (ports).
  const attachedUrl = isUrlSpec(options.gateway) ? gatewayUrlOf(options.gateway) : null;
  const adapter = attachedUrl ? null : gatewayFromSpec(options.gateway, options.gatewayCwd);
  const opened = await openRun({
    options,
    scenario: options.scenario,
    specs: [options.gateway],
    install: adapter ? [options.gateway] : [],
    adapters: adapter ? () => [adapter] : null,
    // Before the run folder exists, so a busy port is one line and nothing else; a scenario file's own subgraphs check theirs as they start.
    check: async ({ ownSubgraphs }) => {
      if (!adapter) return;
      const subgraphs = Object.entries(ownSubgraphs ? {} : options.subgraphPorts).map(([name, port]) => [`subgraph ${name}`, port]);
      await assertPortsFree('gateway and subgraph ports', { [`gateway ${options.gateway}`]: options.gatewayPort, ...Object.fromEntries(subgraphs) });
    },
    session: () => ({
      label: options.gateway.replace(/^url:.*/, 'url'),
      maxConcurrency: Math.max(...options.levels.map((l) => (l.kind === 'closed' ? l.concurrency : l.maxInFlight))),
      attached: attachedUrl !== null,
      profiler: options.profiler,
      gatewayPackages: adapter?.packageVersions() ?? {},
    }),
    newRecord: (setup) => newSweepRecord(options, setup),
  });
  const { session, journal, scenario, ownSubgraphs } = opened;
  const run = journal.record;
  session.logs.harness.info({ runDir: session.runDir, config: run.config }, 'sweep starting');

  const otlp = adapter && options.trace && options.gatewaySpans ? await startOtlpReceiver() : null;
  const gatewayEnv = otlp ? { ...options.gatewayEnv, [OTLP_ENDPOINT_ENV]: otlp.endpoint } : options.gatewayEnv;
  const failure = await opened.live({ label: 'sweep', release: async () => otlp?.close() }, async () => {
    const target = adapter
      ? await launchGatewayUnderTest(await session.startBed(), adapter, gatewayEnv, 'gateway')
      : await attachGatewayUnderTest({
          url: attachedUrl!,
          spec: options.gateway,
          pid: options.gatewayPid ?? null,
          // A scenario file's subgraphs are started (or found) by gwprof even for a gateway it does not start.
          subgraphs: ownSubgraphs ? (await session.startBed()).subgraphs : null,
          subgraphPorts: options.subgraphPorts,
          profile: options.profiler !== 'none',
        });
    if (options.signal.aborted) throw new Error('interrupted');
    if (target.build) run.environment.gatewayBuilds = { [options.gateway]: target.build };
    options.onProgress('measuring fan-out with one request at a time…', false);
    run.fanoutAlone = await measureFanoutAlone(target.step.url, scenario, target.subgraphs, options.timeoutSec * 1000);
    journal.save();
    const levels = options.autoRate ? await probeRates(options, scenario, target, session, journal, options.autoRate) : options.levels;
    await runSteps(options, levels, scenario, target, session, journal, otlp);
    target.profiler?.close();
    await collectExternalReport(options, target, run);
  });
  return { run, runDir: session.runDir, failure };
}

/** clinic and 0x write their report once the gateway has stopped. */
async function collectExternalReport(options: SweepOptions, target: GatewayUnderTest, run: RunResult): Promise<void> {
  if (!target.external || !target.process || options.signal.aborted) return;
  options.onProgress(`stopping the gateway so ${options.profiler} writes its report…`, true);
  await stopProfiledGateway(target.process);
  const artifact = target.external.artifact();
  if (artifact) run.artifacts[options.profiler] = artifact;
}

/**
 * clinic and 0x write their report once the profiled process has exited: ask the wrapper with
 * SIGINT (as Ctrl-C would), and if the gateway ignores the SIGINT it forwards (legacy Mesh does),
 * stop the gateway itself so the wrapper can go on to write its HTML.
 */
async function stopProfiledGateway(gateway: RunningGateway): Promise<void> {
  const leaderExit = gateway.process.stopLeader('SIGINT', 180_000);
  const stillThere = async (ms: number): Promise<boolean> => {
    await new Promise((r) => setTimeout(r, ms));
    try {
      process.kill(gateway.serverPid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (gateway.serverPid !== gateway.process.pid && (await stillThere(5000))) {
    process.kill(gateway.serverPid, 'SIGTERM');
    if (await stillThere(10_000)) process.kill(gateway.serverPid, 'SIGKILL');
  }
  await leaderExit;
}
