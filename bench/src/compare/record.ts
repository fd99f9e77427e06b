// `record`: one long comparison with the stopping rule off, kept window by window and epoch by
// epoch, for `evaluate` (replays, noise components) and the noise study (one recording per lever).
import { extraFlags, recordFlags, slimEpochs, slimWindows, type Calibration, type CommandContext, type SlimEpoch, type SlimWindow } from './driver.js';
import type { CompareDesign } from '@gwprof/results';
import { appendEntry } from './json-log.js';

/** An entry of compare-recordings.json. */
export interface Recording {
  label: string;
  date: string;
  gateway: string;
  /** The extra compare flags it ran with (the lever it tries, or the design). */
  flags: string[];
  burnPercent: number;
  calibration: Calibration | null;
  minutes: number;
  windows: SlimWindow[];
  epochs: SlimEpoch[];
  /** The design it ran with, defaults included (absent in recordings made before it was kept). */
  design?: CompareDesign;
}

export function recordCommand({ values, out, driver, log }: CommandContext): string {
  if (!values.label) throw new Error('record needs --label');
  const percent = Number(values.burn);
  const calibration = percent > 0 ? driver.calibrateBurn(percent) : null;
  log(
    `recording ${values.label}: ${values.minutes} min${calibration ? `, burn ${calibration.burnUs} µs per request (${percent}% of ${calibration.cpuMsPerRequest.toFixed(2)} ms)` : ''}`,
  );
  const run = driver.compare(`record-${values.label}`, recordFlags(values.minutes), driver.burnEnv(calibration?.burnUs ?? 0));
  if (!run.result) throw new Error(`the recording wrote no compare.json (exit ${run.exitCode})`);
  const recording: Recording = {
    label: values.label,
    date: new Date().toISOString(),
    gateway: values.gateway,
    flags: extraFlags(values),
    burnPercent: percent,
    calibration,
    minutes: run.minutes,
    windows: slimWindows(run.result),
    epochs: slimEpochs(run.result),
    ...(run.result.config.design ? { design: run.result.config.design } : {}),
  };
  appendEntry(out, 'compare-recordings.json', recording);
  return `${values.label}: ${recording.epochs.length} epochs, ${new Set(recording.windows.map((w) => w.block)).size} blocks, ${run.minutes.toFixed(1)} min\n`;
}
