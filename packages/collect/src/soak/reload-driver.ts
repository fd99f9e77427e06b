/**
 * A reload soak's swaps during the load: one every `everySec` from the end of the warm-up, made
 * only where its whole window fits in the load (a swap due in a calm waits for the next load), each
 * then watched until the gateway is seen to serve it. At the end of an interval's load, its load is
 * cut into windows (analysis's loadWindows) and each window's requests and latency are recorded.
 */
import type { SoakIntervalReloads, SoakLoadWindow, SoakReload } from '@gwprof/results';
import { loadWindows } from '@gwprof/analysis';
import type { LoadRecorder } from '../load/recorder.js';
import type { ReloadSwitch } from './reload-switch.js';

export class ReloadDriver {
  private nextAtSec: number;
  private made = 0;
  private inInterval: Array<{ reload: SoakReload; second: number; watched: Promise<void> }> = [];

  constructor(
    private readonly reloadSwitch: ReloadSwitch,
    firstAtSec: number,
    private readonly clock: () => number,
  ) {
    this.nextAtSec = firstAtSec;
  }

  /** Milliseconds until tick() may swap in this load: 0 when it may now, Infinity when no window fits in what is left of it. */
  wakeInMs(recorder: LoadRecorder, loadEndsAt: number): number {
    const { window } = this.reloadSwitch.config;
    const now = performance.now();
    const fitsFrom = recorder.startedAt + window.beforeSec * 1000;
    const at = Math.max(now + (this.nextAtSec - this.clock()) * 1000, fitsFrom);
    return loadEndsAt - at < (window.afterSec + 1) * 1000 ? Number.POSITIVE_INFINITY : Math.max(0, at - now);
  }

  /** Swaps when one is due and its window fits: at least `beforeSec` into the load and `afterSec` (and a second) before its end. */
  async tick(recorder: LoadRecorder, loadEndsAt: number): Promise<void> {
    if (this.wakeInMs(recorder, loadEndsAt) > 0) return;
    const second = recorder.secondAt(performance.now());
    const index = this.made++;
    const variant = index % 2 === 0 ? 'b' : 'a';
    const reload: SoakReload = { index, atSec: this.clock(), variant, seenAfterSec: null, error: null };
    this.nextAtSec = reload.atSec + this.reloadSwitch.config.everySec;
    const swapped = performance.now();
    try {
      await this.reloadSwitch.swap(variant, index);
    } catch (error) {
      reload.error = (error as Error).message.split('\n')[0] ?? 'the swap failed';
    }
    const watched =
      reload.error === null
        ? this.reloadSwitch.seen(variant, this.reloadSwitch.config.seenWithinSec * 1000).then((seen) => {
            if (seen) reload.seenAfterSec = (performance.now() - swapped) / 1000;
          })
        : Promise.resolve();
    this.inInterval.push({ reload, second, watched });
  }

  /** The interval's reloads, once each was seen or its wait ended, and its load in windows. */
  async endInterval(recorder: LoadRecorder, loadStartSec: number, loadSeconds: number): Promise<SoakIntervalReloads> {
    const mine = this.inInterval;
    this.inInterval = [];
    await Promise.all(mine.map((m) => m.watched));
    const cuts = loadWindows(
      loadSeconds,
      mine.map((m) => ({ index: m.reload.index, second: m.second })),
      this.reloadSwitch.config.window,
    );
    const windows: SoakLoadWindow[] = cuts.map((cut) => {
      const stats = recorder.window(cut.from, cut.to);
      return {
        startSec: loadStartSec + cut.from,
        endSec: loadStartSec + cut.to,
        reload: cut.reload,
        requests: { ok: stats.requests.ok, failed: stats.requests.failed },
        failureCounts: stats.failureCounts,
        latencyMs: stats.latencyMs,
      };
    });
    return { reloads: mine.map((m) => m.reload), windows, reloadsSoFar: this.made };
  }
}
