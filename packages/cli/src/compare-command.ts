import path from 'node:path';
import { colorWanted } from './color.js';
import { BUILT_IN_SPECS } from './gateway-specs.js';
import { Command, Option } from 'commander';
import {
  CALLGRIND_ARGS,
  DEFAULTS,
  WHERE_V8_FLAGS,
  WHERE_VALGRIND_ARGS,
  makeRunId,
  recordFinishedRunsComparison,
  runComparison,
  type CompareOptions,
} from '@gwprof/collect';
import { epochsNeeded } from '@gwprof/analysis';
import { EXIT, GwprofError, type PublishedCompare } from '@gwprof/results';
import { publishCompare, type CompareCopies } from '@gwprof/publish';
import { renderCompareTable } from '@gwprof/render';
import { ProgressLine } from './progress.js';
import { refuseOpenLoopFlags } from './open-loop-flags.js';
import { jsonFile, jsonToStdout, JSON_OPTION_HELP, type JsonFlag } from './json-option.js';
import { throwIfBug } from './failures.js';
import {
  collectKeyValue,
  parseDuration,
  collectList,
  parseIntegerList,
  parsePercent,
  parsePort,
  parsePortList,
  parseRates,
  parseWholeNumber,
} from './options.js';
import { withInterruptSignal } from './signals.js';
import { addServiceOptions, serviceOptions, type ServiceFlags } from './service-options.js';
import { scenarioFrom, subgraphPortsFrom } from './defaults.js';
import { EXPECT_NONE_HELP, SCENARIO_FILE_HELP, chooseScenario, scenarioSourceOf } from './scenario-option.js';

const COMPARE = DEFAULTS.compare;
const DESIGN = COMPARE.design;
const COUNTING = COMPARE.instructions;

interface CompareFlags extends ServiceFlags {
  baseline?: string;
  candidate?: string;
  scenario?: string;
  baselineEnv?: Record<string, string>;
  candidateEnv?: Record<string, string>;
  baselineRun?: string;
  candidateRun?: string;
  candidatePort: number;
  candidateSubgraphPorts?: number[];
  concurrency?: number[];
  rate?: number[] | 'auto';
  arrivals: 'poisson' | 'uniform';
  maxInFlight: number;
  window: number;
  leadIn: number;
  warmup: number;
  blocksPerEpoch: number;
  windowsPerSide?: number;
  simultaneous: boolean;
  warmTogether: boolean;
  gcBeforeWindow: boolean;
  budget?: number;
  threshold?: number;
  measure: 'time' | 'instructions';
  warmupRequests: number;
  batchRequests: number;
  batchesPerEpoch: number;
  minEpochs?: number;
  baselineNode?: string;
  candidateNode?: string;
  v8Flag?: string[];
  countingV8Flags?: string;
  seedPerEpoch: boolean;
  query?: string;
  variables?: string;
  expect?: string;
  expectNone: boolean;
  candidateGoldens?: string;
  profile: boolean;
  whereFromEpochs: boolean;
  markdown?: string;
  /** A file, or true: to stdout instead of the table. */
  json?: JsonFlag;
}

