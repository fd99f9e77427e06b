// `noise`: A/A recordings at several window lengths, and the noise per minute of machine time of each.
import { recordingNoise } from '../../packages/analysis/dist/index.js';
import { recordFlags, slimWindows } from './driver.mjs';
import { appendEntry } from './json-log.mjs';
import { blockRatios, sd } from './stats.mjs';

/** The noise figures of one recording at one window length. */
function noiseRow(window, run) {
  const windows = slimWindows(run.result);
  const cpu = blockRatios(windows, (w) => w.value);
  const noGc = blockRatios(windows, (w) => (w.gcMs === null ? null : w.value - w.gcMs / w.ok));
  const calm = blockRatios(windows.filter((w) => !(w.majorGcMs > 0)), (w) => w.value);
  const blocks = cpu.length;
  const minutesPerBlock = run.minutes / Math.max(1, blocks);
  const noise = recordingNoise(windows.map((w) => ({ epoch: w.epoch, block: w.block, side: w.side, value: w.value })));
  const row = {
    window, blocks, minutes: run.minutes, minutesPerBlock,
    sdBlock: sd(cpu), sdBlockWithoutGc: noGc.length > 2 ? sd(noGc) : null, sdBlockCalmOnly: calm.length > 2 ? sd(calm) : null, calmBlocks: calm.length,
    // Minutes of machine time a fixed test needs per unit of precision: σ² × minutes per block.
    varianceMinutes: sd(cpu) ** 2 * minutesPerBlock,
    epochEffectSd: noise.epochEffectSd, withinEpochSd: noise.withinEpochSd,
  };
  return { row, windows };
}

function noiseTable(rows) {
  const f = (x, d = 3) => (x === null || x === undefined ? '–' : Number(x).toFixed(d));
  return [
    '| window s | blocks | min/block | sd of block log ratio | without GC time | blocks without major GC (sd) | σ² × min/block | epoch effect sd |',
    '| ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |',
    ...rows.map((r) => `| ${r.window} | ${r.blocks} | ${f(r.minutesPerBlock, 2)} | ${f(r.sdBlock)} | ${f(r.sdBlockWithoutGc)} | ${r.calmBlocks} (${f(r.sdBlockCalmOnly)}) | ${f(r.varianceMinutes * 1000, 3)}e-3 | ${f(r.epochEffectSd)} |`),
  ].join('\n');
}

export function noiseCommand({ values, out, driver, log }) {
  const rows = [];
  for (const window of values.windows.split(',').map(Number)) {
    log(`window ${window} s: recording ${values.minutes} min of A/A…`);
    const run = driver.compare(`noise-w${window}`, recordFlags(window, values.minutes, values['blocks-per-epoch']));
    if (!run.result) continue;
    const { row, windows } = noiseRow(window, run);
    rows.push(row);
    appendEntry(out, 'compare-noise.json', { date: new Date().toISOString(), gateway: values.gateway, ...row, windows });
    log(JSON.stringify(row));
  }
  return `${noiseTable(rows)}\n`;
}
