/**
 * Trials for `gwprof compare`: baseline and candidate alternate (A B A B …), each trial in a
 * fresh gateway process, against the same subgraphs, CPU sets and request stream, measured
 * like a sweep step. After each pair the caller decides (statistics live in analysis)
 * whether more trials are needed; the budget and the trial cap stop the loop too.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { RunEnvironment, TrialResult } from '@gwprof/results';
import { loadScenario } from './fixtures.js';
import { gatewayFromSpec } from './gateways/index.js';
import { createRunLogs } from './log.js';
import { measureStep, type StepSettings } from './step.js';
import { planResources, startTestBed, type TestBed, type TestBedSettings } from './test-bed.js';
import { describeEnvironment } from './environment.js';
import { SweepInputError } from './sweep.js';

export interface CompareTrialOptions extends StepSettings, TestBedSettings {
  baseline: string;
  candidate: string;
  baselineEnv: Record<string, string>;
  candidateEnv: Record<string, string>;
  concurrency: number[];
  profile: boolean;
  minTrials: number;
  maxTrials: number;
  budgetMinutes: number | null;
  outDir: string;
  runId: string;
  commandLine: string[];
  /** After each A/B pair: true when more trials are needed to reach a verdict. */
  afterPair: (trials: TrialResult[], runDir: string) => Promise<boolean>;
}

export interface CompareTrialsOutcome {
  runDir: string;
  environment: RunEnvironment;
  trials: TrialResult[];
  state: 'complete' | 'interrupted' | 'failed';
  error: string | null;
  stopReason: string;
}

export function validateCompareOptions(options: CompareTrialOptions): void {
  if (!Number.isInteger(options.minTrials) || options.minTrials < 2) throw new SweepInputError('--min-trials must be a whole number ≥ 2 (statistics need two values per side)');
  if (!Number.isInteger(options.maxTrials) || options.maxTrials < options.minTrials) throw new SweepInputError(`--max-trials must be ≥ --min-trials (${options.minTrials})`);
  if (options.budgetMinutes !== null && !(options.budgetMinutes > 0)) throw new SweepInputError('--budget must be > 0 minutes');
}

export async function runCompareTrials(options: CompareTrialOptions): Promise<CompareTrialsOutcome> {
  validateCompareOptions(options);
  const sides = [
    { side: 'baseline' as const, adapter: gatewayFromSpec(options.baseline), env: options.baselineEnv },
    { side: 'candidate' as const, adapter: gatewayFromSpec(options.candidate), env: options.candidateEnv },
  ];
  const scenario = loadScenario({ query: options.queryFile, variables: options.variablesFile, expect: options.expectFile });
  const resources = planResources({
    maxConcurrency: Math.max(...options.concurrency),
    ...(options.gatewayCpus !== undefined ? { gatewayCpus: options.gatewayCpus } : {}),
    ...(options.gatewayMemoryMB !== undefined ? { gatewayMemoryMB: options.gatewayMemoryMB } : {}),
  });
  const runDir = path.resolve(options.outDir, options.runId);
  mkdirSync(runDir, { recursive: true });
  const logs = createRunLogs(runDir);
  const environment = describeEnvironment({
    cpuPlan: resources.cpuPlan,
    memoryLimitMB: resources.memoryLimitMB,
    memoryLimitMethod: resources.memoryCap?.method ?? null,
    fdLimit: resources.fdLimit,
    gatewayPackages: Object.fromEntries(
      sides.flatMap(({ side, adapter }) => Object.entries(adapter.packageVersions()).map(([name, version]) => [`${side}:${name}`, version])),
    ),
    commandLine: options.commandLine,
  });

  const trials: TrialResult[] = [];
  const started = Date.now();
  let bed: TestBed | null = null;
  let state: CompareTrialsOutcome['state'] = 'complete';
  let error: string | null = null;
  let stopReason = `reached --max-trials (${options.maxTrials} per side)`;
  try {
    bed = await startTestBed({
      resources,
      runDir,
      logs,
      subgraphPorts: options.subgraphPorts,
      subgraphDelayMs: options.subgraphDelayMs,
      gatewayPort: options.gatewayPort,
      profiler: options.profile ? 'inspector' : 'none',
      onProgress: options.onProgress,
    });
    trialLoop: for (let index = 1; index <= options.maxTrials; index++) {
      const pairStarted = Date.now();
      for (const { side, adapter, env } of sides) {
        if (options.signal.aborted) break trialLoop;
        const label = `${side} #${index}`;
        const { gateway, profiler, profilerUnavailable } = await bed.launchGateway({ adapter, gatewayEnv: env, processName: `${side}-${index}` });
        try {
          for (const concurrency of options.concurrency) {
            const step = await measureStep({
              concurrency,
              settings: options,
              scenario,
              gateway,
              subgraphs: bed.subgraphs,
              profiler,
              profilerUnavailable,
              runDir,
              profileFile: `trial-${side}-${index}-c${concurrency}.cpuprofile`,
              logs,
              label,
            });
            if (!step) break trialLoop;
            trials.push({ side, index, concurrency, step });
            options.onProgress(`${label} c=${concurrency}: ${step.status === 'ok' ? 'ok' : 'FAILED'} · ${step.rps} req/s · ${step.gateway.cpuMsPerOkRequest ?? '–'} CPU ms/req`, true);
            if (step.status === 'failed') {
              throw new Error(`${label} failed validation at concurrency ${concurrency}: ${step.statusReasons[0] ?? 'failed'}`);
            }
          }
        } finally {
          profiler?.close();
          await gateway.stop();
        }
      }
      const needMore = await options.afterPair(trials, runDir);
      if (index >= options.minTrials && !needMore) {
        stopReason = `every gating metric decided after ${index} trials per side`;
        break;
      }
      const elapsedMin = (Date.now() - started) / 60_000;
      const pairMin = (Date.now() - pairStarted) / 60_000;
      if (options.budgetMinutes !== null && index < options.maxTrials && elapsedMin + pairMin > options.budgetMinutes) {
        stopReason = `--budget ${options.budgetMinutes} min would be exceeded by another pair (after ${index} trials per side, ${elapsedMin.toFixed(1)} min)`;
        break;
      }
    }
    if (options.signal.aborted) {
      state = 'interrupted';
      stopReason = 'interrupted';
    }
  } catch (caught) {
    state = options.signal.aborted ? 'interrupted' : 'failed';
    error = options.signal.aborted ? null : (caught as Error).message;
    stopReason = error ?? 'interrupted';
    logs.harness.error({ err: error }, 'compare stopped');
  } finally {
    await bed?.close();
    resources.memoryCap?.release();
    logs.flush();
  }
  return { runDir, environment, trials, state, error, stopReason };
}
