import path from 'node:path';
import { Command, Option } from 'commander';
import { reproduceArgs } from '@gwprof/analysis';
import { CALLGRIND_ARGS, DEFAULTS, runBisect, runComparison, type BisectOptions } from '@gwprof/collect';
import {
  GwprofError,
  readBisectResult,
  type BisectConfirmation,
  type BisectMeasure,
  type BisectResult,
  type PublishedBisect,
  type PublishedCompare,
} from '@gwprof/results';
import { publishBisect, publishCompare } from '@gwprof/publish';
import { renderBisectTable } from '@gwprof/render';
import { compareOptionsFromArgs } from './compare-command.js';
import { throwIfBug } from './failures.js';
import { jsonFile, jsonToStdout, JSON_OPTION_HELP, type JsonFlag } from './json-option.js';
import { parsePercent, parsePort, parseWholeNumber } from './options.js';
import { ProgressLine } from './progress.js';
import { EXPECT_NONE_HELP, SCENARIO_FILE_HELP, chooseScenario, scenarioSourceOf } from './scenario-option.js';
import { scenarioFrom, subgraphPortsFrom } from './defaults.js';
import { addServiceOptions, serviceArgs, serviceOptions, type ServiceFlags } from './service-options.js';
import { withInterruptSignal } from './signals.js';

const COMPARE = DEFAULTS.compare;
const COUNTING = COMPARE.instructions;
const BISECT = DEFAULTS.bisect;

interface BisectFlags extends ServiceFlags {
  gateway?: string;
  versions?: string[];
  repo?: string;
  build?: string;
  run?: string;
  good?: string;
  bad?: string;
  resume?: string;
  threshold: number;
  minPointSd: number;
  maxCounts: number;
  warmupRequests: number;
  batchRequests: number;
  candidatePort: number;
  scenario?: string;
  query?: string;
  variables?: string;
  expect?: string;
  expectNone: boolean;
  confirm: boolean;
  measure: BisectMeasure;
  markdown?: string;
  json?: JsonFlag;
}

export function bisectCommand(): Command {
  const command = new Command('bisect')
    .description(
      'which release or commit made it slower, or (--measure memory) allocate more? Counts instructions or allocations per validated request at the points between a good and a bad end, two at a time, until every step above the threshold lies between two neighbouring points; then confirms each step by a full comparison',
    )
    .option(
      '-g, --gateway <name>',
      "a built-in gateway whose published versions to bisect: hive or apollo (their gateway package's npm versions), grafbase, hive-router, apollo-router",
    )
    .option('--versions <list>', 'with --gateway: these versions (comma-separated), instead of every published one between the ends', (v: string) =>
      v.split(',').map((s) => s.trim()),
    )
    .option('--repo <dir>', 'a repository whose first-parent commits to bisect, each checked out in a worktree of its own under the run folder')
    .option('--build <command>', 'with --repo: shell command that builds a commit in its worktree (exit ≠ 0: the commit is skipped)')
    .option('--run <command>', "with --repo: shell command that starts the gateway from a commit's worktree (PORT and SUBGRAPH_<NAME>_URL in its environment)")
    .option('--good <version|revision>', 'the older end, where it was fast')
    .option('--bad <version|revision>', 'the newer end, where it is slow')
    .option('--resume <dir>', 'go on with an interrupted bisection from its run folder (its bisect.json keeps the settings and every count)')
    .addOption(
      new Option(
        '--measure <kind>',
        "what a point's value is: instructions per validated request, or memory: allocations per validated request counted in the same batches (a native gateway's allocator calls, a Node gateway's bytes on V8's heap)",
      )
        .choices(['instructions', 'memory'])
        .default('instructions'),
    )
    .option('--threshold <percent>', 'a step is a change of at least this between two neighbouring points', parsePercent('--threshold'), BISECT.threshold * 100)
    .option(
      '--min-point-sd <percent>',
      "the least scatter of one point between processes assumed: a floor under the scatter measured from the bisection's own repeats",
      parsePercent('--min-point-sd'),
      BISECT.minPointSd * 100,
    )
    .option(
      '--max-counts <n>',
      'counts of one point at most (the ends are counted up to 3 times first, to measure the scatter); a range still undecided then is reported, with the counts it would take',
      parseWholeNumber('--max-counts'),
      BISECT.maxCountsPerPoint,
    )
    .option('--warmup-requests <n>', 'uncounted requests after each start, one at a time', parseWholeNumber('--warmup-requests'), COUNTING.warmupRequests)
    .option('--batch-requests <n>', 'requests in the counted batch, one at a time', parseWholeNumber('--batch-requests'), COUNTING.batchRequests)
    .option(
      '--candidate-port <port>',
      "port of the round's second point (the first takes --gateway-port)",
      parsePort('--candidate-port'),
      COMPARE.candidatePort,
    )
    .option('--scenario <name|file>', `the requests: ${SCENARIO_FILE_HELP}, or a built-in scenario by name (default: the query below)`)
    .option('--query <file>', "GraphQL query to POST (default: the comparison's)")
    .option('--variables <file>', 'JSON variables: an object, or a list cycled per request')
    .option('--expect <file>', 'golden {"data": …}, or a list of them, one per variables entry')
    .option('--expect-none', EXPECT_NONE_HELP, false)
    .option(
      '--no-confirm',
      'do not confirm each step by a full `gwprof compare --measure instructions` of its two points (which also shows where the instructions went)',
    )
    .option('--markdown <file>', 'write the report as markdown, for an issue comment')
    .option('--json [file]', `the bisection (bisect.json) ${JSON_OPTION_HELP}`);
  return addServiceOptions(command).action(async (flags: BisectFlags) => {
    process.exitCode = await bisectAction(flags);
  });
}

