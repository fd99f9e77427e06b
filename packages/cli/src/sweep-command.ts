import path from 'node:path';
import { colorWanted } from './color.js';
import { BUILT_IN_SPECS } from './gateway-specs.js';
import { Command, Option } from 'commander';
import { DEFAULTS, SCENARIOS, TRACE_CONTEXT_ENV, findK6, runSweep, type SweepOptions } from '@gwprof/collect';
import { publishRun } from '@gwprof/publish';
import { allocationFramesNote, renderAllocationTable, renderBucketTable, renderCapacityLines, renderStepTable, runUnattributedLines } from '@gwprof/render';
import { EXIT, GwprofError, writeJsonAtomic, type LoadShape, type RunResult, type Slo } from '@gwprof/results';
import { ProgressLine } from './progress.js';
import { refuseOpenLoopFlags } from './open-loop-flags.js';
import { jsonFile, jsonToStdout, JSON_OPTION_HELP, type JsonFlag } from './json-option.js';
import { throwIfBug } from './failures.js';
import { collectKeyValue, parseDuration, parseIntegerList, parsePercent, parseRates, parseSlo, parseWholeNumber } from './options.js';
import { withInterruptSignal } from './signals.js';
import { addServiceOptions, serviceOptions, type ServiceFlags } from './service-options.js';
import { EXPECT_NONE_HELP, chooseScenario, gatewayOf, scenarioHelp, scenarioSourceOf } from './scenario-option.js';

const { sweep: SWEEP, quick: QUICK } = DEFAULTS;

interface SweepFlags extends ServiceFlags {
  gateway: string;
  gatewayPid?: number;
  gatewayEnv?: Record<string, string>;
  concurrency?: number[];
  rate?: number[] | 'auto';
  arrivals: 'poisson' | 'uniform';
  maxInFlight: number;
  slo?: Slo;
  duration?: number;
  maxDuration?: number;
  warmup?: number;
  quick?: boolean;
  scenario: string;
  query?: string;
  variables?: string;
  expect?: string;
  expectNone?: boolean;
  minSuccess: number;
  profile: boolean;
  allocationAttribution: boolean;
  /** A file, or true: to stdout instead of the tables. */
  json?: JsonFlag;
  profiler: 'inspector' | 'clinic' | '0x';
  engine: 'gwprof' | 'k6';
  k6?: string;
  trace: boolean;
  gatewaySpans: boolean;
}