export function compareCommand(): Command {
  const command = new Command('compare')
    .description(
      'did the candidate gateway get slower than the baseline? Each epoch restarts both and measures short windows of each in random order, until a test on the epochs decides',
    )
    .option('--baseline <gateway>', `baseline gateway spec: ${BUILT_IN_SPECS} or cmd:<shell command> (run in the folder you started gwprof from)`)
    .option('--candidate <gateway>', 'candidate gateway spec (same forms)')
    .option('--baseline-env <KEY=VALUE>', 'environment variable for the baseline gateway only (repeatable)', collectKeyValue('--baseline-env'))
    .option('--candidate-env <KEY=VALUE>', 'environment variable for the candidate gateway only (repeatable)', collectKeyValue('--candidate-env'))
    .option('--baseline-run <dir>', 'instead of measuring: a finished sweep run folder (deltas only, no verdict)')
    .option('--candidate-run <dir>', 'the other finished sweep run folder')
    .option('--candidate-port <port>', 'port of the candidate (the baseline takes --gateway-port)', parsePort('--candidate-port'), COMPARE.candidatePort)
    .option(
      '--candidate-subgraph-ports <list>',
      `the candidate's own addresses of accounts,reviews,products,inventory: the same subgraphs, counted apart so each side's fan-out is its own (default: --subgraph-ports + ${COMPARE.candidateSubgraphPortOffset})`,
      parsePortList('--candidate-subgraph-ports'),
    )
    .option(
      '-c, --concurrency <list>',
      `closed loop: connections per level; every epoch measures a block at each level still open (default ${COMPARE.concurrency.join(',')})`,
      parseIntegerList('--concurrency'),
    )
    .option(
      '-r, --rate <list>',
      'open loop instead: requests per second per level, the same for both sides, e.g. to measure what a plugin costs at equal load',
      parseRates,
    )
    .addOption(new Option('--arrivals <kind>', 'open loop: poisson or uniform arrivals').choices(['poisson', 'uniform']).default(DEFAULTS.sweep.arrivals))
    .option(
      '--max-in-flight <n>',
      'open loop: requests outstanding at most; beyond, sends are dropped',
      parseWholeNumber('--max-in-flight'),
      DEFAULTS.sweep.maxInFlight,
    )
    .option('--window <time>', 'how long each window is measured (a bare number is seconds)', parseDuration('--window'), DESIGN.windowSec)
    .option(
      '--lead-in <time>',
      'load before each window, on its connections, not measured (a bare number is seconds)',
      parseDuration('--lead-in', 1, { allowZero: true }),
      DESIGN.leadInSec,
    )
    .option(
      '-w, --warmup <time>',
      'longest warm-up of each side after its start; it ends once CPU per request stops falling (30s, 1m; a bare number is seconds)',
      parseDuration('--warmup', 1, { allowZero: true }),
      DESIGN.warmupSec,
    )
    .option('--blocks-per-epoch <n>', 'blocks at each level before both sides are restarted', parseWholeNumber('--blocks-per-epoch'), DESIGN.blocksPerEpoch)
    .option(
      '--windows-per-side <n>',
      `windows of each side in a block, in random order (default ${DESIGN.windowsPerSide}; ${DESIGN.windowsPerSideSimultaneous} with --simultaneous)`,
      parseWholeNumber('--windows-per-side'),
    )
    .option(
      '--simultaneous',
      'load both sides at the same time in every window, each at the level, on the shared gateway core: less noise, but every figure is then measured with the other side as neighbour (docs/compare.md)',
      DESIGN.simultaneous,
    )
    // Levers of the noise study (docs/validation/compare-error-rates.md), not of a user's comparison.
    .addOption(
      new Option('--warm-together', 'launch and warm up both sides at the same time at the start of each epoch (biased a known change upward)')
        .default(DESIGN.warmTogether)
        .hideHelp(),
    )
    .addOption(new Option('--gc-before-window', 'force a full GC on each side just before each of its windows').default(DESIGN.gcBeforeWindow).hideHelp())
    .addOption(
      new Option(
        '--measure <kind>',
        'what decides: time (CPU ms per request, in timed windows) or instructions (instructions per request counted under callgrind: repeatable on a noisy machine, blind to what a count cannot see; docs/compare.md)',
      )
        .choices(['time', 'instructions'])
        .default('time'),
    )
    .option(
      '--budget <time>',
      `stop (inconclusive, exit 3) when another epoch would run past this long: 45m, 1h (a bare number is minutes; default ${DESIGN.budgetMinutes}; ${COUNTING.budgetMinutes} with --measure instructions)`,
      parseDuration('--budget', 60),
    )
    .option(
      '--threshold <percent>',
      `no change means within ± this of the measure per request (default ${DESIGN.threshold * 100}%; ${COUNTING.threshold * 100}% with --measure instructions)`,
      parsePercent('--threshold'),
    )
    .option(
      '--warmup-requests <n>',
      'instructions: uncounted requests after each start, one at a time',
      parseWholeNumber('--warmup-requests'),
      COUNTING.warmupRequests,
    )
    .option('--batch-requests <n>', 'instructions: requests in a counted batch, one at a time', parseWholeNumber('--batch-requests'), COUNTING.batchRequests)
    .addOption(
      new Option(
        '--counting-v8-flags <flags>',
        'instructions: replace the V8 flags that make counts repeat (space-separated; for the flag study in docs/validation/compare-instructions.md)',
      ).hideHelp(),
    )
    .option(
      '--batches-per-epoch <n>',
      'instructions: counted batches of each side per pair of processes',
      parseWholeNumber('--batches-per-epoch'),
      COUNTING.batchesPerEpoch,
    )
    .option(
      '--min-epochs <n>',
      `epochs (pairs of processes) before the first look (default: time ${DESIGN.minEpochs}; instructions the fewest at which an unchanged candidate lies well within the threshold at the counts' measured noise, ${epochsNeeded({ threshold: COUNTING.threshold, alpha: DESIGN.alpha, noiseSd: COUNTING.minEpochSd })} at ±${COUNTING.threshold * 100}%)`,
      parseWholeNumber('--min-epochs', 3, ': the test needs a variance with degrees of freedom'),
    )
    .option(
      '--baseline-node <version>',
      'Node.js of the baseline: a version (22, 24.9.0, fetched once from the npm registry), a path to node, or current',
      'current',
    )
    .option('--candidate-node <version>', 'Node.js of the candidate (same forms): compare one gateway on two Node versions', 'current')
    .option('--v8-flag <flag>', "a V8 flag on both sides' node command lines, e.g. --single-threaded-gc (repeatable)", collectList)
    .option('--seed-per-epoch', 'give both sides the same fresh --hash-seed and --random-seed every epoch', DESIGN.seedPerEpoch)
    .option('--scenario <name|file>', `the requests: ${SCENARIO_FILE_HELP}, or a built-in scenario by name (default: the query below)`)
    .option(
      '--query <file>',
      `GraphQL query to POST (default: ${path.relative(process.cwd(), COMPARE.scenario.query)}, with its variable sets cycled per request and their golden responses)`,
    )
    .option('--variables <file>', 'JSON variables: an object, or a list cycled per request')
    .option('--expect <file>', 'golden {"data": …}, or a list of them, one per variables entry')
    .option(
      '--candidate-goldens <file>',
      "the candidate's own goldens, for a PR that changes answers on purpose: a goldens file (with --scenario FILE) or an expected-response file (with --query); the baseline keeps the scenario's (docs/scenario-file.md)",
    )
    .option('--expect-none', EXPECT_NONE_HELP, false)
    .option('--no-profile', 'do not CPU-profile the windows (no bucket or function moves)')
    .option(
      '--where-from-epochs',
      "instructions, Node gateways: show where the instructions went from the verdict's own last epoch instead of one more pair after it (minutes sooner; every epoch runs with V8's perf map; no callers are kept, so stacks are guessed from the call edges and the buckets are a guess: a library's callbacks, such as graphql-js's printer called by a plugin, may land in other)",
      false,
    )
    .option('--markdown <file>', 'write a PR comment in markdown')
    .option('--json [file]', `the comparison (compare.json) ${JSON_OPTION_HELP}`);
  refuseOpenLoopFlags(command, ['--arrivals', '--max-in-flight'], (load) => load.rate === undefined);
  return addServiceOptions(command).action(async (flags: CompareFlags) => {
    process.exitCode = await compareAction(flags);
  });
}