async function bisectAction(flags: BisectFlags): Promise<number> {
  const progress = new ProgressLine();
  const { runDir, failure } = await withInterruptSignal((signal) => runBisect(bisectOptions(flags, signal, progress)));
  progress.update('writing the report…', true);
  const json = jsonFile(flags.json);
  const bisect = publishBisect(runDir, { ...(flags.markdown ? { markdown: flags.markdown } : {}), ...(json ? { json } : {}) });
  if (jsonToStdout(flags.json)) process.stdout.write(`${JSON.stringify(bisect, null, 2)}\n`);
  else printBisect(bisect, runDir);
  throwIfBug(failure);
  return bisectExitCode(bisect);
}

export function printBisect(bisect: PublishedBisect, runDir: string): void {
  process.stdout.write(`\n${renderBisectTable(bisect)}\n\nrun folder: ${runDir}\n`);
}

export function bisectExitCode(bisect: PublishedBisect): number {
  for (const reason of bisect.analysis.exitCode === 2 ? bisect.analysis.reasons : []) process.stderr.write(`gwprof: ${reason}\n`);
  return bisect.analysis.exitCode;
}

function bisectOptions(flags: BisectFlags, signal: AbortSignal, progress: ProgressLine): BisectOptions {
  const onProgress = (line: string, final: boolean) => progress.update(line, final);
  return {
    ...serviceOptions(flags),
    candidatePort: flags.candidatePort,
    candidateSubgraphPorts: subgraphPortsFrom(
      flags.subgraphPorts.map((port) => port + COMPARE.candidateSubgraphPortOffset),
      '--subgraph-ports',
    ),
    config: flags.resume ? null : newConfig(flags),
    ...(flags.versions ? { versions: flags.versions } : {}),
    ...(flags.resume ? { resume: flags.resume } : {}),
    scenario: flags.resume ? recordedScenario(flags) : scenarioOf(flags),
    ...(flags.confirm
      ? { confirm: (bisect: BisectResult, step: { good: number; bad: number }, runDir: string) => confirmStep(flags, bisect, step, runDir, signal, progress) }
      : {}),
    signal,
    onProgress,
  };
}

function scenarioOf(flags: Pick<BisectFlags, 'scenario' | 'query' | 'variables' | 'expect' | 'expectNone'>) {
  return flags.scenario ? scenarioSourceOf(chooseScenario(flags.scenario), flags, COMPARE.scenario) : scenarioFrom(flags, COMPARE.scenario);
}

