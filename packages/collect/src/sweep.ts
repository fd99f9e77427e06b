/**
 * The sweep: start the subgraphs and the gateway, then measure one step per concurrency level
 * and append it to results.json at once, so an interrupted run keeps every finished step. It
 * measures and records; everything derived (buckets, flame graphs, capacity) is the publish
 * pass's work, from the files.
 */
import { GwprofError, RESULTS_SCHEMA_VERSION, writeRunResult, type RunConfig, type RunResult } from '@gwprof/results';
import { loadScenario } from './fixtures.js';
import { gatewayFromSpec } from './gateways/index.js';
import { measureStep, type StepSettings } from './step.js';
import { openSession, type Session } from './session.js';
import type { ProfilerKind, ServiceOptions } from './test-bed.js';
import type { RunningGateway } from './gateway-process.js';
import type { ScenarioFiles } from './defaults.js';
import { TOOL_VERSION } from './version.js';

export interface SweepOptions extends StepSettings, ServiceOptions {
  gateway: string;
  gatewayEnv: Record<string, string>;
  concurrency: number[];
  scenario: ScenarioFiles;
  profiler: ProfilerKind;
  outDir: string;
  runId?: string;
  quick: boolean;
  commandLine: string[];
}

export interface SweepOutcome {
  run: RunResult;
  runDir: string;
}

export async function runSweep(options: SweepOptions): Promise<SweepOutcome> {
  checkPorts(options);
  const scenario = loadScenario(options.scenario);
  const adapter = gatewayFromSpec(options.gateway);
  const session = openSession({
    ...options,
    label: options.gateway,
    maxConcurrency: Math.max(...options.concurrency),
    gatewayPackages: adapter.packageVersions(),
  });
  const { runDir, logs } = session;
  const run = newRun(options, session);
  writeRunResult(runDir, run);
  logs.harness.info({ runDir, config: run.config }, 'sweep starting');

  try {
    if (options.signal.aborted) throw new Error('interrupted');
    const bed = await session.startBed();
    if (options.signal.aborted) throw new Error('interrupted');
    const { gateway, profiler, profilerUnavailable, external } = await bed.launchGateway({ adapter, gatewayEnv: options.gatewayEnv, processName: 'gateway' });

    for (const concurrency of options.concurrency) {
      if (options.signal.aborted) break;
      assertRunning(gateway, `before the step at concurrency ${concurrency}`);
      const step = await measureStep({
        id: String(concurrency),
        concurrency,
        settings: options,
        scenario,
        gateway,
        subgraphs: bed.subgraphs,
        profiler,
        profilerUnavailable,
        runDir,
        logs,
      });
      if (!step) break;
      run.steps.push(step);
      writeRunResult(runDir, run);
      logs.harness.info({ step }, `step c=${concurrency} ${step.status}`);
      options.onProgress(`c=${concurrency} ${step.status === 'ok' ? 'ok' : 'FAILED'} · ${step.rps} req/s · ${step.requests.failed} failed`, true);
      assertRunning(gateway, `during the step at concurrency ${concurrency}`);
    }
    profiler?.close();
    if (external && !options.signal.aborted) {
      options.onProgress(`stopping the gateway so ${options.profiler} writes its report…`, true);
      await stopProfiledGateway(gateway);
      const artifact = external.artifact();
      if (artifact) run.artifacts[options.profiler] = artifact;
    }
    run.state = options.signal.aborted ? 'interrupted' : 'complete';
  } catch (error) {
    run.state = options.signal.aborted ? 'interrupted' : 'failed';
    run.error = options.signal.aborted ? null : (error as Error).message;
    logs.harness.error({ err: (error as Error).message }, 'sweep stopped');
  } finally {
    await session.close();
    run.finishedAt = new Date().toISOString();
    writeRunResult(runDir, run);
    logs.harness.info({ state: run.state }, 'sweep finished');
    logs.flush();
  }
  return { run, runDir };
}

/** Checks only what a flag parser cannot: options that must differ from each other. */
function checkPorts(options: SweepOptions): void {
  const ports = [options.gatewayPort, ...Object.values(options.subgraphPorts)];
  if (new Set(ports).size !== ports.length) throw new GwprofError(`gateway and subgraph ports must all differ (got ${ports.join(', ')})`);
}

function assertRunning(gateway: RunningGateway, when: string): void {
  if (!gateway.process.isRunning()) {
    throw new Error(`gateway exited ${when}; last log lines: ${gateway.process.tail().slice(-5).join(' | ')}`);
  }
}

function newRun(options: SweepOptions, session: Session): RunResult {
  return {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    tool: { name: 'gwprof', version: TOOL_VERSION },
    kind: 'sweep',
    runId: session.runId,
    startedAt: new Date().toISOString(),
    finishedAt: null,
    state: 'running',
    error: null,
    config: runConfig(options),
    environment: session.environment,
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

function runConfig(options: SweepOptions): RunConfig {
  return {
    gateway: options.gateway,
    gatewayEnv: options.gatewayEnv,
    concurrency: options.concurrency,
    durationSec: options.durationSec,
    warmupSec: options.warmupSec,
    query: options.scenario.query,
    variables: options.scenario.variables,
    expect: options.scenario.expect,
    minSuccess: options.minSuccess,
    timeoutSec: options.timeoutSec,
    subgraphDelayMs: options.subgraphDelayMs,
    subgraphPorts: options.subgraphPorts,
    gatewayPort: options.gatewayPort,
    profile: options.profiler !== 'none',
    profiler: options.profiler,
    samplingIntervalUs: options.samplingIntervalUs,
    quick: options.quick,
  };
}
