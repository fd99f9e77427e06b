import path from 'node:path';
import { Command, Option } from 'commander';
import { runSweep } from '@gwprof/collect';
import { writeRunResult } from '@gwprof/results';
import { renderBucketTable, renderStepTable } from '@gwprof/render';
import { ProgressLine } from './progress.js';
import { collectKeyValue, parseIntegerList, parsePercent, parsePositiveNumber } from './options.js';
import { publishRun, publishStepProfile } from './publish.js';
import { withInterruptSignal } from './signals.js';
import { addServiceOptions, type ServiceFlags } from './service-options.js';
import { DEFAULT_EXPECT, DEFAULT_QUERY, expectedResponseFile, subgraphPortsFrom } from './defaults.js';

export const DEFAULT_CONCURRENCY = [10, 100, 300, 500, 1000];
const QUICK = { concurrency: [10, 100], durationSec: 5, warmupSec: 2 };

interface SweepFlags extends ServiceFlags {
  gateway: string;
  gatewayEnv?: Record<string, string>;
  concurrency?: number[];
  duration?: number;
  warmup?: number;
  quick?: boolean;
  query?: string;
  variables?: string;
  expect?: string;
  expectNone?: boolean;
  minSuccess: number;
  profile: boolean;
  profiler: 'inspector' | 'clinic' | '0x';
}

export function sweepCommand(): Command {
  const command = new Command('sweep')
    .description('start the subgraphs and a gateway, sweep load over concurrency levels, validate every response and profile the gateway')
    .option('-g, --gateway <spec>', 'gateway under test: mesh, hive, apollo, or cmd:<shell command> (gets PORT and SUBGRAPH_<NAME>_URL)', 'mesh')
    .option('--gateway-env <KEY=VALUE>', 'environment variable for the gateway process only (repeatable)', collectKeyValue('--gateway-env'))
    .option('-c, --concurrency <list>', `concurrent connections per step (default ${DEFAULT_CONCURRENCY.join(',')}; --quick: ${QUICK.concurrency.join(',')})`, parseIntegerList('--concurrency'))
    .option('-d, --duration <seconds>', `measured seconds per step (default 20; --quick: ${QUICK.durationSec})`, parsePositiveNumber('--duration'))
    .option('-w, --warmup <seconds>', `discarded warm-up seconds before each step (default 5; --quick: ${QUICK.warmupSec})`, parsePositiveNumber('--warmup', { allowZero: true }))
    .option('-q, --quick', 'a short run that still exercises everything (two levels, short steps)', false)
    .option('--query <file>', 'GraphQL query to POST', DEFAULT_QUERY)
    .option('--variables <file>', 'JSON variables: an object, or a list cycled per request')
    .option('--expect <file>', `golden {"data": …} (or a list, one per variables entry); default: ${path.relative(process.cwd(), DEFAULT_EXPECT)} for the default query`)
    .option('--expect-none', 'do not compare data with a golden response (status and errors are still checked)', false)
    .option('--min-success <percent>', 'a step with a lower success rate fails the run', parsePercent('--min-success'), 100)
    .option('--no-profile', 'do not CPU-profile the gateway')
    .addOption(new Option('--profiler <kind>', 'inspector: V8 sampler per step (flame graph and buckets per step); clinic or 0x: wrap the gateway for the whole run').choices(['inspector', 'clinic', '0x']).default('inspector'));
  return addServiceOptions(command).action(async (flags: SweepFlags) => {
    process.exitCode = await sweepAction(flags);
  });
}

async function sweepAction(flags: SweepFlags): Promise<number> {
  const subgraphPorts = subgraphPortsFrom(flags.subgraphPorts);
  const queryFile = path.resolve(flags.query ?? DEFAULT_QUERY);
  const expectFile = expectedResponseFile(queryFile, flags.expect, flags.expectNone);
  const progress = new ProgressLine();
  const color = flags.color && process.stdout.isTTY === true;

  const { run, runDir } = await withInterruptSignal((signal) =>
    runSweep({
      gateway: flags.gateway,
      gatewayEnv: flags.gatewayEnv ?? {},
      concurrency: flags.concurrency ?? (flags.quick ? QUICK.concurrency : DEFAULT_CONCURRENCY),
      durationSec: flags.duration ?? (flags.quick ? QUICK.durationSec : 20),
      warmupSec: flags.warmup ?? (flags.quick ? QUICK.warmupSec : 5),
      timeoutSec: flags.timeout,
      queryFile,
      variablesFile: flags.variables ? path.resolve(flags.variables) : null,
      expectFile,
      minSuccess: flags.minSuccess / 100,
      subgraphDelayMs: flags.subgraphDelay,
      subgraphPorts,
      gatewayPort: flags.gatewayPort,
      ...(flags.gatewayCpus !== undefined ? { gatewayCpus: flags.gatewayCpus } : {}),
      ...(flags.gatewayMemory !== undefined ? { gatewayMemoryMB: flags.gatewayMemory } : {}),
      profiler: flags.profile ? flags.profiler : 'none',
      samplingIntervalUs: flags.samplingInterval,
      outDir: path.resolve(flags.out),
      ...(flags.runId ? { runId: flags.runId } : {}),
      quick: flags.quick === true,
      commandLine: process.argv.slice(2),
      signal,
      onProgress: (line, final) => progress.update(line, final),
      afterStep: async (step, current, dir) => {
        try {
          await publishStepProfile(step, dir, current);
        } catch (error) {
          step.statusReasons.push(`profile analysis failed: ${(error as Error).message}`);
        }
        writeRunResult(dir, current);
      },
    }),
  );

  const { summary, report } = publishRun(run, runDir);
  process.stdout.write(`\n${renderStepTable(run, { color })}\n`);
  const buckets = renderBucketTable(run);
  if (buckets) process.stdout.write(`\nWhere the gateway's CPU went (share of profile samples):\n${buckets}\n`);
  process.stdout.write(`\nrun folder: ${runDir}\n  results.json, ${path.basename(summary)}, ${path.basename(report)}, logs/\n`);

  if (run.state === 'interrupted') {
    process.stderr.write(`interrupted: results.json keeps the ${run.steps.length} finished step(s)\n`);
    return 130;
  }
  if (run.state === 'failed') {
    process.stderr.write(`gwprof: ${run.error ?? 'sweep failed'}\n`);
    return 2;
  }
  const failed = run.steps.filter((s) => s.status === 'failed');
  if (failed.length > 0) {
    process.stderr.write(`gwprof: ${failed.length} of ${run.steps.length} steps FAILED (${failed.map((s) => `c=${s.concurrency}: ${s.statusReasons[0] ?? ''}`).join('; ')})\n`);
    return 1;
  }
  return 0;
}
