/**
 * How a reload soak cuts an interval's load into windows: each reload's window runs from
 * `beforeSec` before the second it was made in to `afterSec` after it; the load between them is
 * cut into windows as long, so a window around a reload is compared with windows of the same
 * length without one. A piece shorter than half a window is left out (its p99 would stand on too few requests).
 */

export interface LoadWindowCut {
  /** Seconds from the start of the interval's load: [from, to). */
  from: number;
  to: number;
  /** The reload in it (its index over the soak), or null. */
  reload: number | null;
}

export interface ReloadSecond {
  index: number;
  /** The second of the load it was made in. */
  second: number;
}

export function loadWindows(loadSeconds: number, reloads: readonly ReloadSecond[], window: { beforeSec: number; afterSec: number }): LoadWindowCut[] {
  const length = window.beforeSec + window.afterSec;
  const around = [...reloads]
    .sort((a, b) => a.second - b.second)
    .map((r) => ({ from: Math.max(0, r.second - window.beforeSec), to: Math.min(loadSeconds, r.second + window.afterSec), reload: r.index }));
  const cuts: LoadWindowCut[] = [];
  let cursor = 0;
  for (const reload of [...around, { from: loadSeconds, to: loadSeconds, reload: null }]) {
    cuts.push(...quietWindows(cursor, Math.max(cursor, reload.from), length));
    if (reload.reload !== null) cuts.push({ ...reload, from: Math.max(cursor, reload.from) });
    cursor = Math.max(cursor, reload.to);
  }
  return cuts.filter((cut) => cut.to > cut.from);
}

function quietWindows(from: number, to: number, length: number): LoadWindowCut[] {
  const cuts: LoadWindowCut[] = [];
  for (let start = from; to - start >= length / 2; start += length) cuts.push({ from: start, to: Math.min(to, start + length), reload: null });
  return cuts;
}
