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
