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
