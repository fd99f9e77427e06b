// Where a comparison's noise comes from (between rounds of one pair of processes, or between pairs),
// what an epoch costs, and how many rounds per epoch that makes best (Kalibera & Jones).
import { mean } from '@gwprof/analysis';
import { recordedWindows, type SlimEpoch, type SlimWindow } from './driver.js';
import { optimalRoundsPerEpoch, recordingNoise, type RecordingNoise } from './procedure-evaluation.js';

/** Seconds to stop, start and warm up a pair of processes, and seconds per round (one window of each side). */
export interface EpochPace {
  pairSeconds: number;
  roundSeconds: number;
  epochSeconds: number;
}

/**
 * The pace of a recording's finished epochs, without the adapters' preparation (a build, done once
 * per comparison: not part of what a restart costs).
 */
export function epochPace(epochs: readonly SlimEpoch[], windows: readonly SlimWindow[]): EpochPace | null {
  const usable = epochs.filter((e) => e.seconds !== null && e.sides.baseline.warmupSec !== null && e.sides.candidate.warmupSec !== null);
  if (usable.length === 0) return null;
  const prepare = (e: SlimEpoch) => (e.sides.baseline.prepareMs + e.sides.candidate.prepareMs) / 1000;
  const start = (s: SlimEpoch['sides']['baseline']) => (s.listenMs + s.readyMs) / 1000 + s.warmupSec!;
  // Sides started together overlap: the pair is ready when the slower one is.
  const pair = usable.map(
    (e) => e.stopMs / 1000 + (e.warmedTogether ? Math.max : (a: number, b: number) => a + b)(start(e.sides.baseline), start(e.sides.candidate)),
  );
  const rounds = usable.map((e) => windows.filter((w) => w.epoch === e.epoch && w.side === 'baseline').length);
  const seconds = usable.map((e) => e.seconds! - prepare(e));
  const roundSeconds = mean(usable.map((_, i) => (seconds[i]! - pair[i]!) / Math.max(1, rounds[i]!)));
  return { pairSeconds: mean(pair), roundSeconds, epochSeconds: mean(seconds) };
}

/**
 * How much of the window-to-window noise is GC: the correlation, within each epoch and side, of a
 * window's log CPU per request with its GC milliseconds per request (Node's account). null without
 * GC figures or with too few windows.
 */
export function gcCorrelation(windows: readonly SlimWindow[]): number | null {
  const usable = windows.filter((w) => w.value !== null && w.value > 0 && w.gcMs !== null && w.ok > 0);
  const groups = new Map<string, SlimWindow[]>();
  for (const w of usable) groups.set(`${w.epoch}:${w.side}`, [...(groups.get(`${w.epoch}:${w.side}`) ?? []), w]);
  const pairs: Array<[number, number]> = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const cpu = group.map((w) => Math.log(w.value!));
    const gc = group.map((w) => w.gcMs! / w.ok);
    const [mc, mg] = [mean(cpu), mean(gc)];
    for (let i = 0; i < group.length; i++) pairs.push([cpu[i]! - mc, gc[i]! - mg]);
  }
  if (pairs.length < 4) return null;
  const sxy = pairs.reduce((sum, [x, y]) => sum + x * y, 0);
  const sxx = pairs.reduce((sum, [x]) => sum + x * x, 0);
  const syy = pairs.reduce((sum, [, y]) => sum + y * y, 0);
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : null;
}

/** One row per named recording or run: its noise components, its pace and the rounds per epoch they call for, as markdown. */
export function noiseTable(sets: readonly { name: string; windows: readonly SlimWindow[]; epochs?: readonly SlimEpoch[] }[]): string {
  const p = (x: number): string => `${(x * 100).toFixed(1)}%`;
  const s = (x: number | undefined): string => (x === undefined ? '–' : x.toFixed(1));
  return [
    '| windows of | epochs | rounds per epoch | sd of a round within a pair | sd of the pair effect | sd of the epoch value | s per pair start | s per round | rounds per epoch that minimise time (m*) | r(window CPU, GC per request) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...sets.map(({ name, windows, epochs }) => {
      let n: RecordingNoise;
      try {
        n = recordingNoise(recordedWindows(windows));
      } catch (error) {
        // Too short to split (fewer than two epochs, or no epoch with two rounds): a row of dashes.
        if (!(error instanceof RangeError)) throw error;
        return `| ${name} | ${new Set(windows.map((w) => w.epoch)).size} | – | – | – | – | – | – | – | – |`;
      }
      const pace = epochs ? epochPace(epochs, windows) : null;
      const m = pace ? optimalRoundsPerEpoch(n, pace.pairSeconds, pace.roundSeconds) : undefined;
      return `| ${name} | ${n.epochs} | ${n.roundsPerEpoch.toFixed(1)} | ${p(n.withinEpochSd)} | ${p(n.epochEffectSd)} | ${p(n.epochSd)} | ${s(pace?.pairSeconds)} | ${s(pace?.roundSeconds)} | ${m === undefined ? '–' : Number.isFinite(m) ? m.toFixed(2) : '∞'} | ${gcCorrelation(windows)?.toFixed(2) ?? '–'} |`;
    }),
  ].join('\n');
}