/**
 * A comparison's options from its command line's arguments, as `gwprof compare` would take them:
 * a bisection confirms a step by running exactly its reproduce line.
 */
export function compareOptionsFromArgs(args: string[], signal: AbortSignal, progress: ProgressLine): CompareOptions {
  let parsed: CompareFlags | null = null;
  const command = compareCommand()
    .exitOverride()
    .action((flags: CompareFlags) => {
      parsed = flags;
    });
  command.parse(args, { from: 'user' });
  return compareOptions(parsed!, signal, progress);
}

async function compareAction(flags: CompareFlags): Promise<number> {
  const json = jsonFile(flags.json);
  const copies: CompareCopies = { ...(flags.markdown ? { markdown: flags.markdown } : {}), ...(json ? { json } : {}) };
  if (flags.baselineRun || flags.candidateRun) return compareRunsAction(flags, copies);
  if (!flags.baseline || !flags.candidate) throw new GwprofError('compare needs --baseline and --candidate gateways (or --baseline-run and --candidate-run)');
  const progress = new ProgressLine();
  const { runDir, failure } = await withInterruptSignal((signal) => runComparison(compareOptions(flags, signal, progress)));
  progress.update('analysing profiles and writing the report…', true);
  const compare = await publishCompare(runDir, copies);
  printCompareOrJson(compare, runDir, flags);
  throwIfBug(failure);
  return compareExitCode(compare);
}

