/** `gwprof soak`: hours of steady load on one gateway, its memory read in every interval's calm (a Node gateway's after a forced GC), a leak verdict. */
import path from 'node:path';
import { BUILT_IN_SPECS } from './gateway-specs.js';
import { Command, Option } from 'commander';
import { DEFAULTS, SCENARIOS, allocatorMetricSource, runSoak, type SitesWhen, type SoakOptions } from '@gwprof/collect';
import { publishSoak } from '@gwprof/publish';
import { renderSoakTerminal } from '@gwprof/render';
import { GwprofError, type SoakResult } from '@gwprof/results';
import { ProgressLine } from './progress.js';
import { refuseOpenLoopFlags } from './open-loop-flags.js';
import { JSON_OPTION_HELP, writeJsonFlag, type JsonFlag } from './json-option.js';
import { throwIfBug } from './failures.js';
import { collectKeyValue, parseDuration, parsePositiveNumber, parseWholeNumber } from './options.js';
import { withInterruptSignal } from './signals.js';
import { addServiceOptions, serviceOptions, type ServiceFlags } from './service-options.js';
import { EXPECT_NONE_HELP, chooseScenario, gatewayOf, scenarioHelp, scenarioSourceOf } from './scenario-option.js';
import { addReloadOptions, reloadOptions, type ReloadFlags } from './soak-reload-options.js';

const SOAK = DEFAULTS.soak;

interface SoakFlags extends ServiceFlags, ReloadFlags {
  gateway: string;
  json?: JsonFlag;
  scenario: string;
  expectNone?: boolean;
  gatewayEnv?: Record<string, string>;
  rate?: number;
  concurrency?: number;
  arrivals: 'poisson' | 'uniform';
  duration: number;
  interval?: number;
  /** Given, or left to the gateway's kind (soakCalmSec). */
  calm?: number;
  snapshotEvery?: number;
  warmup?: number;
  leakThreshold: number;
  sites: SitesWhen;
  allocatorMetric?: string;
  query?: string;
  variables?: string;
  expect?: string;
}

export function soakCommand(): Command {
  const command = new Command('soak')
    .description(
      'hours of steady load on one gateway: memory, latency and throughput over time, a forced GC and the heap after it every interval, heap snapshots, and a leak verdict',
    )
    .option(
      '-g, --gateway <spec>',
      `gateway under test: ${BUILT_IN_SPECS} or cmd:<shell command> (run in the folder you started gwprof from; soak starts it itself: a Node gateway's heap is read through the preload, a native one's memory from /proc)`,
      DEFAULTS.gateway,
    )
    .option('--gateway-env <KEY=VALUE>', 'environment variable for the gateway process only (repeatable)', collectKeyValue('--gateway-env'))
    .option(
      '-r, --rate <req/s>',
      `open loop at this rate (default: ${SOAK.rateFraction * 100}% of the closed-loop peak, probed first)`,
      parsePositiveNumber('--rate'),
    )
    .option('-c, --concurrency <n>', 'closed loop at this many connections instead', parseWholeNumber('--concurrency'))
    .addOption(new Option('--arrivals <kind>', 'open loop: poisson or uniform arrivals').choices(['poisson', 'uniform']).default(DEFAULTS.sweep.arrivals))
    .option('-d, --duration <time>', 'how long: 90s, 30m, 24h, 7d (a bare number is seconds)', parseDuration('--duration'), SOAK.durationSec)
    .option(
      '--interval <time>',
      `load, then a calm with a forced GC, every this long (default: the duration / ${SOAK.intervalsPerSoak}, within ${SOAK.minIntervalSec} s – ${SOAK.maxIntervalSec / 60} min)`,
      parseDuration('--interval'),
    )
    .option(
      '--calm <time>',
      `how long without load before each interval's memory reading (a bare number is seconds; default: ${SOAK.calmSec} s for mesh, hive and apollo, whose heap is read after a forced GC; ${SOAK.nativeCalmSec} s, at most a third of the interval, for a native or cmd: gateway, whose allocator returns freed pages slowly)`,
      parseDuration('--calm'),
    )
    .option(
      '--snapshot-every <n>',
      `a heap snapshot after the last interval, and every n intervals while heap or external memory grows (default: about ${SOAK.snapshotsPerSoak} per soak that grows; 0: none)`,
      parseWholeNumber('--snapshot-every', 0),
    )
    .option(
      '-w, --warmup <time>',
      'the first part of the soak, where caches fill, which the verdict leaves out (default: two intervals or a tenth of the soak, at most 30 min)',
      parseDuration('--warmup', 1, { allowZero: true }),
    )
    .option(
      '--leak-threshold <bytes>',
      'memory growth per successful request that counts as a leak',
      parsePositiveNumber('--leak-threshold'),
      SOAK.leakThresholdBytesPerRequest,
    )
    .addOption(
      new Option(
        '--sites <when>',
        "a native gateway's allocation sites of the bytes still live, counted after the soak under valgrind's DHAT: after a leak verdict, always, or never",
      )
        .choices(['leak', 'always', 'never'])
        .default('leak'),
    )
    .option(
      '--allocator-metric <url#metric>',
      "a cmd: gateway's allocator live bytes on a Prometheus endpoint, read at each calm and judged instead of RssAnon: http://127.0.0.1:PORT/metrics#NAME (apollo-router's jemalloc statistics are read without it)",
    )
    .option('--scenario <name|file>', scenarioHelp(), SOAK.scenario)
    .option('--query <file>', 'GraphQL query to POST instead of the default stream')
    .option('--variables <file>', 'JSON variables: an object, or a list cycled per request')
    .option('--expect <file>', 'golden {"data": …}, or a list of them, one per variables entry')
    .option('--expect-none', EXPECT_NONE_HELP, false)
    .option('--json [file]', `the soak record (results.json, its analysis included) ${JSON_OPTION_HELP}`);
  refuseOpenLoopFlags(command, ['--arrivals'], (load) => load.concurrency !== undefined);
  return addServiceOptions(addReloadOptions(command), { profiling: false }).action(async (flags: SoakFlags, self: Command) => {
    process.exitCode = await soakAction(flags, self.getOptionValueSource('gateway'));
  });
}

