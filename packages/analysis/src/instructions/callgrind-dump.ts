/**
 * A callgrind dump read for what gwprof needs: the event it counted (Ir), its total, and each
 * function's self count (the cost lines in its body, not the inclusive cost of the calls it made).
 * Names may be compressed as "(id) name" on first use and "(id)" after; cost lines follow the
 * `positions:` header (a line number, or instruction address and line), then one value per event.
 */
export interface CallgrindDump {
  /** The events counted, in column order (e.g. ["Ir"]). */
  events: string[];
  /** The first event's total over the dump. */
  total: number;
  /** Self count of the first event, by "file|function". */
  selfByFunction: Map<string, { file: string; fn: string; self: number }>;
}

export function parseCallgrindDump(text: string): CallgrindDump {
  let events: string[] = ['Ir'];
  let positions = 1;
  let total: number | null = null;
  const names = { fl: new Map<string, string>(), fn: new Map<string, string>() };
  const self = new Map<string, { file: string; fn: string; self: number }>();
  let file = '???';
  let fn = '???';
  let afterCalls = false;
  const resolve = (kind: 'fl' | 'fn', value: string): string => {
    const match = /^\((\d+)\)(?:\s+(.*))?$/.exec(value.trim());
    if (!match) return value.trim();
    if (match[2] !== undefined) names[kind].set(match[1]!, match[2]);
    return names[kind].get(match[1]!) ?? value.trim();
  };
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const c = line.charCodeAt(0);
    const isCost = (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 42 || (c === 48 && line[1] === 'x');
    if (isCost) {
      if (afterCalls) {
        afterCalls = false;
        continue;
      }
      const value = Number(line.trim().split(/\s+/)[positions] ?? 0);
      const key = `${file}|${fn}`;
      const entry = self.get(key) ?? { file, fn, self: 0 };
      entry.self += value;
      self.set(key, entry);
      continue;
    }
    const colon = line.indexOf(':');
    const eq = line.indexOf('=');
    if (eq > 0 && (colon < 0 || eq < colon)) {
      const key = line.slice(0, eq);
      const value = line.slice(eq + 1);
      if (key === 'fl') file = resolve('fl', value);
      else if (key === 'fi' || key === 'fe') resolve('fl', value);
      else if (key === 'fn') fn = resolve('fn', value);
      else if (key === 'cfl' || key === 'cfi') resolve('fl', value);
      else if (key === 'cfn') resolve('fn', value);
      else if (key === 'calls') afterCalls = true;
      continue;
    }
    if (colon > 0) {
      const key = line.slice(0, colon);
      const value = line.slice(colon + 1).trim();
      if (key === 'events') events = value.split(/\s+/);
      else if (key === 'positions') positions = value.split(/\s+/).length;
      else if (key === 'totals' || key === 'summary') {
        const first = Number(value.split(/\s+/)[0]);
        if (key === 'totals' || total === null) total = first;
      }
    }
  }
  const summed = [...self.values()].reduce((sum, e) => sum + e.self, 0);
  return { events, total: total ?? summed, selfByFunction: self };
}

/** The total alone, without reading function costs: the last `totals:` (or `summary:`) line. */
export function callgrindTotal(text: string): number | null {
  const match = /^totals:\s+(\d+)/m.exec(text) ?? /^summary:\s+(\d+)/m.exec(text);
  return match ? Number(match[1]) : null;
}
