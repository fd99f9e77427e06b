// `record`: one long comparison with the stopping rule off, kept window by window for `evaluate`.
import { recordFlags, slimWindows, type Calibration, type CommandContext, type SlimWindow } from './driver.js';
import { appendEntry } from './json-log.js';

/** An entry of compare-recordings.json. */
export interface Recording {
  label: string;
  date: string;
  gateway: string;
  window: number;
  blocksPerEpoch: number;
  burnPercent: number;
  calibration: Calibration | null;
  minutes: number;
  windows: SlimWindow[];
}

export function recordCommand({ values, out, driver, log }: CommandContext): string {
  if (!values.label) throw new Error('record needs --label');
  const percent = Number(values.burn);
  const calibration = percent > 0 ? driver.calibrateBurn(percent) : null;
  log(`recording ${values.label}: ${values.minutes} min${calibration ? `, burn ${calibration.burnUs} µs per request (${percent}% of ${calibration.cpuMsPerRequest.toFixed(2)} ms)` : ''}`);
  const run = driver.compare(`record-${values.label}`, recordFlags(values.window, values.minutes, values['blocks-per-epoch']), driver.burnEnv(calibration?.burnUs ?? 0));
  if (!run.result) throw new Error(`the recording wrote no compare.json (exit ${run.exitCode})`);
  const windows = slimWindows(run.result);
  const recording: Recording = {
    label: values.label, date: new Date().toISOString(), gateway: values.gateway, window: Number(values.window),
    blocksPerEpoch: Number(values['blocks-per-epoch']), burnPercent: percent, calibration, minutes: run.minutes, windows,
  };
  appendEntry(out, 'compare-recordings.json', recording);
  return `${values.label}: ${new Set(windows.map((w) => w.block)).size} blocks in ${new Set(windows.map((w) => w.epoch)).size} epochs, ${run.minutes.toFixed(1)} min\n`;
}