/** A resumed bisection sends the requests it began with, as bisect.json recorded them. */
function recordedScenario(flags: BisectFlags) {
  if (flags.scenario || flags.query || flags.variables || flags.expect || flags.expectNone)
    throw new GwprofError('--resume sends the requests bisect.json recorded: leave out --scenario, --query, --variables, --expect and --expect-none');
  const { config } = readBisectResult(path.resolve(flags.resume!));
  return scenarioOf({
    ...(config.scenarioFile ? { scenario: config.scenarioFile } : {}),
    ...(config.query ? { query: config.query } : {}),
    ...(config.variables ? { variables: config.variables } : {}),
    ...(config.expect ? { expect: config.expect } : {}),
    expectNone: config.expectNone ?? false,
  });
}

function newConfig(flags: BisectFlags): NonNullable<BisectOptions['config']> {
  if (!flags.good || !flags.bad) throw new GwprofError('bisect needs --good and --bad (or --resume with a bisection folder)');
  if (Boolean(flags.gateway) === Boolean(flags.repo))
    throw new GwprofError('bisect takes either --gateway (published versions) or --repo with --run (commits)');
  if (flags.repo && !flags.run) throw new GwprofError("--repo needs --run: the shell command that starts the gateway from a commit's worktree");
  if (flags.gateway && (flags.build || flags.run)) throw new GwprofError('--build and --run go with --repo, not --gateway');
  return {
    source: flags.gateway
      ? { kind: 'versions', gateway: flags.gateway }
      : { kind: 'commits', repo: path.resolve(flags.repo!), build: flags.build ?? null, run: flags.run! },
    good: flags.good,
    bad: flags.bad,
    threshold: flags.threshold / 100,
    splitFraction: BISECT.splitFraction,
    minPointSd: flags.minPointSd / 100,
    maxCountsPerPoint: flags.maxCounts,
    instructions: {
      warmupRequests: flags.warmupRequests,
      batchRequests: flags.batchRequests,
      batchesPerEpoch: 1,
      v8Flags: [...COUNTING.v8Flags],
      valgrindArgs: [...CALLGRIND_ARGS],
      minEpochSd: COUNTING.minEpochSd,
    },
    confirm: flags.confirm,
    ...(flags.measure === 'memory' ? { measure: 'memory' as const } : {}),
  };
}

/** The step's reproduce line, run: a full comparison by instructions in a folder inside the bisection's. */
async function confirmStep(
  flags: BisectFlags,
  bisect: BisectResult,
  step: { good: number; bad: number },
  runDir: string,
  signal: AbortSignal,
  progress: ProgressLine,
): Promise<BisectConfirmation> {
  // Every service flag the bisection was given: the confirmation counts under the same settings.
  const services = [...serviceArgs(flags), '--candidate-port', String(flags.candidatePort), ...(flags.color ? [] : ['--no-color'])];
  const args = [...reproduceArgs(bisect, step.good, step.bad), ...services, '--out', path.dirname(runDir), '--run-id', path.basename(runDir)];
  const outcome = await runComparison(compareOptionsFromArgs(args, signal, progress));
  const compare = await publishCompare(outcome.runDir);
  const level = compare.analysis.levels[0];
  const decision = level?.decision ?? null;
  return {
    good: step.good,
    bad: step.bad,
    runDir,
    verdict: compare.analysis.verdict,
    relativeChange: decision?.relativeChange ?? null,
    interval: decision?.interval ?? null,
    exitCode: compare.analysis.exitCode,
    moves: level?.instructionMoves ?? null,
    ...allocationsOf(compare),
    ...(outcome.failure ? { error: outcome.failure.message } : {}),
  };
}

/** The comparison's allocation verdict, as a confirmation keeps it. */
function allocationsOf(compare: PublishedCompare): Pick<BisectConfirmation, 'allocations'> {
  const v = compare.analysis.allocationVerdict;
  if (!v) return {};
  const { outcome, relativeChange, interval } = v.decision;
  return { allocations: { verdict: outcome === 'continue' ? 'inconclusive' : outcome, relativeChange, interval, functions: v.functions } };
}