async function compareRunsAction(flags: CompareFlags, copies: CompareCopies): Promise<number> {
  if (!flags.baselineRun || !flags.candidateRun) throw new GwprofError('--baseline-run and --candidate-run go together');
  if (flags.baseline || flags.candidate)
    throw new GwprofError('give either --baseline/--candidate (measure) or --baseline-run/--candidate-run (finished runs), not both');
  const runId = flags.runId ?? makeRunId('compare');
  const runDir = path.resolve(flags.out, runId);
  recordFinishedRunsComparison({
    baselineDir: path.resolve(flags.baselineRun),
    candidateDir: path.resolve(flags.candidateRun),
    runDir,
    runId,
    commandLine: process.argv.slice(2),
  });
  const compare = await publishCompare(runDir, copies);
  printCompareOrJson(compare, runDir, flags);
  return compareExitCode(compare);
}

/** The flags as collect's options: defaults filled in, nothing else. */
function compareOptions(flags: CompareFlags, signal: AbortSignal, progress: ProgressLine): CompareOptions {
  if (flags.gcBeforeWindow && !flags.profile)
    throw new GwprofError("--gc-before-window forces the GC through gwprof's preload, which --no-profile leaves out: drop one of them");
  const counting = flags.measure === 'instructions';
  if (counting && (flags.concurrency || flags.rate))
    throw new GwprofError('--measure instructions sends requests one at a time: leave out --concurrency and --rate');
  const load = counting ? { load: { kind: 'closed' as const }, levels: [1] } : loadOf(flags);
  const threshold = (flags.threshold ?? (counting ? COUNTING.threshold * 100 : DESIGN.threshold * 100)) / 100;
  return {
    ...serviceOptions(flags),
    baseline: flags.baseline!,
    candidate: flags.candidate!,
    baselineEnv: flags.baselineEnv ?? {},
    candidateEnv: flags.candidateEnv ?? {},
    candidatePort: flags.candidatePort,
    candidateSubgraphPorts: subgraphPortsFrom(
      flags.candidateSubgraphPorts ?? flags.subgraphPorts.map((port) => port + COMPARE.candidateSubgraphPortOffset),
      '--candidate-subgraph-ports',
    ),
    ...load,
    scenario: flags.scenario ? scenarioSourceOf(chooseScenario(flags.scenario), flags, COMPARE.scenario) : scenarioFrom(flags, COMPARE.scenario),
    ...(flags.candidateGoldens ? { candidateGoldens: flags.candidateGoldens } : {}),
    ...(flags.baselineNode ? { baselineNode: flags.baselineNode } : {}),
    ...(flags.candidateNode ? { candidateNode: flags.candidateNode } : {}),
    design: {
      threshold,
      alpha: DESIGN.alpha,
      minEpochs: flags.minEpochs ?? (counting ? epochsNeeded({ threshold, alpha: DESIGN.alpha, noiseSd: COUNTING.minEpochSd }) : DESIGN.minEpochs),
      spendingPower: DESIGN.spendingPower,
      holdWithoutFarthest: !counting && DESIGN.holdWithoutFarthest,
      windowSec: flags.window,
      leadInSec: flags.leadIn,
      warmupSec: flags.warmup,
      blocksPerEpoch: flags.blocksPerEpoch,
      windowsPerSide: flags.windowsPerSide ?? (flags.simultaneous ? DESIGN.windowsPerSideSimultaneous : DESIGN.windowsPerSide),
      simultaneous: flags.simultaneous,
      warmTogether: flags.warmTogether,
      gcBeforeWindow: flags.gcBeforeWindow,
      budgetMinutes: flags.budget ?? (counting ? COUNTING.budgetMinutes : DESIGN.budgetMinutes),
      measure: flags.measure,
      ...(counting
        ? {
            instructions: {
              warmupRequests: flags.warmupRequests,
              batchRequests: flags.batchRequests,
              batchesPerEpoch: flags.batchesPerEpoch,
              // --where-from-epochs reads the verdict's own batches: V8's perf map in every epoch.
              v8Flags: [
                ...(flags.countingV8Flags !== undefined ? flags.countingV8Flags.split(/\s+/).filter(Boolean) : COUNTING.v8Flags),
                ...(flags.v8Flag ?? []),
                ...(flags.profile && flags.whereFromEpochs ? WHERE_V8_FLAGS : []),
              ],
              valgrindArgs: [...CALLGRIND_ARGS, ...(flags.profile && flags.whereFromEpochs ? WHERE_VALGRIND_ARGS : [])],
              minEpochSd: COUNTING.minEpochSd,
              profileCallers: flags.profile ? COUNTING.profileCallers : 0,
              profileRequests: COUNTING.profileRequests,
            },
          }
        : {}),
      v8Flags: flags.v8Flag ?? [...DESIGN.v8Flags],
      seedPerEpoch: flags.seedPerEpoch,
    },
    profile: flags.profile,
    signal,
    onProgress: (line, final) => progress.update(line, final),
  };
}

