import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Appends one entry to a JSON array file in `out`, so that every run is kept as soon as it ends. */
export function appendEntry(out: string, file: string, entry: object): void {
  const target = path.join(out, file);
  const list = existsSync(target) ? (JSON.parse(readFileSync(target, 'utf8')) as object[]) : [];
  list.push(entry);
  writeFileSync(target, `${JSON.stringify(list, null, 1)}\n`);
}

/** The entries of a JSON array file in `out`; a missing file is a one-line error that says what to run. */
export function readEntries<T>(out: string, file: string): T[] {
  const target = path.join(out, file);
  if (!existsSync(target)) throw new Error(`${target} does not exist: run the command that writes it first, or pass the --out that holds it`);
  return JSON.parse(readFileSync(target, 'utf8')) as T[];
}

/** What the no-load studies read of an entry of compare-recordings.json or compare-runs.json. */
export interface LoggedComparison<W> {
  label?: string;
  kind?: string;
  gateway?: string;
  date?: string;
  /** Extra compare flags: a lever of the noise study; none for the default design. */
  flags?: string[];
  /** Recordings: 0 for A/A. */
  burnPercent?: number;
  windows?: W[];
}

/** The entries of the default design that kept their windows, dated from `since` up to (not including) `until`. */
export function defaultDesignEntries<W>(
  entries: ReadonlyArray<LoggedComparison<W>>,
  since = '',
  until = '9999',
): Array<LoggedComparison<W> & { windows: W[] }> {
  return entries.filter(
    (e): e is LoggedComparison<W> & { windows: W[] } =>
      Boolean(e.windows?.length) && (e.flags ?? []).length === 0 && (e.date ?? '') >= since && (e.date ?? '') < until,
  );
}