export function sweepCommand(): Command {
  const command = new Command('sweep')
    .description('start the subgraphs and a gateway, sweep load over concurrency levels, validate every response and profile the gateway')
    .option(
      '-g, --gateway <spec>',
      `gateway under test: ${BUILT_IN_SPECS}, cmd:<shell command> (run in the folder you started gwprof from; gets PORT and SUBGRAPH_<NAME>_URL), or url:<http://127.0.0.1:…> for one already running (e.g. by gwprof up); default: a scenario file's gateway: (run in its folder), else mesh`,
      DEFAULTS.gateway,
    )
    .option(
      '--gateway-pid <pid>',
      'with --gateway url:…, its local process: CPU and memory from /proc, CPU profile through its inspector when it is Node.js',
      parseWholeNumber('--gateway-pid'),
    )
    .option('--gateway-env <KEY=VALUE>', 'environment variable for the gateway process only (repeatable)', collectKeyValue('--gateway-env'))
    .option(
      '-c, --concurrency <list>',
      `closed loop: concurrent connections per step (default ${SWEEP.concurrency.join(',')}; --quick: ${QUICK.concurrency.join(',')})`,
      parseIntegerList('--concurrency'),
    )
    .option(
      '-r, --rate <list|auto>',
      'open loop instead: target requests per second per step (e.g. 50,100,200), or auto: find the closed-loop peak, then step from ~10% to ~120% of it',
      parseRates,
    )
    .addOption(
      new Option('--arrivals <kind>', 'open loop: poisson (random, like independent users) or uniform (evenly spaced)')
        .choices(['poisson', 'uniform'])
        .default(SWEEP.arrivals),
    )
    .option(
      '--max-in-flight <n>',
      'open loop: requests outstanding at most; sends beyond are counted as dropped, never queued',
      parseWholeNumber('--max-in-flight'),
      SWEEP.maxInFlight,
    )
    .option(
      '--slo <targets>',
      'targets for the highest rate that meets them, e.g. p99=500ms,success=99.99% (keys: mean, p50, p80, p95, p99, success)',
      parseSlo,
    )
    .option(
      '-d, --duration <time>',
      `shortest measured window per step; it grows to hold ≥ ${DEFAULTS.windowMinimums.minRoundTrips} round trips and ${DEFAULTS.windowMinimums.minResponses} responses (default ${SWEEP.durationSec}; --quick: ${QUICK.durationSec})`,
      parseDuration('--duration'),
    )
    .option(
      '--max-duration <time>',
      `longest measured window per step (default ${SWEEP.maxDurationSec}; --quick: ${QUICK.maxDurationSec})`,
      parseDuration('--max-duration'),
    )
    .option(
      '-w, --warmup <time>',
      `longest warm-up per step, on the same connections; it ends once throughput stops trending (30s, 1m; a bare number is seconds; default ${SWEEP.warmupSec}; --quick: ${QUICK.warmupSec})`,
      parseDuration('--warmup', 1, { allowZero: true }),
    )
    .option('-q, --quick', 'a short run that still exercises everything (two levels, short steps)', false)
    .option('--scenario <name|file>', scenarioHelp(), SWEEP.scenario)
    .option('--query <file>', "GraphQL query to POST instead of the scenario's (the queries gwprof ships bring their variables and golden responses)")
    .option('--variables <file>', 'JSON variables: an object, or a list cycled per request')
    .option('--expect <file>', 'golden {"data": …} (or a list, one per variables entry); the queries gwprof ships have theirs')
    .option('--expect-none', EXPECT_NONE_HELP, false)
    .option('--min-success <percent>', 'a step with a lower success rate fails the run', parsePercent('--min-success'), SWEEP.minSuccess * 100)
    .option('--json [file]', `the run record (results.json, its analysis included) ${JSON_OPTION_HELP}`)
    .option('--no-profile', 'do not CPU-profile the gateway')
    .option(
      '--no-allocation-attribution',
      `do not sample allocations again after each step with inlining off (${DEFAULTS.allocationAttribution.rewarmSec} s re-warm, ${DEFAULTS.allocationAttribution.seconds} s sampled): a function V8 inlined then has its bytes charged to its caller (docs/allocations.md)`,
    )
    .addOption(
      new Option('--engine <name>', 'who sends the load: gwprof, or k6 running the exported script (gwprof export k6) with the same validation')
        .choices(['gwprof', 'k6'])
        .default('gwprof'),
    )
    .option('--k6 <path>', 'the k6 binary for --engine k6 (default: k6 on PATH)')
    .option(
      '--trace',
      `a W3C traceparent on every request, the built-in gateways forwarding it; per step, where ${DEFAULTS.traceSampling.perWindow} sampled requests' time went: before the first subgraph call, the subgraph critical path, gaps, after the last answer (docs/traces.md)`,
      false,
    )
    .option(
      '--no-gateway-spans',
      "with --trace: no OTLP receiver, the gateway's own OpenTelemetry export left off (by default gwprof receives the spans of a gateway that exports them: Hive Gateway, a cmd: reading GWPROF_OTLP_ENDPOINT; and places its phases in each traced request)",
    )
    .addOption(
      new Option('--profiler <kind>', 'inspector: V8 sampler per step (flame graph and buckets per step); clinic or 0x: wrap the gateway for the whole run')
        .choices(['inspector', 'clinic', '0x'])
        .default(SWEEP.profiler),
    );
  refuseOpenLoopFlags(command, ['--slo', '--arrivals', '--max-in-flight'], (load) => load.rate === undefined);
  return addServiceOptions(command).action(async (flags: SweepFlags, self: Command) => {
    process.exitCode = await sweepAction(flags, self.getOptionValueSource('gateway'));
  });
}

/** The flags as collect's options: defaults filled in, nothing else. */
function sweepOptions(flags: SweepFlags, gatewaySource: string | undefined, signal: AbortSignal, progress: ProgressLine): SweepOptions {
  const preset = flags.quick ? QUICK : SWEEP;
  const chosen = chooseScenario(flags.scenario);
  const scenario = chosen.preset;
  const services = serviceOptions(flags);
  return {
    ...services,
    // The scenario's isolation (seed 000: 1 CPU, 512 MB) unless the flags say otherwise.
    ...(scenario?.gatewayCpus !== undefined && services.gatewayCpus === undefined ? { gatewayCpus: scenario.gatewayCpus } : {}),
    ...(scenario?.gatewayMemoryMB !== undefined && services.gatewayMemoryMB === undefined ? { gatewayMemoryMB: scenario.gatewayMemoryMB } : {}),
    ...gatewayOf(flags.gateway, gatewaySource, chosen),
    ...(flags.gatewayPid !== undefined ? { gatewayPid: flags.gatewayPid } : {}),
    gatewayEnv: { ...(flags.gatewayEnv ?? {}), ...(flags.trace ? { [TRACE_CONTEXT_ENV]: '1' } : {}) },
    ...(flags.trace ? { trace: traceSampling(flags), gatewaySpans: flags.gatewaySpans } : {}),
    scenarioName: chosen.name,
    levels: levelsOf(flags, flags.concurrency ?? [...(flags.quick || !scenario ? preset.concurrency : scenario.concurrency)]),
    ...(flags.rate === 'auto' ? { autoRate: { arrivals: flags.arrivals, maxInFlight: flags.maxInFlight } } : {}),
    slo: flags.slo ?? null,
    durationSec: flags.duration ?? preset.durationSec,
    maxDurationSec: Math.max(flags.maxDuration ?? preset.maxDurationSec, flags.duration ?? preset.durationSec),
    warmupSec: flags.warmup ?? preset.warmupSec,
    settleSec: DEFAULTS.settleSec,
    scenario: scenarioSourceOf(chosen, flags, SCENARIOS[SWEEP.scenario]!.files),
    minSuccess: flags.minSuccess / 100,
    profiler: flags.profile ? flags.profiler : 'none',
    allocationAttribution: flags.allocationAttribution ? { ...DEFAULTS.allocationAttribution } : null,
    quick: flags.quick === true,
    ...(flags.engine === 'k6' ? { engine: { kind: 'k6' as const, k6: findK6(flags.k6) } } : {}),
    signal,
    onProgress: (line, final) => progress.update(line, final),
  };
}

