/**
 * The sweep: start the subgraphs and the gateway, then measure one step per concurrency level
 * and append it to results.json at once, so an interrupted run keeps every finished step. It
 * measures and records; everything derived (buckets, flame graphs, capacity) is the publish
 * pass's work, from the files.
 */
import { GwprofError, loadLabel, type LoadShape, type RunConfig, type RunResult, type Slo } from '@gwprof/results';
import type { Scenario } from '../scenario/scenario.js';
import type { ScenarioSource } from '../run/scenario-source.js';
import { assertPortFree } from '../processes/ports.js';
import { gatewayFromSpec } from '../gateways/index.js';
import { measureStep, type StepSettings } from '../step/measure-step.js';
import type { Session } from '../run/session.js';
import type { ProfilerKind, ServiceOptions } from '../services/test-bed.js';
import type { RunningGateway } from '../services/gateway-process.js';
import { attachGatewayUnderTest, gatewayUrlOf, isUrlSpec, launchGatewayUnderTest, type GatewayUnderTest } from '../gateway-under-test.js';
import { DEFAULTS } from '../defaults.js';
import { recordHeader, servicesRecord } from '../run/record-header.js';
import { measureFanoutAlone } from '../load/fanout-probe.js';
import { requestBodies } from '../load/request-stream.js';
import { openRun, type RunSetup } from '../run/run-opening.js';
import type { RecordJournal } from '../run/record-journal.js';
import { type OtlpReceiver, startOtlpReceiver } from '../services/otlp-receiver.js';
import { OTLP_ENDPOINT_ENV } from '../gateways/types.js';

export interface SweepOptions extends StepSettings, ServiceOptions {
  gateway: string;
  /** For a url: gateway: its local process, to measure its CPU and memory and to profile it. */
  gatewayPid?: number;
  gatewayEnv: Record<string, string>;
  /** With `trace`: receive the gateway's own OTLP spans (the built-in gateways that export them are told to). */
  gatewaySpans?: boolean;
  /** Where a cmd: gateway runs: the user's folder unless given (a scenario file's own gateway runs from the file's folder). */
  gatewayCwd?: string;
  /** The steps' loads, in order: closed-loop connections or open-loop rates. */
  levels: LoadShape[];
  /**
   * `--rate auto`: ignore `levels`; find the closed-loop peak with a short probe, then step open-loop
   * rates from about 10% to 120% of it, finer near the knee.
   */
  autoRate?: { arrivals: 'poisson' | 'uniform'; maxInFlight: number };
  slo: Slo | null;
  /** The --scenario it came from, for the record. */
  scenarioName: string;
  scenario: ScenarioSource;
  profiler: ProfilerKind;
  outDir: string;
  runId?: string;
  quick: boolean;
  commandLine: string[];
}

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
    check: async ({ ownSubgraphs }) => {
      if (adapter) await checkPorts(options, ownSubgraphs !== null);
    },
    session: () => ({
      label: options.gateway.replace(/^url:.*/, 'url'),
      maxConcurrency: Math.max(...options.levels.map((l) => (l.kind === 'closed' ? l.concurrency : l.maxInFlight))),
      attached: attachedUrl !== null,
      profiler: options.profiler,
      gatewayPackages: adapter?.packageVersions() ?? {},
    }),
    newRecord: (setup) => newRun(options, setup),
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
    run.fanoutAlone = await fanoutAlone(target, scenario, options);
    journal.save();
    const levels = options.autoRate ? await probeRates(options, scenario, target, session, journal, options.autoRate) : options.levels;
    await runSteps(options, levels, scenario, target, session, journal, otlp);
    target.profiler?.close();
    await collectExternalReport(options, target, run);
  });
  return { run, runDir: session.runDir, failure };
}

/** One step per level, each written to results.json as soon as it is measured. */
async function runSteps(
  options: SweepOptions,
  levels: readonly LoadShape[],
  scenario: Scenario,
  target: GatewayUnderTest,
  session: Session,
  journal: RecordJournal<RunResult>,
  otlp: OtlpReceiver | null,
): Promise<void> {
  for (const load of levels) {
    if (options.signal.aborted) return;
    const label = loadLabel(load);
    assertRunning(target, `before the step at ${label}`);
    const step = await measureStep({
      id: load.kind === 'closed' ? String(load.concurrency) : `r${load.targetRps}`,
      load,
      settings: options,
      scenario,
      gateway: target.step,
      subgraphs: target.subgraphs,
      otlp,
      profiler: target.profiler,
      profilerUnavailable: target.profilerUnavailable,
      runDir: session.runDir,
      logs: session.logs,
    });
    if (!step) return;
    journal.record.steps.push(step);
    journal.save();
    session.logs.harness.info({ step: { ...step, series: undefined } }, `step ${label} ${step.status}`);
    options.onProgress(`${label} ${step.status === 'failed' ? 'FAILED' : step.status} · ${step.rps} ok req/s · ${step.requests.failed} failed`, true);
    assertRunning(target, `during the step at ${label}`);
  }
}

