import path from 'node:path';
import { writeJsonAtomic } from '@gwprof/results';

/** `--json [FILE]`, the same for every command: no value or `-` is stdout (instead of the tables), a value a file. */
export type JsonFlag = string | true | undefined;

export function jsonToStdout(flag: JsonFlag): boolean {
  return flag === true || flag === '-';
}

/** The file to write, or null (none asked, or stdout). */
export function jsonFile(flag: JsonFlag): string | null {
  return typeof flag === 'string' && flag !== '-' ? flag : null;
}

export const JSON_OPTION_HELP = 'as JSON: to stdout instead of the tables (no value, or -), or to FILE';

/**
 * Writes `record` where --json asks: as JSON on stdout (bare or -), or to FILE. True when stdout
 * took it, so the caller prints no tables.
 */
export function writeJsonFlag(flag: JsonFlag, record: unknown): boolean {
  const file = jsonFile(flag);
  if (file) writeJsonAtomic(path.resolve(file), record);
  if (!jsonToStdout(flag)) return false;
  process.stdout.write(`${JSON.stringify(record, null, 2)}\n`);
  return true;
}
