import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { TOOL_VERSION, runCompareTrials } from '@gwprof/collect';
import { COMPARE_FILE, readRunResult, writeJsonAtomic, RESULTS_SCHEMA_VERSION, type CompareResult, type TrialResult } from '@gwprof/results';
import { analyzeProfile, diffRuns, judgeTrials, readCpuProfile } from '@gwprof/analysis';
import { renderCompareMarkdown, renderCompareReportHtml, renderCompareTable } from '@gwprof/render';
import { ProgressLine } from './progress.js';
import { collectKeyValue, parseIntegerList, parsePercent, parsePositiveNumber, parseWholeNumber } from './options.js';
import { withInterruptSignal } from './signals.js';
import { addServiceOptions, type ServiceFlags } from './service-options.js';
import { COMPARE_DEFAULT_SCENARIO, UsageError, expectedResponseFile, subgraphPortsFrom } from './defaults.js';

interface CompareFlags extends ServiceFlags {
  baseline?: string;
  candidate?: string;
  baselineEnv?: Record<string, string>;
  candidateEnv?: Record<string, string>;
  baselineRun?: string;
  candidateRun?: string;
  concurrency: number[];
  duration: number;
  warmup: number;
  threshold: number;
  minTrials: number;
  maxTrials: number;
  budget?: number;
  query?: string;
  variables?: string;
  expect?: string;
  profile: boolean;
  markdown?: string;
  json?: string;
}

export function compareCommand(): Command {
  const command = new Command('compare')
    .description('did the candidate gateway get slower than the baseline? Alternating trials, confidence intervals, a verdict and an exit code (0 no regression, 1 regression, 2 invalid)')
    .option('--baseline <gateway>', 'baseline gateway spec: mesh, hive, apollo or cmd:<shell command>')
    .option('--candidate <gateway>', 'candidate gateway spec (same forms)')
    .option('--baseline-env <KEY=VALUE>', 'environment variable for the baseline gateway only (repeatable)', collectKeyValue('--baseline-env'))
    .option('--candidate-env <KEY=VALUE>', 'environment variable for the candidate gateway only (repeatable)', collectKeyValue('--candidate-env'))
    .option('--baseline-run <dir>', 'instead of measuring: a finished sweep run folder (deltas only, no verdict)')
    .option('--candidate-run <dir>', 'the other finished sweep run folder')
    .option('-c, --concurrency <list>', 'load levels measured in every trial', parseIntegerList('--concurrency'), [50])
    .option('-d, --duration <seconds>', 'measured seconds per trial and level', parsePositiveNumber('--duration'), 10)
    .option('-w, --warmup <seconds>', 'discarded warm-up seconds before each measurement', parsePositiveNumber('--warmup', { allowZero: true }), 3)
    .option('--threshold <percent>', 'smallest change that counts as a regression', parsePercent('--threshold'), 5)
    .option('--min-trials <n>', 'trials per side before a verdict may be reached', parseWholeNumber('--min-trials'), 3)
    .option('--max-trials <n>', 'trials per side at most, while a gating metric is inconclusive', parseWholeNumber('--max-trials'), 10)
    .option('--budget <minutes>', 'stop adding trials when another pair would exceed this many minutes', parsePositiveNumber('--budget'))
    .option('--query <file>', 'GraphQL query to POST (default: fixtures/user-reviews.graphql, with its 100 variable sets cycled per request and their golden responses)')
    .option('--variables <file>', 'JSON variables: an object, or a list cycled per request')
    .option('--expect <file>', 'golden {"data": …}, or a list of them, one per variables entry')
    .option('--no-profile', 'do not CPU-profile the trials (no bucket deltas)')
    .option('--markdown <file>', 'write a PR comment in markdown')
    .option('--json <file>', 'write the comparison as JSON');
  return addServiceOptions(command).action(async (flags: CompareFlags) => {
    process.exitCode = await compareAction(flags);
  });
}

