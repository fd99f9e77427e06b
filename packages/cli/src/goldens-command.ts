/** `gwprof goldens`: record a scenario file's golden responses once, from a reference gateway. */
import path from 'node:path';
import { BUILT_IN_SPECS } from './gateway-specs.js';
import { Command } from 'commander';
import { readScenarioFile, recordGoldens } from '@gwprof/collect';
import { JSON_OPTION_HELP, writeJsonFlag, type JsonFlag } from './json-option.js';
import { EXIT, GwprofError } from '@gwprof/results';
import { collectKeyValue } from './options.js';
import { ProgressLine } from './progress.js';
import { SCENARIO_FILE_HELP } from './scenario-option.js';
import { addServiceOptions, serviceOptions, type ServiceFlags } from './service-options.js';
import { withInterruptSignal } from './signals.js';
import { assertFileWritable, assertUrlAnswers } from './preflight.js';

interface GoldensFlags extends ServiceFlags {
  scenario: string;
  reference?: string;
  gatewayEnv?: Record<string, string>;
  goldens?: string;
  json?: JsonFlag;
}

export function goldensCommand(): Command {
  const command = new Command('goldens')
    .description(
      'send each request of a scenario file once to a reference gateway and keep every answer as the golden later runs validate against (an answer with errors is refused; nothing is written then)',
    )
    .requiredOption('--scenario <file>', SCENARIO_FILE_HELP)
    .option(
      '--reference <gateway>',
      `the gateway whose answers are right: ${BUILT_IN_SPECS}, cmd:<command> (run in your folder) or url:<http://127.0.0.1:…> (default: the scenario file's gateway, run in its folder)`,
    )
    .option('--gateway-env <KEY=VALUE>', 'environment variable for the reference gateway only (repeatable)', collectKeyValue('--gateway-env'))
    .option('--goldens <file>', "where to write them (default: the scenario file's goldens:)")
    .option('--json [file]', `what was recorded (the goldens file, its responses, the reference gateway, the run folder) ${JSON_OPTION_HELP}`);
  return addServiceOptions(command, { profiling: false }).action(async (flags: GoldensFlags) => {
    process.exitCode = await goldensAction(flags);
  });
}

async function goldensAction(flags: GoldensFlags): Promise<number> {
  const scenario = readScenarioFile(flags.scenario);
  const fromFile = flags.reference === undefined;
  const reference = flags.reference ?? scenario.gateway;
  if (!reference) throw new GwprofError(`give --reference <gateway>: ${flags.scenario} names no gateway: to record from`);
  const outFile = flags.goldens ? path.resolve(flags.goldens) : scenario.goldens;
  if (!outFile) throw new GwprofError(`give --goldens <file>, or goldens: <file> in ${flags.scenario}: there is nowhere to write them`);
  // Before any answer is recorded: a folder that is not there would lose them all.
  if (!flags.goldens) assertFileWritable(outFile, `goldens: in ${flags.scenario}`);
  if (fromFile && reference.startsWith('url:')) await assertUrlAnswers(reference, `gateway: in ${flags.scenario}`);
  const progress = new ProgressLine();
  const recorded = await withInterruptSignal((signal) =>
    recordGoldens({
      ...serviceOptions(flags),
      scenario,
      reference,
      ...(fromFile ? { gatewayCwd: scenario.dir } : {}),
      gatewayEnv: flags.gatewayEnv ?? {},
      outFile,
      signal,
      onProgress: (line, final) => progress.update(line, final),
    }).catch((error: unknown) => {
      // Ctrl-C: whatever the recording failed with after it, the answer is "interrupted".
      if (signal.aborted) return null;
      throw error;
    }),
  );
  if (!recorded) {
    process.stderr.write('interrupted: no goldens written\n');
    return EXIT.interrupted;
  }
  const record = { file: recorded.file, responses: recorded.responses, reference, runDir: recorded.runDir };
  if (!writeJsonFlag(flags.json, record)) {
    process.stdout.write(`${recorded.file}: ${recorded.responses} golden responses from ${reference}\nlogs: ${recorded.runDir}/logs\n`);
  }
  return EXIT.ok;
}
