// `redecide`: every recorded real comparison (compare-runs.json) decided again, look by look on its
// own epochs, by the plain rule and by the rule that must hold without its farthest epoch (no load).
import { DEFAULTS } from '@gwprof/collect';
import { recordedWindows, type CommandContext } from './driver.js';
import { readEntries } from './json-log.js';
import { recordedEpochValues, runToVerdict, type ReplayDesign, type ReplayResult } from './procedure-evaluation.js';
import type { RunEntry } from './runs.js';

const { threshold, alpha, minEpochs, spendingPower } = DEFAULTS.compare.design;
const PLAIN: ReplayDesign = { threshold, alpha, minEpochs, spendingPower, holdWithoutFarthest: false };
const HOLD: ReplayDesign = { ...PLAIN, holdWithoutFarthest: true };

/**
 * The run's last look: as recorded, or for older entries as its plan fixed it after epoch
 * minEpochs − 1, the epochs that fit in the budget at the pace of its epochs after the first (the
 * first holds the builds). The plain rule's column shows whether it gives back the run's verdict.
 */
export function plannedLastLook(run: RunEntry): number {
  if (run.maxEpochs) return run.maxEpochs;
  const seconds = run.epochRecords.map((e) => e.seconds ?? 0);
  const fixedAfter = minEpochs - 1;
  if (seconds.length < fixedAfter) return Math.max(minEpochs, run.epochs ?? minEpochs);
  const elapsed = seconds.slice(0, fixedAfter).reduce((a, b) => a + b, 0);
  const paced = seconds.slice(1, fixedAfter);
  const pace = paced.reduce((a, b) => a + b, 0) / paced.length;
  return Math.max(minEpochs, fixedAfter + Math.floor((run.budget * 60 - elapsed) / pace));
}

/** The run's own epochs, in the order they ran, through the rule until it stops. */
function redecide(values: readonly number[], design: ReplayDesign, maxEpochs: number): ReplayResult | null {
  let i = 0;
  const result = runToVerdict(() => values[i++] ?? Number.NaN, { ...design, maxEpochs });
  // The run stopped before the rule would have (its budget or the session ended): no verdict to compare.
  return result.epochs > values.length ? null : result;
}

export function redecideCommand({ values, out }: CommandContext): string {
  const runs = readEntries<RunEntry>(out, 'compare-runs.json').filter((r) => !values.since || r.date >= values.since);
  const shown = (r: ReplayResult | null) => (r ? `${r.outcome} (${r.epochs})` : 'stopped first');
  const rows = runs.map((run, i) => {
    const epochs = recordedEpochValues(recordedWindows(run.windows));
    const last = plannedLastLook(run);
    return `| ${i + 1} | ${run.date.slice(0, 16).replace('T', ' ')} | ${run.gateway} | ${run.kind} | ${run.budget} | ${run.verdict ?? '–'} (${run.epochs ?? '–'}) | ${last} | ${shown(redecide(epochs, PLAIN, last))} | ${shown(redecide(epochs, HOLD, last))} |`;
  });
  return `${[
    '| # | date (UTC) | gateway | candidate | budget min | recorded verdict (epochs) | last look (recorded, or estimated for older runs) | plain rule (epochs) | holds without its farthest epoch (epochs) |',
    '| ---: | --- | --- | --- | ---: | --- | ---: | --- | --- |',
    ...rows,
  ].join('\n')}\n`;
}