function emit(compare: CompareResult, runDir: string, flags: CompareFlags): void {
  writeJsonAtomic(path.join(runDir, COMPARE_FILE), compare);
  writeFileSync(path.join(runDir, 'index.html'), renderCompareReportHtml(compare));
  writeFileSync(path.join(runDir, 'comment.md'), renderCompareMarkdown(compare));
  if (flags.markdown) writeFileSync(path.resolve(flags.markdown), renderCompareMarkdown(compare));
  if (flags.json) writeJsonAtomic(path.resolve(flags.json), compare);
}

async function compareAction(flags: CompareFlags): Promise<number> {
  const color = flags.color && process.stdout.isTTY === true;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').replace('Z', '');
  const runId = flags.runId ?? `${stamp}-compare`;
  const runDir = path.resolve(flags.out, runId);
  const base: Omit<CompareResult, 'mode' | 'config' | 'environment' | 'trials' | 'levels' | 'verdict' | 'verdictReasons' | 'stopReason' | 'exitCode' | 'state' | 'finishedAt'> = {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    tool: { name: 'gwprof', version: TOOL_VERSION },
    kind: 'compare',
    runId,
    startedAt: new Date().toISOString(),
  };

  if (flags.baselineRun || flags.candidateRun) {
    if (!flags.baselineRun || !flags.candidateRun) throw new UsageError('--baseline-run and --candidate-run go together');
    if (flags.baseline || flags.candidate) throw new UsageError('give either --baseline/--candidate (measure) or --baseline-run/--candidate-run (finished runs), not both');
    const baselineRun = readRunResult(path.resolve(flags.baselineRun));
    const candidateRun = readRunResult(path.resolve(flags.candidateRun));
    const levels = diffRuns(baselineRun.steps, candidateRun.steps);
    if (levels.length === 0) throw new UsageError('the two runs share no concurrency level: nothing to compare');
    const failedSteps = [...baselineRun.steps, ...candidateRun.steps].filter((s) => s.status === 'failed' && levels.some((l) => l.concurrency === s.concurrency));
    const compare: CompareResult = {
      ...base,
      state: 'complete',
      finishedAt: new Date().toISOString(),
      mode: 'runs',
      config: {
        baseline: `${baselineRun.config.gateway} (${flags.baselineRun})`,
        candidate: `${candidateRun.config.gateway} (${flags.candidateRun})`,
        baselineEnv: baselineRun.config.gatewayEnv,
        candidateEnv: candidateRun.config.gatewayEnv,
        concurrency: levels.map((l) => l.concurrency),
        threshold: flags.threshold / 100,
        minTrials: 1,
        maxTrials: 1,
        budgetMinutes: null,
        durationSec: baselineRun.config.durationSec,
        warmupSec: baselineRun.config.warmupSec,
        query: baselineRun.config.query,
      },
      environment: baselineRun.environment,
      trials: [],
      levels,
      verdict: failedSteps.length > 0 ? 'invalid' : 'deltas only',
      verdictReasons:
        failedSteps.length > 0
          ? failedSteps.map((s) => `a step at concurrency ${s.concurrency} failed: ${s.statusReasons[0] ?? ''}`)
          : ['one run per side: deltas without confidence intervals; measure with --baseline/--candidate for a verdict'],
      stopReason: 'compared finished runs',
      exitCode: failedSteps.length > 0 ? 2 : 0,
    };
    mkdirSync(runDir, { recursive: true });
    emit(compare, runDir, flags);
    process.stdout.write(`${renderCompareTable(compare, { color })}\n\nrun folder: ${runDir}\n`);
    return compare.exitCode;
  }

  if (!flags.baseline || !flags.candidate) throw new UsageError('compare needs --baseline and --candidate gateways (or --baseline-run and --candidate-run)');
  const subgraphPorts = subgraphPortsFrom(flags.subgraphPorts);
  const queryFile = path.resolve(flags.query ?? COMPARE_DEFAULT_SCENARIO.query);
  const variablesFile = flags.variables ? path.resolve(flags.variables) : flags.query ? null : COMPARE_DEFAULT_SCENARIO.variables;
  const expectFile = flags.query ? expectedResponseFile(queryFile, flags.expect) : (flags.expect ? path.resolve(flags.expect) : COMPARE_DEFAULT_SCENARIO.expect);
  const threshold = flags.threshold / 100;
  const progress = new ProgressLine();
  const config: CompareResult['config'] = {
    baseline: flags.baseline,
    candidate: flags.candidate,
    baselineEnv: flags.baselineEnv ?? {},
    candidateEnv: flags.candidateEnv ?? {},
    concurrency: flags.concurrency,
    threshold,
    minTrials: flags.minTrials,
    maxTrials: flags.maxTrials,
    budgetMinutes: flags.budget ?? null,
    durationSec: flags.duration,
    warmupSec: flags.warmup,
    query: queryFile,
  };

  const analyzeTrial = async (trial: TrialResult, dir: string): Promise<void> => {
    const file = trial.step.profile?.cpuprofile;
    if (!file || trial.step.buckets) return;
    try {
      const analysis = analyzeProfile(await readCpuProfile(path.join(dir, file)));
      if (analysis.samples > 0) trial.step.buckets = analysis.buckets;
    } catch (error) {
      trial.step.statusReasons.push(`profile analysis failed: ${(error as Error).message}`);
    }
  };

  const outcome = await withInterruptSignal((signal) =>
    runCompareTrials({
      baseline: flags.baseline!,
      candidate: flags.candidate!,
      baselineEnv: config.baselineEnv,
      candidateEnv: config.candidateEnv,
      concurrency: flags.concurrency,
      durationSec: flags.duration,
      warmupSec: flags.warmup,
      timeoutSec: flags.timeout,
      minSuccess: 1,
      samplingIntervalUs: flags.samplingInterval,
      queryFile,
      variablesFile,
      expectFile,
      subgraphDelayMs: flags.subgraphDelay,
      subgraphPorts,
      gatewayPort: flags.gatewayPort,
      ...(flags.gatewayCpus !== undefined ? { gatewayCpus: flags.gatewayCpus } : {}),
      ...(flags.gatewayMemory !== undefined ? { gatewayMemoryMB: flags.gatewayMemory } : {}),
      profile: flags.profile,
      minTrials: flags.minTrials,
      maxTrials: flags.maxTrials,
      budgetMinutes: flags.budget ?? null,
      outDir: path.resolve(flags.out),
      runId,
      commandLine: process.argv.slice(2),
      signal,
      onProgress: (line, final) => progress.update(line, final),
      afterPair: async (trials, dir) => {
        for (const trial of trials) await analyzeTrial(trial, dir);
        const judged = judgeTrials(trials, { threshold, concurrency: flags.concurrency });
        emit(
          {
            ...base,
            state: 'running',
            finishedAt: null,
            mode: 'trials',
            config,
            environment: null,
            trials,
            levels: judged.levels,
            verdict: judged.verdict,
            verdictReasons: judged.reasons,
            stopReason: 'still running',
            exitCode: judged.exitCode,
          },
          dir,
          flags,
        );
        const perSide = Math.max(...trials.map((t) => t.index));
        progress.update(`after ${perSide} trial(s) per side: ${judged.verdict}${judged.needMoreTrials ? ' (more trials needed)' : ''}`, true);
        return judged.needMoreTrials;
      },
    }),
  );

  for (const trial of outcome.trials) await analyzeTrial(trial, outcome.runDir);
  const judged = judgeTrials(outcome.trials, { threshold, concurrency: flags.concurrency });
  const invalid = outcome.state !== 'complete' || judged.verdict === 'invalid';
  const compare: CompareResult = {
    ...base,
    state: outcome.state,
    finishedAt: new Date().toISOString(),
    mode: 'trials',
    config,
    environment: outcome.environment,
    trials: outcome.trials,
    levels: judged.levels,
    verdict: invalid ? 'invalid' : judged.verdict,
    verdictReasons: invalid && judged.verdict !== 'invalid' ? [outcome.error ?? `comparison ${outcome.state}`] : judged.reasons,
    stopReason: outcome.stopReason,
    exitCode: invalid ? 2 : judged.exitCode,
  };
  emit(compare, outcome.runDir, flags);
  process.stdout.write(`\n${renderCompareTable(compare, { color })}\n\nrun folder: ${outcome.runDir}\n`);
  if (outcome.state === 'interrupted') return 130;
  return compare.exitCode;
}