/** --trace's sample; k6 sends requests of its own, without a traceparent. */
function traceSampling(flags: SweepFlags): { perSecond: number; perWindow: number } {
  if (flags.engine === 'k6') throw new GwprofError("--trace needs gwprof's own engine: leave out --engine k6");
  return { ...DEFAULTS.traceSampling };
}

/** The steps' loads: the --rate list (open loop), or connections (closed loop). */
function levelsOf(flags: SweepFlags, concurrency: number[]): LoadShape[] {
  if (flags.rate !== undefined && flags.concurrency !== undefined) throw new GwprofError('give --concurrency (closed loop) or --rate (open loop), not both');
  if (flags.rate === 'auto') return [];
  if (flags.rate) return flags.rate.map((targetRps) => ({ kind: 'open', targetRps, arrivals: flags.arrivals, maxInFlight: flags.maxInFlight }));
  return concurrency.map((c) => ({ kind: 'closed', concurrency: c }));
}

async function sweepAction(flags: SweepFlags, gatewaySource: string | undefined): Promise<number> {
  const progress = new ProgressLine();
  const { runDir, failure } = await withInterruptSignal((signal) => runSweep(sweepOptions(flags, gatewaySource, signal, progress)));
  progress.update('analysing profiles and writing the report…', true);
  const { run, summary, report } = await publishRun(runDir);
  if (jsonToStdout(flags.json)) process.stdout.write(`${JSON.stringify(run, null, 2)}\n`);
  else printRun(run, runDir, [summary, report], colorWanted(flags.color));
  const file = jsonFile(flags.json);
  if (file) writeJsonAtomic(path.resolve(file), run);
  throwIfBug(failure);
  return exitCode(run);
}

export function printRun(run: RunResult, runDir: string, files: string[], color: boolean): void {
  process.stdout.write(`\n${renderStepTable(run, { color })}\n`);
  const buckets = renderBucketTable(run);
  if (buckets) {
    process.stdout.write(`\nWhere the gateway's CPU went (% of its sampled time):\n${buckets}\n`);
    process.stdout.write(`\nWhat each bucket cost (CPU ms per successful request):\n${renderBucketTable(run, 'ms')}\n`);
    const unattributed = runUnattributedLines(run);
    if (unattributed.length > 0) process.stdout.write(`\n${unattributed.join('\n')}\n`);
  }
  const allocations = renderAllocationTable(run);
  if (allocations)
    process.stdout.write(
      `\nWhat each request allocated (kB per successful request; GC is Node's account of the same window):\n${allocations}\n${framesLine(run)}`,
    );
  const capacity = renderCapacityLines(run);
  if (capacity) process.stdout.write(`\n${capacity}\n`);
  process.stdout.write(`\nrun folder: ${runDir}\n  results.json, ${files.map((f) => path.basename(f)).join(', ')}, logs/\n`);
}

function framesLine(run: RunResult): string {
  const note = allocationFramesNote(run);
  return note ? `${note}\n` : '';
}

/** record.analysis.exitCode (sweep-outcome.ts: 0 every step ok, 1 a step failed, 2 harness error, 130 interrupted), its reasons on stderr. */
export function exitCode(run: RunResult): number {
  const analysis = run.analysis;
  if (!analysis) throw new Error('the run was not published: no exit code to exit with');
  for (const reason of analysis.exitReasons) process.stderr.write(analysis.exitCode === EXIT.interrupted ? `${reason}\n` : `gwprof: ${reason}\n`);
  for (const fix of analysis.fixes ?? []) process.stderr.write(`gwprof: to fix: ${fix}\n`);
  return analysis.exitCode;
}
