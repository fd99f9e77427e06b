// Other per-window figures than the gateway's CPU per request, and how much each scatters from epoch
// to epoch: whether taking GC time out, or dividing by a reading of the machine's speed (what the
// subgraphs spent per request, or a probe's CPU time for fixed work) would give a quieter verdict.
// Epoch values are computed as the procedure computes them (recordedEpochValues).
import { mean, median, variance } from '@gwprof/analysis';
import type { SlimWindow } from './driver.js';
import { recordedEpochValues } from './procedure-evaluation.js';

/** A window as the logs keep it, with the speed probe's median CPU time for its fixed work during it, µs. */
export type FigureWindow = SlimWindow & { probeCpuUs?: number | null };

/** A per-window figure; null where the window lacks what it needs. */
export type WindowFigure = (w: FigureWindow) => number | null;

/** One reading of bench/dist/speed-probe.js. */
export interface ProbeReading {
  t: number;
  cpuUs: number;
}

/** The probe's median CPU time in [fromMs, toMs), or null with fewer than `minReadings` readings in it. */
export function probeDuring(readings: readonly ProbeReading[], fromMs: number, toMs: number, minReadings = 5): number | null {
  const inside = readings.filter((r) => r.t >= fromMs && r.t < toMs).map((r) => r.cpuUs);
  return inside.length >= minReadings ? median(inside) : null;
}

const perRequest = (ms: number | null | undefined, count: number | undefined): number | null => (ms === null || ms === undefined || !count ? null : ms / count);

/** What a window holds beside the gateway's CPU per request: the readings the figures take out or divide by. */
export const READINGS = {
  gcPerRequest: (w: FigureWindow) => perRequest(w.gcMs, w.ok),
  majorGcPerRequest: (w: FigureWindow) => perRequest(w.majorGcMs, w.ok),
  subgraphCpuPerRequest: (w: FigureWindow) => perRequest(w.subgraphCpuMs, w.subgraphRequests),
  probeCpuUs: (w: FigureWindow) => w.probeCpuUs ?? null,
} satisfies Record<string, WindowFigure>;

const minus =
  (reading: WindowFigure): WindowFigure =>
  (w) => {
    const r = reading(w);
    return w.value === null || r === null ? null : w.value - r;
  };
const dividedBy =
  (reading: WindowFigure): WindowFigure =>
  (w) => {
    const r = reading(w);
    return w.value === null || !r ? null : w.value / r;
  };

export const FIGURES: Record<string, WindowFigure> = {
  'gateway CPU per request (the verdict)': (w) => w.value,
  'minus GC per request': minus(READINGS.gcPerRequest),
  'minus major GC per request': minus(READINGS.majorGcPerRequest),
  '÷ subgraph CPU per subgraph request': dividedBy(READINGS.subgraphCpuPerRequest),
  '÷ speed probe CPU per unit of work': dividedBy(READINGS.probeCpuUs),
};

export interface FigureScatter {
  figure: string;
  epochs: number;
  /** Mean epoch value: the change the figure reports, as a log ratio. */
  meanChange: number | null;
  /** Sd of the epoch values. */
  epochSd: number | null;
}

/**
 * Each figure's epoch values over the windows the verdict reads, so that the rows compare like with
 * like. A figure that cannot read all of them (a log older than its fields, a side whose subgraphs
 * were not counted) is left out.
 */
export function figureScatter(windows: readonly FigureWindow[], figures: Record<string, WindowFigure> = FIGURES): FigureScatter[] {
  const usable = windows.filter((w) => w.value !== null);
  const readable = Object.entries(figures).filter(([, f]) => usable.every((w) => f(w) !== null));
  return readable.map(([figure, f]) => {
    const values = recordedEpochValues(usable.map((w) => ({ epoch: w.epoch, block: w.block, position: w.position, side: w.side, value: f(w)! })));
    return { figure, epochs: values.length, meanChange: values.length ? mean(values) : null, epochSd: values.length > 1 ? Math.sqrt(variance(values)) : null };
  });
}

/**
 * Correlation (Pearson) of two figures over all of a comparison's windows that have both, sides and
 * epochs pooled: unlike noise-components' gcCorrelation, which takes it within each epoch and side.
 */
export function windowCorrelation(windows: readonly FigureWindow[], a: WindowFigure, b: WindowFigure): number | null {
  const pairs = windows.map((w) => [a(w), b(w)] as const).filter((p): p is readonly [number, number] => p[0] !== null && p[1] !== null);
  if (pairs.length < 3) return null;
  const xs = pairs.map((p) => p[0]);
  const ys = pairs.map((p) => p[1]);
  const mx = mean(xs);
  const my = mean(ys);
  const cov = pairs.reduce((sum, [x, y]) => sum + (x - mx) * (y - my), 0);
  const norm = Math.sqrt(xs.reduce((s, x) => s + (x - mx) ** 2, 0) * ys.reduce((s, y) => s + (y - my) ** 2, 0));
  return norm === 0 ? null : cov / norm;
}
