// `evaluate`: the stopping rule's error rates and time to a verdict, by replaying the recordings.
import { DEFAULTS } from '@gwprof/collect';
import { recordedWindows, type CommandContext } from './driver.js';
import { appendEntry, readEntries } from './json-log.js';
import { epochPace, noiseTable } from './noise-components.js';
import { evaluateProcedure, type EpochDraw, type ProcedureRates, type ReplayDesign } from './procedure-evaluation.js';
import type { Recording } from './record.js';

/** The test `gwprof compare` runs with: the CLI's defaults. */
const { threshold, alpha, minEpochs, spendingPower, holdWithoutFarthest } = DEFAULTS.compare.design;
const COMPARE_DESIGN: ReplayDesign = { threshold, alpha, minEpochs, spendingPower, holdWithoutFarthest };

interface EvaluationRow extends ProcedureRates {
  recording: string;
  effect: string;
  budget: number;
  epochDraw: EpochDraw;
  secondsPerEpoch: number;
}

/**
 * A/A recordings are replayed centred and with synthetic shifts; A/B ones as they were (shift null).
 * Epochs are drawn both with replacement and as a shuffled deck: with few recorded epochs the first
 * overstates the false-alarm rate and the second understates it (see procedure-evaluation.ts).
 */
function replayRows(rec: Recording, replays: number, design: ReplayDesign): EvaluationRow[] {
  const secondsPerEpoch = epochPace(rec.epochs, rec.windows)?.epochSeconds ?? (rec.minutes * 60) / rec.epochs.length;
  const recorded = recordedWindows(rec.windows);
  const shifts = rec.burnPercent > 0 ? [null] : [0, 0.05, 0.1];
  const rows: EvaluationRow[] = [];
  for (const shift of shifts) {
    for (const budget of [10, 20]) {
      for (const epochDraw of ['replacement', 'deck'] as const) {
        const rates = evaluateProcedure(recorded, design, {
          replays,
          seed: 7,
          ...(shift ? { shift } : {}),
          center: shift !== null,
          epochDraw,
          secondsPerEpoch,
          budgetMinutes: budget,
        });
        rows.push({
          recording: rec.label,
          effect: shift === null ? `real +${rec.burnPercent}%` : `synthetic ${shift === 0 ? '0' : `+${shift * 100}%`}`,
          budget,
          epochDraw,
          secondsPerEpoch,
          ...rates,
        });
      }
    }
  }
  return rows;
}

function evaluationTable(rows: readonly EvaluationRow[]): string {
  const p = (x: number): string => `${(x * 100).toFixed(1)}%`;
  return [
    '| recording | effect | budget min | last look (epochs) | epochs drawn | regression | no change | improvement | inconclusive | median min to verdict |',
    '| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.recording} | ${r.effect} | ${r.budget} | ${r.maxEpochs} | ${r.epochDraw === 'deck' ? 'as a deck' : 'with replacement'} | ${p(r.shares.regression)} | ${p(r.shares['no change'])} | ${p(r.shares.improvement)} | ${p(r.shares.inconclusive)} | ${r.minutesToVerdict ? r.minutesToVerdict.median.toFixed(1) : '–'} |`,
    ),
  ].join('\n');
}

/**
 * Recordings of one label, made in turns with others (so that the machine's drift over the day hits
 * every label alike), as one recording: their epochs numbered on from one another.
 */
export function mergeByLabel(recordings: readonly Recording[]): Recording[] {
  const byLabel = new Map<string, Recording>();
  for (const rec of recordings) {
    const merged = byLabel.get(rec.label);
    if (!merged) {
      byLabel.set(rec.label, { ...rec, windows: [...rec.windows], epochs: [...rec.epochs] });
      continue;
    }
    const offset = Math.max(0, ...merged.epochs.map((e) => e.epoch), ...merged.windows.map((w) => w.epoch));
    const blockOffset = Math.max(0, ...merged.windows.map((w) => w.block));
    merged.windows.push(...rec.windows.map((w) => ({ ...w, epoch: w.epoch + offset, block: w.block + blockOffset })));
    merged.epochs.push(...rec.epochs.map((e) => ({ ...e, epoch: e.epoch + offset })));
    merged.minutes += rec.minutes;
  }
  return [...byLabel.values()];
}

/** --hold yes|no; absent: compare's default. */
function holdOption(value: string | undefined): boolean {
  if (value === undefined) return holdWithoutFarthest;
  if (value !== 'yes' && value !== 'no') throw new Error(`--hold must be yes or no, got ${value}`);
  return value === 'yes';
}

export function evaluateCommand({ values, out }: CommandContext): string {
  const replays = Number(values.replays);
  // --since: one day's recordings alone (the machine's speed and noise differ from day to day).
  const since = values.since ? Date.parse(values.since) : -Infinity;
  if (Number.isNaN(since)) throw new Error(`--since must be a date, got ${values.since}`);
  const dated = readEntries<Recording>(out, 'compare-recordings.json').filter((rec) => Date.parse(rec.date) >= since);
  const recordings = mergeByLabel(dated).filter((rec) => !values.label || rec.label === values.label);
  // --statistic trimmed|huber: the same rule on a robust centre of the epochs (a study of the time measure's robustness).
  const statistic = values.statistic ?? 'mean';
  if (!['mean', 'trimmed', 'huber'].includes(statistic)) throw new Error(`--statistic must be mean, trimmed or huber, got ${statistic}`);
  const design: ReplayDesign = {
    ...COMPARE_DESIGN,
    ...(statistic === 'mean' ? {} : { statistic: statistic as 'trimmed' | 'huber' }),
    holdWithoutFarthest: holdOption(values.hold),
  };
  const rows = recordings.flatMap((rec) => replayRows(rec, replays, design));
  appendEntry(out, 'compare-evaluation.json', { date: new Date().toISOString(), replays, design, rows });
  return `${noiseTable(recordings.map((rec) => ({ name: rec.label, windows: rec.windows, epochs: rec.epochs })))}\n\n${evaluationTable(rows)}\n`;
}
