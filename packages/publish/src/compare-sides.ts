/** What the CPU and the allocation comparisons both take from a level's windows. */
import type { CompareWindow } from '@gwprof/results';
import type { WindowCosts } from '@gwprof/analysis';

/** A side's window profiles (CPU or heap) at a level and the successful requests in those windows; null without any. */
export function sideWindows<P>(
  windows: readonly CompareWindow[],
  side: 'baseline' | 'candidate',
  byStep: ReadonlyMap<string, P>,
): { profiles: P[]; okRequests: number } | null {
  const mine = windows.filter((w) => w.side === side);
  const okRequests = mine.reduce((sum, w) => sum + w.step.requests.ok, 0);
  if (mine.length === 0 || okRequests === 0) return null;
  return { profiles: mine.map((w) => byStep.get(w.step.id)!), okRequests };
}

/** One window's amounts per item (bucket, function), tagged with its epoch and side for the moves' noise. */
export function windowCosts(window: CompareWindow, amountByItem: ReadonlyMap<string, number>): WindowCosts {
  return { epoch: window.epoch, side: window.side, okRequests: window.step.requests.ok, amountByItem };
}
