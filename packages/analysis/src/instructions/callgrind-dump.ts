/**
 * A callgrind dump read for what gwprof needs: the event it counted (Ir), its total, and each
 * function's self count (the cost lines in its body, not the inclusive cost of the calls it made).
 * Names may be compressed as "(id) name" on first use and "(id)" after; cost lines follow the
 * `positions:` header (a line number, or instruction address and line), then one value per event.
 * Read by the one reader (`callgrind-reader.ts`).
 */
import { CallgrindReader, readDumpText } from './callgrind-reader.js';

export interface CallgrindDump {
  /** The events counted, in column order (e.g. ["Ir"]). */
  events: string[];
  /** The first event's total over the dump. */
  total: number;
  /** Self count of the first event, by "file|function". */
  selfByFunction: Map<string, { file: string; fn: string; self: number }>;
}

export function parseCallgrindDump(text: string): CallgrindDump {
  const self = new Map<string, { file: string; fn: string; self: number }>();
  const reader = readDumpText(
    text,
    new CallgrindReader<string>({
      context: (frames) => frames.join("'"),
      self: (fn, count, file) => {
        const key = `${file}|${fn}`;
        const entry = self.get(key) ?? { file, fn, self: 0 };
        entry.self += count;
        self.set(key, entry);
      },
    }),
  );
  const summed = [...self.values()].reduce((sum, e) => sum + e.self, 0);
  return { events: reader.events, total: reader.total ?? reader.summary ?? summed, selfByFunction: self };
}

/** The total alone, without reading function costs: the last `totals:` (or `summary:`) line. */
export function callgrindTotal(text: string): number | null {
  const match = /^totals:\s+(\d+)/m.exec(text) ?? /^summary:\s+(\d+)/m.exec(text);
  return match ? Number(match[1]) : null;
}
