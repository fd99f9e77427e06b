// Where a comparison's noise comes from: between blocks of one process pair, or between pairs.
import { recordedWindows, type SlimWindow } from './driver.js';
import { recordingNoise, type RecordingNoise } from './procedure-evaluation.js';

/** One row per named set of windows (a recording or a run): its noise components, as markdown. */
export function noiseTable(sets: readonly { name: string; windows: readonly SlimWindow[] }[]): string {
  const p = (x: number): string => `${(x * 100).toFixed(1)}%`;
  return [
    '| windows of | blocks | epochs | sd between blocks of one epoch | sd of the epoch (process pair) effect | intra-epoch correlation |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...sets.map(({ name, windows }) => {
      let n: RecordingNoise;
      try {
        n = recordingNoise(recordedWindows(windows));
      } catch (error) {
        // Too short to split (fewer than two epochs, or no epoch with two blocks): a row of dashes.
        if (!(error instanceof RangeError)) throw error;
        return `| ${name} | ${new Set(windows.map((w) => w.block)).size} | ${new Set(windows.map((w) => w.epoch)).size} | – | – | – |`;
      }
      return `| ${name} | ${n.blocks} | ${n.epochs} | ${p(n.withinEpochSd)} | ${p(n.epochEffectSd)} | ${n.intraEpochCorrelation.toFixed(2)} |`;
    }),
  ].join('\n');
}
