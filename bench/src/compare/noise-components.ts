// Where a comparison's noise comes from: between blocks of one process pair, or between pairs.
import { recordingNoise } from '../../packages/analysis/dist/index.js';

/** One row per named set of windows (a recording or a run): its noise components, as markdown. */
export function noiseTable(sets) {
  const p = (x) => `${(x * 100).toFixed(1)}%`;
  return [
    '| windows of | blocks | epochs | sd between blocks of one epoch | sd of the epoch (process pair) effect | intra-epoch correlation |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...sets.map(({ name, windows }) => {
      const n = recordingNoise(windows);
      return `| ${name} | ${n.blocks} | ${n.epochs} | ${p(n.withinEpochSd)} | ${p(n.epochEffectSd)} | ${n.intraEpochCorrelation.toFixed(2)} |`;
    }),
  ].join('\n');
}
