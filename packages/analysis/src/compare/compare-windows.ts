/**
 * From a comparison's windows to a verdict. Each level's gating metric (the gateway's CPU ms per
 * successful request) goes through the group-sequential test on epoch means (epoch-test.ts); its
 * false-alarm rate α is split across the levels. Other metrics are summarised as paired changes
 * with plain 95% intervals, labelled as such: information, not verdicts.
 */
import { loadLabel, loadLevel, type BlockChange, type CompareWindow, type LevelDecision, type MetricComparison, type StepRecord } from '@gwprof/results';
import { mean, median } from '../descriptive.js';
import { decideEpochs, epochValues, type EpochBlock } from './epoch-test.js';
import { studentTQuantile } from './student-t.js';
import { failureDetail } from '../failure-diagnosis.js';
import { comparisonVerdict, type ComparisonVerdict } from './verdict.js';

export type { ComparisonVerdict } from './verdict.js';

export interface ComparisonDesign {
  levels: readonly number[];
  /** How a level is named in reasons ("c=20", "300 req/s"); default c=…. */
  label?: (level: number) => string;
  threshold: number;
  alpha: number;
  minEpochs: number;
  /** The last look; a level still open there is inconclusive. */
  maxEpochs: number;
  spendingPower: number;
  /** A regression or an improvement must hold without its farthest epoch (epoch-test.ts); default false. */
  holdWithoutFarthest?: boolean;
}

/**
 * x for one block: mean log of the candidate's windows minus mean log of the baseline's. Means of
 * logs, so one GC-heavy window moves x by its log, not by its raw size, and a drift that is linear
 * in log speed cancels when the sides' windows sit at the same mean time.
 */
export function blockLogRatio(baseline: readonly number[], candidate: readonly number[]): number {
  const meanLog = (values: readonly number[], side: string): number => {
    if (values.length === 0) throw new RangeError(`a block needs at least one ${side} window`);
    if (!values.every((v) => v > 0 && Number.isFinite(v))) throw new RangeError(`${side} window values must be finite and positive`);
    return values.reduce((sum, v) => sum + Math.log(v), 0) / values.length;
  };
  return meanLog(candidate, 'candidate') - meanLog(baseline, 'baseline');
}

interface MetricSpec {
  metric: string;
  unit: string;
  higherIsBetter: boolean;
  value: (step: StepRecord) => number | null;
}

/** The gating metric: what the gateway's CPU spent per successful request. */
export const GATING_METRIC: MetricSpec = { metric: 'cpuMsPerOkRequest', unit: 'CPU ms/req', higherIsBetter: false, value: (s) => s.gateway.cpuMsPerOkRequest };

export const INFORMATIONAL_METRICS: readonly MetricSpec[] = [
  { metric: 'rps', unit: 'req/s', higherIsBetter: true, value: (s) => s.rps },
  { metric: 'cpuPercent', unit: '% of a core', higherIsBetter: false, value: (s) => s.gateway.cpuPercent },
  { metric: 'p50', unit: 'ms', higherIsBetter: false, value: (s) => s.latencyMs?.p50 ?? null },
  { metric: 'p99', unit: 'ms', higherIsBetter: false, value: (s) => s.latencyMs?.p99 ?? null },
  { metric: 'rssMaxMB', unit: 'MB', higherIsBetter: false, value: (s) => s.gateway.rssMaxMB },
  { metric: 'fanout', unit: 'subgraph req/req', higherIsBetter: false, value: (s) => s.fanout },
];

/** The windows of one level grouped by block, in block order. */
function blocksOf(windows: readonly CompareWindow[], level: number): CompareWindow[][] {
  const byBlock = new Map<number, CompareWindow[]>();
  for (const w of windows) {
    if (loadLevel(w.step.load) !== level) continue;
    const list = byBlock.get(w.block) ?? [];
    list.push(w);
    byBlock.set(w.block, list);
  }
  return [...byBlock.entries()].sort((a, b) => a[0] - b[0]).map(([, list]) => list);
}

/** Paired log ratio of one block for a metric; null when a side has no usable value. */
function blockRatio(block: readonly CompareWindow[], spec: MetricSpec): number | null {
  const values = (side: CompareWindow['side']) =>
    block
      .filter((w) => w.side === side)
      .map((w) => spec.value(w.step))
      .filter((v): v is number => v !== null && v > 0 && Number.isFinite(v));
  const baseline = values('baseline');
  const candidate = values('candidate');
  return baseline.length > 0 && candidate.length > 0 ? blockLogRatio(baseline, candidate) : null;
}

/** The blocks of a level as observations of the gating metric, for the test on epoch means. */
export function levelObservations(windows: readonly CompareWindow[], level: number): EpochBlock[] {
  return blocksOf(windows, level).flatMap((block) => {
    const x = blockRatio(block, GATING_METRIC);
    return x === null ? [] : [{ epoch: block[0]!.epoch, x }];
  });
}

