/**
 * Trials for `gwprof compare`: baseline and candidate alternate (A B A B …), each trial in a
 * fresh gateway process, against the same subgraphs, CPU sets and request stream, measured
 * like a sweep step. compare.json is rewritten after every trial. After each pair, analysis
 * judges the trials so far and says whether more could decide; the budget and the trial cap
 * stop the loop too.
 */
import { judgeTrials } from '@gwprof/analysis';
import { GwprofError, RESULTS_SCHEMA_VERSION, writeCompareResult, type CompareConfig, type CompareResult, type TrialRecord } from '@gwprof/results';
import { loadScenario, type Scenario } from './fixtures.js';
import { gatewayFromSpec, type GatewayAdapter } from './gateways/index.js';
import { measureStep, type StepSettings } from './step/measure-step.js';
import { openSession, type Session } from './session.js';
import type { ServiceOptions, TestBed } from './test-bed.js';
import { stepGatewayOf } from './gateway-process.js';
import type { ScenarioFiles } from './defaults.js';
import { TOOL_VERSION } from './version.js';

export interface CompareTrialOptions extends StepSettings, ServiceOptions {
  baseline: string;
  candidate: string;
  baselineEnv: Record<string, string>;
  candidateEnv: Record<string, string>;
  concurrency: number[];
  scenario: ScenarioFiles;
  profile: boolean;
  threshold: number;
  minTrials: number;
  maxTrials: number;
  budgetMinutes: number | null;
  outDir: string;
  runId?: string;
  commandLine: string[];
}

interface Side {
  side: TrialRecord['side'];
  adapter: GatewayAdapter;
  env: Record<string, string>;
}

export async function runCompareTrials(options: CompareTrialOptions): Promise<{ compare: CompareResult; runDir: string }> {
  if (options.minTrials < 2) throw new GwprofError('minTrials must be at least 2: statistics need two values per side');
  if (options.maxTrials < options.minTrials) throw new GwprofError(`maxTrials (${options.maxTrials}) must be at least minTrials (${options.minTrials})`);
  const sides: Side[] = [
    { side: 'baseline', adapter: gatewayFromSpec(options.baseline), env: options.baselineEnv },
    { side: 'candidate', adapter: gatewayFromSpec(options.candidate), env: options.candidateEnv },
  ];
  const scenario = loadScenario(options.scenario);
  const session = openSession({
    ...options,
    label: 'compare',
    maxConcurrency: Math.max(...options.concurrency),
    gatewayPackages: Object.fromEntries(
      sides.flatMap(({ side, adapter }) => Object.entries(adapter.packageVersions()).map(([name, version]) => [`${side}:${name}`, version])),
    ),
    profiler: options.profile ? 'inspector' : 'none',
  });
  const compare = newCompare(options, session);
  writeCompareResult(session.runDir, compare);
  try {
    const bed = await session.startBed();
    compare.stopReason = await trialLoop(options, sides, scenario, bed, session, compare);
    compare.state = options.signal.aborted ? 'interrupted' : 'complete';
  } catch (caught) {
    compare.state = options.signal.aborted ? 'interrupted' : 'failed';
    compare.error = options.signal.aborted ? null : (caught as Error).message;
    compare.stopReason = compare.error ?? 'interrupted';
    session.logs.harness.error({ err: compare.error }, 'compare stopped');
  } finally {
    await session.close();
    compare.finishedAt = new Date().toISOString();
    writeCompareResult(session.runDir, compare);
  }
  return { compare, runDir: session.runDir };
}

/** Runs pairs until analysis has decided, the trial cap or the budget; returns why it stopped. */
async function trialLoop(options: CompareTrialOptions, sides: Side[], scenario: Scenario, bed: TestBed, session: Session, compare: CompareResult): Promise<string> {
  const started = Date.now();
  for (let index = 1; index <= options.maxTrials; index++) {
    const pairStarted = Date.now();
    for (const side of sides) {
      if (options.signal.aborted) return 'interrupted';
      await runTrial(options, side, index, scenario, bed, session, compare);
      if (options.signal.aborted) return 'interrupted';
    }
    const judged = judgeTrials(compare.trials, { threshold: options.threshold, concurrency: options.concurrency });
    options.onProgress(`after ${index} trial(s) per side: ${judged.verdict}${judged.needMoreTrials ? ' (more trials needed)' : ''}`, true);
    if (index >= options.minTrials && !judged.needMoreTrials) return `every gating metric decided after ${index} trials per side`;
    const elapsedMin = (Date.now() - started) / 60_000;
    const pairMin = (Date.now() - pairStarted) / 60_000;
    if (options.budgetMinutes !== null && index < options.maxTrials && elapsedMin + pairMin > options.budgetMinutes) {
      return `--budget ${options.budgetMinutes} min would be exceeded by another pair (after ${index} trials per side, ${elapsedMin.toFixed(1)} min)`;
    }
  }
  return `reached --max-trials (${options.maxTrials} per side)`;
}

/** One fresh gateway process, measured at every level; a failed step ends the comparison. */
async function runTrial(options: CompareTrialOptions, { side, adapter, env }: Side, index: number, scenario: Scenario, bed: TestBed, session: Session, compare: CompareResult): Promise<void> {
  const label = `${side} #${index}`;
  const { gateway, profiler, profilerUnavailable } = await bed.launchGateway({ adapter, gatewayEnv: env, processName: `${side}-${index}` });
  const stepGateway = stepGatewayOf(gateway);
  try {
    for (const concurrency of options.concurrency) {
      const step = await measureStep({
        id: `${side}-${index}-c${concurrency}`,
        concurrency,
        settings: options,
        scenario,
        gateway: stepGateway,
        subgraphs: bed.subgraphs,
        profiler,
        profilerUnavailable,
        runDir: session.runDir,
        logs: session.logs,
        label,
      });
      if (!step) return;
      compare.trials.push({ side, index, step });
      writeCompareResult(session.runDir, compare);
      options.onProgress(`${label} c=${concurrency}: ${step.status === 'ok' ? 'ok' : 'FAILED'} · ${step.rps} req/s · ${step.gateway.cpuMsPerOkRequest ?? '–'} CPU ms/req`, true);
      if (step.status === 'failed') throw new Error(`${label} failed validation at concurrency ${concurrency}: ${step.failures[0] ?? 'failed'}`);
    }
  } finally {
    profiler?.close();
    await gateway.stop();
  }
}

function newCompare(options: CompareTrialOptions, session: Session): CompareResult {
  const config: CompareConfig = {
    baseline: options.baseline,
    candidate: options.candidate,
    baselineEnv: options.baselineEnv,
    candidateEnv: options.candidateEnv,
    concurrency: options.concurrency,
    threshold: options.threshold,
    minTrials: options.minTrials,
    maxTrials: options.maxTrials,
    budgetMinutes: options.budgetMinutes,
    durationSec: options.durationSec,
    warmupSec: options.warmupSec,
    query: options.scenario.query,
  };
  return {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    tool: { name: 'gwprof', version: TOOL_VERSION },
    kind: 'compare',
    runId: session.runId,
    startedAt: new Date().toISOString(),
    finishedAt: null,
    state: 'running',
    error: null,
    mode: 'trials',
    config,
    environment: session.environment,
    runs: null,
    trials: [],
    stopReason: 'still running',
    analysis: null,
  };
}