async function fanoutAlone(target: GatewayUnderTest, scenario: Scenario, options: SweepOptions): Promise<RunResult['fanoutAlone']> {
  options.onProgress('measuring fan-out with one request at a time…', false);
  const variants = scenario.requests.length;
  return measureFanoutAlone(target.step.url, requestBodies(scenario), target.subgraphs, Math.min(20, Math.max(5, variants)), options.timeoutSec * 1000);
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
 * What a flag parser cannot check: ports that must differ, and are free. Before the run folder
 * exists, so a busy port is one line and nothing else (the services check again as they start).
 */
/** The scenario file's own subgraphs check their ports when they start. */
async function checkPorts(options: SweepOptions, ownSubgraphs: boolean): Promise<void> {
  const subgraphPorts: Record<string, number> = ownSubgraphs ? {} : options.subgraphPorts;
  const ports = [options.gatewayPort, ...Object.values(subgraphPorts)];
  if (new Set(ports).size !== ports.length) throw new GwprofError(`gateway and subgraph ports must all differ (got ${ports.join(', ')})`);
  await assertPortFree(options.gatewayPort, `gateway ${options.gateway}`);
  for (const [name, port] of Object.entries(subgraphPorts)) await assertPortFree(port, `subgraph ${name}`);
}

function assertRunning(target: GatewayUnderTest, when: string): void {
  if (target.step.isRunning()) return;
  const tail = target.process?.process.tail().slice(-5).join(' | ');
  throw new Error(`gateway exited ${when}${tail ? `; last log lines: ${tail}` : ''}`);
}

function newRun(options: SweepOptions, { session, ...setup }: RunSetup): RunResult {
  const config = runConfig(options, setup);
  return {
    ...recordHeader('sweep', session.runId),
    config,
    environment: session.environment,
    fanoutAlone: null,
    probe: null,
    steps: [],
    artifacts: { logs: 'logs/' },
    analysis: null,
  };
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

function runConfig(options: SweepOptions, { recorded, nativeSubgraphs }: Omit<RunSetup, 'session'>): RunConfig {
  return {
    gateway: options.gateway,
    gatewayEnv: options.gatewayEnv,
    scenario: options.scenarioName,
    concurrency: options.levels.flatMap((l) => (l.kind === 'closed' ? [l.concurrency] : [])),
    rates: options.levels.flatMap((l) => (l.kind === 'open' ? [l.targetRps] : [])),
    arrivals: options.autoRate?.arrivals ?? options.levels.find((l) => l.kind === 'open')?.arrivals ?? null,
    autoRate: options.autoRate !== undefined,
    slo: options.slo,
    durationSec: options.durationSec,
    maxDurationSec: options.maxDurationSec,
    warmupSec: options.warmupSec,
    windowMinimums: DEFAULTS.windowMinimums,
    ...recorded,
    ...servicesRecord(options, nativeSubgraphs),
    minSuccess: options.minSuccess,
    profile: options.profiler !== 'none',
    profiler: options.profiler,
    samplingIntervalUs: options.samplingIntervalUs,
    heapSamplingBytes: options.profiler === 'inspector' ? options.heapSamplingBytes : null,
    allocationAttribution: options.profiler === 'inspector' && options.heapSamplingBytes ? (options.allocationAttribution ?? null) : null,
    quick: options.quick,
    engine: options.engine?.kind ?? 'gwprof',
  };
}

/** Connections of the probe that finds a gateway's closed-loop peak for `--rate auto`. */
const PROBE_CONCURRENCY = [8, 32, 128];
/** The rates of `--rate auto` as fractions of that peak: sparse at light load, finer near the knee. */
const RATE_FRACTIONS = [0.1, 0.3, 0.5, 0.65, 0.75, 0.85, 0.95, 1.05, 1.2];

/** Short closed-loop steps find the peak; the sweep's rates are fractions of it. */
async function probeRates(
  options: SweepOptions,
  scenario: Scenario,
  target: GatewayUnderTest,
  session: Session,
  journal: RecordJournal<RunResult>,
  auto: { arrivals: 'poisson' | 'uniform'; maxInFlight: number },
): Promise<LoadShape[]> {
  const steps = [];
  const probe = DEFAULTS.peakProbe;
  const probeSettings = {
    ...options,
    durationSec: Math.min(options.durationSec, probe.durationSec),
    maxDurationSec: Math.min(options.maxDurationSec, probe.maxDurationSec),
    warmupSec: Math.min(options.warmupSec, probe.warmupSec),
  };
  for (const concurrency of PROBE_CONCURRENCY) {
    if (options.signal.aborted) break;
    const step = await measureStep({
      id: `probe-c${concurrency}`,
      load: { kind: 'closed', concurrency },
      settings: probeSettings,
      scenario,
      gateway: target.step,
      subgraphs: target.subgraphs,
      profiler: null,
      runDir: session.runDir,
      logs: session.logs,
      label: 'peak probe',
    });
    if (!step) break;
    steps.push(step);
  }
  const peakRps = Math.max(0, ...steps.filter((s) => s.status !== 'failed').map((s) => s.rps));
  journal.record.probe = { steps, peakRps };
  journal.save();
  if (!(peakRps > 0)) throw new Error('the peak probe got no successful response: no rate to step through');
  const rates = [...new Set(RATE_FRACTIONS.map((fraction) => Math.max(1, Math.round(fraction * peakRps))))];
  options.onProgress(`closed-loop peak ≈ ${peakRps} ok req/s: stepping ${rates.join(', ')} req/s`, true);
  return rates.map((targetRps) => ({ kind: 'open', targetRps, arrivals: auto.arrivals, maxInFlight: auto.maxInFlight }));
}