/** Each block of a level with the change of the gating metric in it, candidate over baseline, in block order. */
export function blockChanges(windows: readonly CompareWindow[], level: number): BlockChange[] {
  return blocksOf(windows, level).flatMap((block) => {
    const x = blockRatio(block, GATING_METRIC);
    return x === null ? [] : [{ block: block[0]!.block, epoch: block[0]!.epoch, relativeChange: Math.expm1(x) }];
  });
}

export function decideLevel(windows: readonly CompareWindow[], level: number, design: ComparisonDesign): LevelDecision {
  const alpha = design.alpha / design.levels.length;
  const blocks = levelObservations(windows, level);
  const base = { alpha, maxEpochs: design.maxEpochs, blocks: blocks.length };
  if (blocks.length === 0) return { ...base, outcome: 'continue', epochs: 0, relativeChange: 0, interval: null, reason: 'no block measured yet' };
  const { threshold, minEpochs, maxEpochs, spendingPower } = design;
  const holdWithoutFarthest = design.holdWithoutFarthest ?? false;
  const decision = decideEpochs(epochValues(blocks), { threshold, alpha, minEpochs, maxEpochs, spendingPower, holdWithoutFarthest });
  return {
    ...base,
    outcome: decision.outcome,
    epochs: decision.epochs,
    relativeChange: decision.relativeChange,
    interval: decision.interval,
    reason: decision.reason,
  };
}

/** Windows that failed validation: any of them makes the comparison invalid. */
export function failedWindows<W extends { step: { status: string } }>(windows: readonly W[]): W[] {
  return windows.filter((w) => w.step.status === 'failed');
}

/** The comparison's verdict from every level's decision; also whether measuring more could change it. */
export function judgeComparison(windows: readonly CompareWindow[], design: ComparisonDesign): ComparisonVerdict {
  const decisions = new Map(design.levels.map((level) => [level, decideLevel(windows, level, design)]));
  const invalid = failedWindows(windows).map((w) => {
    const detail = failureDetail(w.step);
    return `${w.side} window ${w.block}.${w.position} at ${loadLabel(w.step.load)} failed: ${w.step.failures[0] ?? 'failed'}${detail ? ` — ${detail}` : ''}`;
  });
  return comparisonVerdict(decisions, invalid, { maxEpochs: design.maxEpochs, label: design.label ?? ((level) => `c=${level}`) });
}

/** A metric of one level: each side's windows, and the paired change with a plain 95% interval. */
export function compareMetric(windows: readonly CompareWindow[], level: number, spec: MetricSpec): MetricComparison {
  const blocks = blocksOf(windows, level);
  const side = (s: CompareWindow['side']) =>
    summarize(
      blocks
        .flat()
        .filter((w) => w.side === s)
        .map((w) => spec.value(w.step))
        .filter((v): v is number => v !== null && Number.isFinite(v)),
    );
  const ratios = blocks.map((b) => blockRatio(b, spec)).filter((x): x is number => x !== null);
  const base = { metric: spec.metric, unit: spec.unit, higherIsBetter: spec.higherIsBetter, baseline: side('baseline'), candidate: side('candidate') };
  if (ratios.length === 0) return { ...base, relativeChange: null, interval: null, confidence: null, method: 'no block with a value on both sides' };
  const m = mean(ratios);
  if (ratios.length < 2) return { ...base, relativeChange: Math.exp(m) - 1, interval: null, confidence: null, method: 'one block: no interval' };
  const sd = Math.sqrt(ratios.reduce((sum, x) => sum + (x - m) ** 2, 0) / (ratios.length - 1));
  const half = studentTQuantile(0.975, ratios.length - 1) * (sd / Math.sqrt(ratios.length));
  return {
    ...base,
    relativeChange: Math.exp(m) - 1,
    interval: [Math.exp(m - half) - 1, Math.exp(m + half) - 1],
    confidence: 0.95,
    method: `ratio of geometric means from ${ratios.length} paired blocks; 95% t interval, not adjusted for the sequential stop (information, not a verdict)`,
  };
}

/** Two finished sweeps' steps at one level: the change of each metric, with no interval. */
export function deltaMetric(baseline: StepRecord, candidate: StepRecord, spec: MetricSpec): MetricComparison {
  const b = spec.value(baseline);
  const c = spec.value(candidate);
  const one = (v: number | null) => summarize(v === null ? [] : [v]);
  return {
    metric: spec.metric,
    unit: spec.unit,
    higherIsBetter: spec.higherIsBetter,
    baseline: one(b),
    candidate: one(c),
    relativeChange: b !== null && c !== null && b > 0 ? c / b - 1 : null,
    interval: null,
    confidence: null,
    method: 'one run per side: a delta, no interval',
  };
}

/** A side's values: count, median, mean and geometric mean (what a change compares). */
export function summarize(values: readonly number[]) {
  const positive = values.length > 0 && values.every((v) => v > 0);
  return {
    n: values.length,
    median: values.length > 0 ? median(values) : NaN,
    mean: values.length > 0 ? mean(values) : NaN,
    geometricMean: positive ? Math.exp(mean(values.map(Math.log))) : NaN,
    values: [...values],
  };
}
