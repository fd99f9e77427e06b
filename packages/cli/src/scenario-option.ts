/**
 * `--scenario`: a built-in scenario by name, or a scenario file of the user's own operations (and
 * subgraphs, and gateway). What sweep, compare, soak, export and goldens share.
 */
import path from 'node:path';
import { GwprofError } from '@gwprof/results';
import { SCENARIOS, looksLikeScenarioFile, readScenarioFile, type ScenarioFileSpec, type ScenarioFiles, type ScenarioSource } from '@gwprof/collect';
import { scenarioFrom } from './defaults.js';

/** --expect-none: a run that checks no data must say so, or collect refuses a request without a golden. */
export const EXPECT_NONE_HELP = 'check answers for status, JSON and errors only, with no golden data (a request without a golden is refused otherwise)';

export const SCENARIO_FILE_HELP =
  'a scenario file (YAML or JSON: your own operations, goldens and subgraphs, docs/scenario-file.md); paths and commands inside it are taken from its folder';

export function scenarioHelp(): string {
  const builtIn = Object.entries(SCENARIOS)
    .map(([name, s]) => `${name}: ${s.description}`)
    .join('; ');
  return `a built-in scenario (${builtIn}), or ${SCENARIO_FILE_HELP}`;
}

export interface ChosenScenario {
  /** For the record: the built-in name, or the file's `name`. */
  name: string;
  /** The built-in one, when a name was given. */
  preset: (typeof SCENARIOS)[string] | null;
  file: ScenarioFileSpec | null;
}

export function chooseScenario(value: string): ChosenScenario {
  const preset = SCENARIOS[value];
  if (preset) return { name: value, preset, file: null };
  if (!looksLikeScenarioFile(value)) {
    throw new GwprofError(
      `--scenario: "${value}" is neither a built-in scenario (${Object.keys(SCENARIOS).join(', ')}) nor a file ending in .yaml, .yml or .json`,
    );
  }
  const file = readScenarioFile(value);
  return { name: file.name, preset: null, file };
}

/** The request stream: the scenario file's, or query files from the flags over `fallback`. */
export function scenarioSourceOf(
  chosen: ChosenScenario,
  flags: { query?: string; variables?: string; expect?: string; expectNone?: boolean },
  fallback: ScenarioFiles,
): ScenarioSource {
  if (!chosen.file) return scenarioFrom(flags, chosen.preset?.files ?? fallback);
  const given = (['query', 'variables', 'expect'] as const).filter((flag) => flags[flag] !== undefined);
  if (given.length > 0) {
    throw new GwprofError(
      `--${given[0]} does not combine with a scenario file: its operations say what to send (${path.relative(process.cwd(), chosen.file.path)})`,
    );
  }
  return flags.expectNone ? { ...chosen.file, goldens: null, expectNone: true } : chosen.file;
}

/**
 * The gateway: the flag when given (a cmd: runs from the user's folder), else the scenario file's
 * `gateway:` (run from the file's folder), else the default. `source` is commander's
 * getOptionValueSource for the flag.
 */
export function gatewayOf(flagValue: string, source: string | undefined, chosen: ChosenScenario): { gateway: string; gatewayCwd?: string } {
  if (source === 'default' && chosen.file?.gateway) return { gateway: chosen.file.gateway, gatewayCwd: chosen.file.dir };
  return { gateway: flagValue };
}
