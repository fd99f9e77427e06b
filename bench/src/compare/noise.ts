// `noise`: A/A recordings at several window lengths, and the noise per minute of machine time of each.
import { recordFlags, recordedWindows, slimWindows, type CommandContext, type CompareRun, type SlimWindow } from './driver.js';
import { appendEntry } from './json-log.js';
import { recordingNoise } from './procedure-evaluation.js';
import { blockRatios, sd } from './stats.js';

interface NoiseRow {
  window: number;
  blocks: number;
  minutes: number;
  minutesPerBlock: number;
  sdBlock: number;
  sdBlockWithoutGc: number | null;
  sdBlockCalmOnly: number | null;
  calmBlocks: number;
  varianceMinutes: number;
  epochEffectSd: number | null;
  withinEpochSd: number | null;
}

/** The noise components of a recording; null figures when it is too short to split (fewer than two epochs). */
function noiseComponents(windows: readonly SlimWindow[]): { epochEffectSd: number | null; withinEpochSd: number | null } {
  try {
    return recordingNoise(recordedWindows(windows));
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return { epochEffectSd: null, withinEpochSd: null };
  }
}

/** The noise figures of one recording at one window length. */
function noiseRow(window: number, run: CompareRun & { result: NonNullable<CompareRun['result']> }): { row: NoiseRow; windows: SlimWindow[] } {
  const windows = slimWindows(run.result);
  const cpu = blockRatios(windows, (w) => w.value);
  const noGc = blockRatios(windows, (w) => (w.gcMs === null || w.value === null ? null : w.value - w.gcMs / w.ok));
  const calm = blockRatios(windows.filter((w) => !((w.majorGcMs ?? 0) > 0)), (w) => w.value);
  const blocks = cpu.length;
  const minutesPerBlock = run.minutes / Math.max(1, blocks);
  const noise = noiseComponents(windows);
  const row = {
    window, blocks, minutes: run.minutes, minutesPerBlock,
    sdBlock: sd(cpu), sdBlockWithoutGc: noGc.length > 2 ? sd(noGc) : null, sdBlockCalmOnly: calm.length > 2 ? sd(calm) : null, calmBlocks: calm.length,
    // Minutes of machine time a fixed test needs per unit of precision: σ² × minutes per block.
    varianceMinutes: sd(cpu) ** 2 * minutesPerBlock,
    epochEffectSd: noise.epochEffectSd, withinEpochSd: noise.withinEpochSd,
  };
  return { row, windows };
}

function noiseTable(rows: readonly NoiseRow[]): string {
  const f = (x: number | null | undefined, d = 3): string => (x === null || x === undefined ? '–' : Number(x).toFixed(d));
  return [
    '| window s | blocks | min/block | sd of block log ratio | without GC time | blocks without major GC (sd) | σ² × min/block | epoch effect sd |',
    '| ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |',
    ...rows.map((r) => `| ${r.window} | ${r.blocks} | ${f(r.minutesPerBlock, 2)} | ${f(r.sdBlock)} | ${f(r.sdBlockWithoutGc)} | ${r.calmBlocks} (${f(r.sdBlockCalmOnly)}) | ${f(r.varianceMinutes * 1000, 3)}e-3 | ${f(r.epochEffectSd)} |`),
  ].join('\n');
}

export function noiseCommand({ values, out, driver, log }: CommandContext): string {
  const rows: NoiseRow[] = [];
  for (const window of values.windows.split(',').map(Number)) {
    log(`window ${window} s: recording ${values.minutes} min of A/A…`);
    const run = driver.compare(`noise-w${window}`, recordFlags(window, values.minutes, values['blocks-per-epoch']));
    if (!run.result) continue;
    const { row, windows } = noiseRow(window, { ...run, result: run.result });
    rows.push(row);
    appendEntry(out, 'compare-noise.json', { date: new Date().toISOString(), gateway: values.gateway, ...row, windows });
    log(JSON.stringify(row));
  }
  return `${noiseTable(rows)}\n`;
}
