/** `gwprof export k6`: the scenario as a k6 test that runs unchanged under k6, split or not. */
import { Command, InvalidArgumentError } from 'commander';
import { DEFAULTS, SCENARIOS, exportK6 } from '@gwprof/collect';
import { GwprofError, type LoadShape } from '@gwprof/results';
import { parseDuration, parsePositiveNumber, parseWholeNumber } from './options.js';
import { EXPECT_NONE_HELP, chooseScenario, scenarioHelp, scenarioSourceOf } from './scenario-option.js';

interface ExportFlags {
  out: string;
  concurrency?: number;
  rate?: number;
  maxInFlight: number;
  duration: number;
  timeout: number;
  url: string;
  scenario: string;
  query?: string;
  variables?: string;
  expect?: string;
  expectNone?: boolean;
}

export function exportCommand(): Command {
  return new Command('export')
    .description('write a scenario as a self-contained load test for another tool: k6 (a script and its data file)')
    .argument('<tool>', 'k6', (value) => {
      if (value !== 'k6') throw new InvalidArgumentError('the only tool is k6');
      return value;
    })
    .option('-o, --out <dir>', 'folder for gwprof-k6.js and gwprof-k6-data.json', 'k6')
    .option('-c, --concurrency <n>', 'closed loop: this many VUs (constant-vus; default 10)', parseWholeNumber('--concurrency'))
    .option('-r, --rate <req/s>', 'open loop instead: arrivals per second (constant-arrival-rate)', parsePositiveNumber('--rate'))
    .option(
      '--max-in-flight <n>',
      'open loop: VUs at most; an arrival with all of them busy is a dropped iteration',
      parseWholeNumber('--max-in-flight'),
      DEFAULTS.sweep.maxInFlight,
    )
    .option('-d, --duration <time>', 'how long k6 runs: 30s, 5m…', parseDuration('--duration'), 60)
    .option(
      '--timeout <time>',
      'a request without a response after this long counts as a timeout (10s, 1m; a bare number is seconds)',
      parseDuration('--timeout'),
      DEFAULTS.timeoutSec,
    )
    .option('--url <url>', 'the gateway (GWPROF_URL overrides it when k6 runs)', `http://127.0.0.1:${DEFAULTS.gatewayPort}/graphql`)
    .option('--scenario <name|file>', scenarioHelp(), DEFAULTS.sweep.scenario)
    .option('--query <file>', "GraphQL query instead of the scenario's")
    .option('--variables <file>', 'JSON variables: an object, or a list cycled per request')
    .option('--expect <file>', 'golden {"data": …}, or a list of them, one per variables entry')
    .option('--expect-none', EXPECT_NONE_HELP, false)
    .action((_tool: string, flags: ExportFlags) => {
      const chosen = chooseScenario(flags.scenario);
      if (flags.rate !== undefined && flags.concurrency !== undefined)
        throw new GwprofError('give --concurrency (closed loop) or --rate (open loop), not both');
      const load: LoadShape =
        flags.rate !== undefined
          ? { kind: 'open', targetRps: flags.rate, arrivals: 'uniform', maxInFlight: flags.maxInFlight }
          : { kind: 'closed', concurrency: flags.concurrency ?? 10 };
      const written = exportK6({
        outDir: flags.out,
        scenario: scenarioSourceOf(chosen, flags, SCENARIOS[DEFAULTS.sweep.scenario]!.files),
        scenarioName: chosen.name,
        url: flags.url,
        load,
        durationSec: flags.duration,
        timeoutSec: flags.timeout,
      });
      process.stdout.write(`${written.script}\n${written.data}\nrun it with: k6 run ${written.script}\n`);
    });
}
