import path from 'node:path';
import { Command } from 'commander';
import { DEFAULTS, makeRunId, runCompareTrials, type CompareTrialOptions } from '@gwprof/collect';
import { GwprofError, type PublishedCompare } from '@gwprof/results';
import { compareFinishedRuns, publishCompare } from '@gwprof/publish';
import { renderCompareTable } from '@gwprof/render';
import { ProgressLine } from './progress.js';
import { collectKeyValue, parseIntegerList, parsePercent, parsePositiveNumber, parseWholeNumber } from './options.js';
import { withInterruptSignal } from './signals.js';
import { addServiceOptions, serviceOptions, type ServiceFlags } from './service-options.js';
import { scenarioFrom } from './defaults.js';

const COMPARE = DEFAULTS.compare;

interface CompareFlags extends ServiceFlags {
  baseline?: string;
  candidate?: string;
  baselineEnv?: Record<string, string>;
  candidateEnv?: Record<string, string>;
  baselineRun?: string;
  candidateRun?: string;
  concurrency: number[];
  duration: number;
  maxDuration: number;
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
    .option('-c, --concurrency <list>', 'load levels measured in every trial', parseIntegerList('--concurrency'), [...COMPARE.concurrency])
    .option('-d, --duration <seconds>', 'shortest measured window per trial and level', parsePositiveNumber('--duration'), COMPARE.durationSec)
    .option('--max-duration <seconds>', 'longest measured window per trial and level', parsePositiveNumber('--max-duration'), COMPARE.maxDurationSec)
    .option('-w, --warmup <seconds>', 'longest warm-up before each measurement; it ends once throughput stops trending', parsePositiveNumber('--warmup', { allowZero: true }), COMPARE.warmupSec)
    .option('--threshold <percent>', 'smallest change that counts as a regression', parsePercent('--threshold'), COMPARE.threshold * 100)
    .option('--min-trials <n>', 'trials per side before a verdict may be reached', parseWholeNumber('--min-trials', 2, ': statistics need two values per side'), COMPARE.minTrials)
    .option('--max-trials <n>', 'trials per side at most, while a gating metric is inconclusive', parseWholeNumber('--max-trials'), COMPARE.maxTrials)
    .option('--budget <minutes>', 'stop adding trials when another pair would exceed this many minutes', parsePositiveNumber('--budget'))
    .option('--query <file>', `GraphQL query to POST (default: ${path.relative(process.cwd(), COMPARE.scenario.query)}, with its variable sets cycled per request and their golden responses)`)
    .option('--variables <file>', 'JSON variables: an object, or a list cycled per request')
    .option('--expect <file>', 'golden {"data": …}, or a list of them, one per variables entry')
    .option('--no-profile', 'do not CPU-profile the trials (no bucket deltas)')
    .option('--markdown <file>', 'write a PR comment in markdown')
    .option('--json <file>', 'write the comparison as JSON');
  return addServiceOptions(command).action(async (flags: CompareFlags) => {
    process.exitCode = await compareAction(flags);
  });
}

async function compareAction(flags: CompareFlags): Promise<number> {
  const copies = { ...(flags.markdown ? { markdown: flags.markdown } : {}), ...(flags.json ? { json: flags.json } : {}) };
  if (flags.baselineRun || flags.candidateRun) return compareRunsAction(flags, copies);
  if (!flags.baseline || !flags.candidate) throw new GwprofError('compare needs --baseline and --candidate gateways (or --baseline-run and --candidate-run)');
  const progress = new ProgressLine();
  const { compare: measured, runDir } = await withInterruptSignal((signal) => runCompareTrials(compareOptions(flags, signal, progress)));
  const compare = await publishCompare(runDir, copies);
  print(compare, runDir, flags);
  return measured.state === 'interrupted' ? 130 : compare.analysis.exitCode;
}

async function compareRunsAction(flags: CompareFlags, copies: { markdown?: string; json?: string }): Promise<number> {
  if (!flags.baselineRun || !flags.candidateRun) throw new GwprofError('--baseline-run and --candidate-run go together');
  if (flags.baseline || flags.candidate) throw new GwprofError('give either --baseline/--candidate (measure) or --baseline-run/--candidate-run (finished runs), not both');
  const runId = flags.runId ?? makeRunId('compare');
  const runDir = path.resolve(flags.out, runId);
  const compare = await compareFinishedRuns({
    baselineDir: path.resolve(flags.baselineRun),
    candidateDir: path.resolve(flags.candidateRun),
    runDir,
    runId,
    threshold: flags.threshold / 100,
    commandLine: process.argv.slice(2),
    copies,
  });
  print(compare, runDir, flags);
  return compare.analysis.exitCode;
}

function compareOptions(flags: CompareFlags, signal: AbortSignal, progress: ProgressLine): CompareTrialOptions {
  return {
    ...serviceOptions(flags),
    baseline: flags.baseline!,
    candidate: flags.candidate!,
    baselineEnv: flags.baselineEnv ?? {},
    candidateEnv: flags.candidateEnv ?? {},
    concurrency: flags.concurrency,
    durationSec: flags.duration,
    maxDurationSec: Math.max(flags.maxDuration, flags.duration),
    warmupSec: flags.warmup,
    settleSec: DEFAULTS.settleSec,
    scenario: scenarioFrom(flags, COMPARE.scenario),
    minSuccess: 1,
    profile: flags.profile,
    threshold: flags.threshold / 100,
    minTrials: flags.minTrials,
    maxTrials: flags.maxTrials,
    budgetMinutes: flags.budget ?? null,
    signal,
    onProgress: (line, final) => progress.update(line, final),
  };
}

function print(compare: PublishedCompare, runDir: string, flags: CompareFlags): void {
  process.stdout.write(`\n${renderCompareTable(compare, { color: flags.color && process.stdout.isTTY === true })}\n\nrun folder: ${runDir}\n`);
}
