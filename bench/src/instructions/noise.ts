/**
 * Noise components of a comparison by instructions, from its batches: each epoch's change from
 * its first batch alone and from all its batches, the scatter of processes and of batches within
 * a process (log units, shown in %). What sets the design: batches per epoch and the sd floor.
 */
import { mean } from '@gwprof/analysis';

export interface NoiseBatch {
  epoch: number;
  side: string;
  batch: number;
  instructionsPerOkRequest: number | null;
}

function sd(values: readonly number[]): number {
  const m = mean(values);
  return Math.sqrt(values.reduce((s, v) => s + (v - m) ** 2, 0) / (values.length - 1));
}

export interface NoiseSummary {
  epochs: number;
  batchesPerSide: number;
  /** Each epoch's change (candidate over baseline, log) from its first batch, and from all its batches. */
  firstBatchChanges: number[];
  allBatchChanges: number[];
  firstBatchSd: number;
  allBatchSd: number;
  /** Scatter of batches around their process's mean (pooled), and of the processes' means. */
  withinProcessSd: number;
  processMeanSd: number;
  meanPerRequest: number;
}

export function noiseOf(batches: readonly NoiseBatch[]): NoiseSummary {
  const logs = (epoch: number, side: string, batch?: number) =>
    batches
      .filter((b) => b.epoch === epoch && b.side === side && (batch === undefined || b.batch === batch) && b.instructionsPerOkRequest)
      .map((b) => Math.log(b.instructionsPerOkRequest!));
  const epochs = [...new Set(batches.map((b) => b.epoch))].sort((a, b) => a - b);
  const first = epochs.map((e) => mean(logs(e, 'candidate', 1)) - mean(logs(e, 'baseline', 1)));
  const all = epochs.map((e) => mean(logs(e, 'candidate')) - mean(logs(e, 'baseline')));
  const processes = epochs.flatMap((e) => ['baseline', 'candidate'].map((s) => logs(e, s)));
  const deviations = processes.flatMap((values) => values.map((v) => v - mean(values)));
  const dof = deviations.length - processes.length;
  return {
    epochs: epochs.length,
    batchesPerSide: Math.max(...batches.map((b) => b.batch)),
    firstBatchChanges: first,
    allBatchChanges: all,
    firstBatchSd: sd(first),
    allBatchSd: sd(all),
    withinProcessSd: dof > 0 ? Math.sqrt(deviations.reduce((s, v) => s + v * v, 0) / dof) : NaN,
    processMeanSd: sd(processes.map((values) => mean(values))),
    meanPerRequest: Math.exp(mean(processes.map((values) => mean(values)))),
  };
}

export function noiseLines(name: string, n: NoiseSummary): string[] {
  const pct = (x: number) => `${(x * 100).toFixed(3)}%`;
  return [
    `${name}: ${n.epochs} epochs, ${n.batchesPerSide} batches a side each, ${(n.meanPerRequest / 1e6).toFixed(3)} M instructions/request`,
    `  epoch change from its first batch: ${n.firstBatchChanges.map(pct).join(' ')} (sd ${pct(n.firstBatchSd)})`,
    `  epoch change from all its batches: ${n.allBatchChanges.map(pct).join(' ')} (sd ${pct(n.allBatchSd)})`,
    `  batches within a process: sd ${pct(n.withinProcessSd)}; process means: sd ${pct(n.processMeanSd)}`,
  ];
}
