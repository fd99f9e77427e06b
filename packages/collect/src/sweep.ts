/**
 * The sweep: start the subgraphs and the gateway, then for each concurrency level warm up
 * (discarded), measure with every response validated, profile the gateway's CPU over
 * exactly the measured window, and append the step to results.json at once, so an
 * interrupted run keeps every finished step.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { RESULTS_SCHEMA_VERSION, writeRunResult, type RunConfig, type RunResult, type StepResult } from '@gwprof/results';
import { loadScenario, type Scenario } from './fixtures.js';
import { gatewayFromSpec, type GatewayAdapter } from './gateways/index.js';
import { createRunLogs } from './log.js';
import { measureStep, type StepSettings } from './step.js';
import { planResources, startTestBed, type ProfilerKind, type TestBed, type TestBedSettings } from './test-bed.js';
import type { RunningGateway } from './gateway-process.js';
import { describeEnvironment } from './environment.js';
import { TOOL_VERSION } from './version.js';

export class SweepInputError extends Error {}

export interface SweepOptions extends StepSettings, TestBedSettings {
  gateway: string;
  gatewayEnv: Record<string, string>;
  concurrency: number[];
  profiler: ProfilerKind;
  outDir: string;
  runId?: string;
  quick: boolean;
  commandLine: string[];
  /** Called after each step is written (the CLI renders its flame graph there). */
  afterStep?: (step: StepResult, run: RunResult, runDir: string) => Promise<void>;
}

export interface SweepOutcome {
  run: RunResult;
  runDir: string;
}

function makeRunId(gateway: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').replace('Z', '');
  const slug = gateway.replace(/^cmd:/, 'cmd-').replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 32).replace(/-+$/, '');
  return `${stamp}-${slug}`;
}

export function validateSweepOptions(options: SweepOptions): { scenario: Scenario; adapter: GatewayAdapter } {
  if (options.concurrency.length === 0) throw new SweepInputError('--concurrency needs at least one level');
  for (const c of options.concurrency) {
    if (!Number.isInteger(c) || c < 1) throw new SweepInputError(`--concurrency levels must be whole numbers ≥ 1 (got ${c})`);
  }
  if (!(options.durationSec > 0)) throw new SweepInputError(`--duration must be > 0 seconds (got ${options.durationSec})`);
  if (!(options.warmupSec >= 0)) throw new SweepInputError(`--warmup must be ≥ 0 seconds (got ${options.warmupSec})`);
  if (!(options.minSuccess >= 0 && options.minSuccess <= 1)) throw new SweepInputError(`--min-success must be between 0 and 100 (%)`);
  if (!(options.samplingIntervalUs >= 10)) throw new SweepInputError(`--sampling-interval must be ≥ 10 µs`);
  const ports = [options.gatewayPort, ...Object.values(options.subgraphPorts)];
  if (new Set(ports).size !== ports.length) throw new SweepInputError(`gateway and subgraph ports must all differ (got ${ports.join(', ')})`);
  const scenario = loadScenario({ query: options.queryFile, variables: options.variablesFile, expect: options.expectFile });
  const adapter = gatewayFromSpec(options.gateway);
  return { scenario, adapter };
}

export async function runSweep(options: SweepOptions): Promise<SweepOutcome> {
  const { scenario, adapter } = validateSweepOptions(options);
  const resources = planResources({
    maxConcurrency: Math.max(...options.concurrency),
    ...(options.gatewayCpus !== undefined ? { gatewayCpus: options.gatewayCpus } : {}),
    ...(options.gatewayMemoryMB !== undefined ? { gatewayMemoryMB: options.gatewayMemoryMB } : {}),
  });
  const runId = options.runId ?? makeRunId(options.gateway);
  const runDir = path.resolve(options.outDir, runId);
  mkdirSync(runDir, { recursive: true });
  const logs = createRunLogs(runDir);

  const run: RunResult = {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    tool: { name: 'gwprof', version: TOOL_VERSION },
    kind: 'sweep',
    runId,
    startedAt: new Date().toISOString(),
    finishedAt: null,
    state: 'running',
    error: null,
    config: runConfig(options),
    environment: describeEnvironment({
      cpuPlan: resources.cpuPlan,
      memoryLimitMB: resources.memoryLimitMB,
      memoryLimitMethod: resources.memoryCap?.method ?? null,
      fdLimit: resources.fdLimit,
      gatewayPackages: adapter.packageVersions(),
      commandLine: options.commandLine,
    }),
    steps: [],
    artifacts: { logs: 'logs/' },
  };
  writeRunResult(runDir, run);
  logs.harness.info({ runDir, config: run.config }, 'sweep starting');

  let bed: TestBed | null = null;
  try {
    if (options.signal.aborted) throw new Error('interrupted');
    bed = await startTestBed({
      resources,
      runDir,
      logs,
      subgraphPorts: options.subgraphPorts,
      subgraphDelayMs: options.subgraphDelayMs,
      gatewayPort: options.gatewayPort,
      profiler: options.profiler,
      onProgress: options.onProgress,
    });
    if (options.signal.aborted) throw new Error('interrupted');
    const { gateway, profiler, profilerUnavailable, external } = await bed.launchGateway({ adapter, gatewayEnv: options.gatewayEnv, processName: 'gateway' });

    for (const concurrency of options.concurrency) {
      if (options.signal.aborted) break;
      if (!gateway.process.isRunning()) {
        throw new Error(`gateway exited before the step at concurrency ${concurrency}; last log lines: ${gateway.process.tail().slice(-5).join(' | ')}`);
      }
      const step = await measureStep({
        concurrency,
        settings: options,
        scenario,
        gateway,
        subgraphs: bed.subgraphs,
        profiler,
        profilerUnavailable,
        runDir,
        profileFile: `step-${concurrency}.cpuprofile`,
        logs,
      });
      if (!step) break;
      run.steps.push(step);
      writeRunResult(runDir, run);
      logs.harness.info({ step }, `step c=${concurrency} ${step.status}`);
      options.onProgress(`c=${concurrency} ${step.status === 'ok' ? 'ok' : 'FAILED'} · ${step.rps} req/s · ${step.requests.failed} failed`, true);
      if (options.afterStep) await options.afterStep(step, run, runDir);
      if (!gateway.process.isRunning()) throw new Error(`gateway exited during the step at concurrency ${concurrency}`);
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
    await bed?.close();
    resources.memoryCap?.release();
    run.finishedAt = new Date().toISOString();
    writeRunResult(runDir, run);
    logs.harness.info({ state: run.state }, 'sweep finished');
    logs.flush();
  }
  return { run, runDir };
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
    query: options.queryFile,
    variables: options.variablesFile,
    expect: options.expectFile,
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