/** Closed loop at --concurrency levels, or open loop at --rate levels. */
function loadOf(flags: CompareFlags): Pick<CompareOptions, 'load' | 'levels'> {
  if (flags.rate !== undefined && flags.concurrency !== undefined) throw new GwprofError('give --concurrency (closed loop) or --rate (open loop), not both');
  if (flags.rate === 'auto') throw new GwprofError('compare --rate takes a list of rates (auto is for sweeps)');
  if (flags.rate) return { load: { kind: 'open', arrivals: flags.arrivals, maxInFlight: flags.maxInFlight }, levels: flags.rate };
  return { load: { kind: 'closed' }, levels: flags.concurrency ?? [...COMPARE.concurrency] };
}

/** The table, or with a bare --json the comparison as JSON on stdout (the run folder still has everything). */
function printCompareOrJson(compare: PublishedCompare, runDir: string, flags: Pick<CompareFlags, 'json' | 'color'>): void {
  if (jsonToStdout(flags.json)) process.stdout.write(`${JSON.stringify(compare, null, 2)}\n`);
  else printCompare(compare, runDir, colorWanted(flags.color));
}

export function printCompare(compare: PublishedCompare, runDir: string, color: boolean): void {
  process.stdout.write(`\n${renderCompareTable(compare, { color })}\n\nrun folder: ${runDir}\n`);
}

/** The record's exit code (analysis's comparisonOutcome through exitCodeOf), its reason on stderr when there is no verdict. */
export function compareExitCode(compare: PublishedCompare): number {
  // No verdict: its reason on stderr too, where a CI log shows it next to the exit code.
  if (compare.analysis.exitCode === EXIT.error) for (const reason of compare.analysis.verdictReasons) process.stderr.write(`gwprof: ${reason}\n`);
  return compare.analysis.exitCode;
}
