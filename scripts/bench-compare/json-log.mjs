import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Appends one entry to a JSON array file in `out`, so that every run is kept as soon as it ends. */
export function appendEntry(out, file, entry) {
  const target = path.join(out, file);
  const list = existsSync(target) ? JSON.parse(readFileSync(target, 'utf8')) : [];
  list.push(entry);
  writeFileSync(target, `${JSON.stringify(list, null, 1)}\n`);
}

export const readEntries = (out, file) => JSON.parse(readFileSync(path.join(out, file), 'utf8'));