/** The interval, calm, snapshots and warm-up the flags leave to the duration and the gateway. */
export function soakSchedule(flags: Pick<SoakFlags, 'duration' | 'interval' | 'calm' | 'snapshotEvery' | 'warmup' | 'gateway'>): {
  intervalSec: number;
  calmSec: number;
  snapshotEvery: number;
  warmupSec: number;
} {
  if (flags.interval === undefined && flags.duration < SOAK.minIntervalSec) {
    throw new GwprofError(
      `--duration (${flags.duration} s) is shorter than one interval (at least ${SOAK.minIntervalSec} s): give a longer --duration, or a shorter --interval`,
    );
  }
  const intervalSec = flags.interval ?? Math.min(SOAK.maxIntervalSec, Math.max(SOAK.minIntervalSec, Math.round(flags.duration / SOAK.intervalsPerSoak)));
  if (intervalSec > flags.duration) throw new GwprofError(`--interval (${intervalSec} s) is longer than --duration (${flags.duration} s)`);
  const calmOf = flags.interval === undefined ? `the interval (${intervalSec} s, from --duration)` : `--interval (${intervalSec} s)`;
  const calmSec = flags.calm ?? soakCalmSec(flags.gateway, intervalSec);
  if (calmSec >= intervalSec) throw new GwprofError(`--calm (${calmSec} s) must be shorter than ${calmOf}`);
  const intervals = Math.max(1, Math.round(flags.duration / intervalSec));
  const snapshotEvery = flags.snapshotEvery ?? Math.max(1, Math.round(intervals / (SOAK.snapshotsPerSoak - 1)));
  const warmupSec = flags.warmup ?? Math.min(SOAK.maxWarmupSec, Math.max(2 * intervalSec, flags.duration / 10));
  return { intervalSec, calmSec, snapshotEvery, warmupSec };
}

/** The calm a soak takes when --calm is not given: a Node built-in's forced GC needs little; an allocator's page return more. */
export function soakCalmSec(gateway: string, intervalSec: number): number {
  const nodeBuiltIn = /^(mesh|hive|apollo)(@|$)/.test(gateway);
  return nodeBuiltIn ? SOAK.calmSec : Math.max(1, Math.min(SOAK.nativeCalmSec, Math.floor(intervalSec / 3)));
}

function soakOptions(flags: SoakFlags, gatewaySource: string | undefined, signal: AbortSignal, progress: ProgressLine): SoakOptions {
  if (flags.rate !== undefined && flags.concurrency !== undefined) throw new GwprofError('give --rate (open loop) or --concurrency (closed loop), not both');
  const services = serviceOptions(flags);
  const chosen = chooseScenario(flags.scenario);
  const gateway = gatewayOf(flags.gateway, gatewaySource, chosen);
  const schedule = soakSchedule({ ...flags, gateway: gateway.gateway });
  return {
    ...services,
    ...gateway,
    gatewayEnv: flags.gatewayEnv ?? {},
    scenarioName: chosen.name,
    scenario: scenarioSourceOf(chosen, flags, SCENARIOS[SOAK.scenario]!.files),
    load:
      flags.concurrency !== undefined
        ? { kind: 'closed', concurrency: flags.concurrency }
        : { kind: 'open', rate: flags.rate ?? null, arrivals: flags.arrivals },
    rateFraction: SOAK.rateFraction,
    durationSec: flags.duration,
    ...schedule,
    reload: reloadOptions(flags, gateway.gateway, schedule.intervalSec, schedule.calmSec),
    snapshotsKept: SOAK.snapshotsKept,
    leakThresholdBytesPerRequest: flags.leakThreshold,
    sites: flags.sites,
    allocatorMetric: flags.allocatorMetric === undefined ? null : allocatorMetricSource(flags.allocatorMetric),
    signal,
    onProgress: (line, final) => progress.update(line, final),
  };
}

async function soakAction(flags: SoakFlags, gatewaySource: string | undefined): Promise<number> {
  const progress = new ProgressLine();
  const { runDir, failure } = await withInterruptSignal((signal) => runSoak(soakOptions(flags, gatewaySource, signal, progress)));
  progress.update('analysing the soak and writing the report…', true);
  const { soak, summary, report } = await publishSoak(runDir);
  if (!writeJsonFlag(flags.json, soak)) {
    process.stdout.write(
      `\n${renderSoakTerminal(soak)}\n\nrun folder: ${runDir}\n  results.json, ${[summary, report].map((f) => path.basename(f)).join(', ')}, logs/\n`,
    );
  }
  throwIfBug(failure);
  return soakExitCode(soak);
}

/** record.analysis.exitCode (soak-outcome.ts: 0 no leak, 1 leak or crash, 2 harness error, 3 inconclusive, 130 interrupted). */
export function soakExitCode(soak: SoakResult): number {
  const analysis = soak.analysis;
  if (!analysis) throw new Error('the soak was not published: no exit code to exit with');
  for (const reason of analysis.exitReasons) process.stderr.write(`${reason}\n`);
  return analysis.exitCode;
}
