// `runs-table`: every recorded real comparison (compare-runs.json, written by `runs`), as one table.
import { burnOfKind, type CommandContext } from './driver.js';
import { readEntries } from './json-log.js';
import { noiseTable } from './noise-components.js';
import { verdictSummary, type RunEntry } from './runs.js';

/** The share of the baseline's CPU per request that a run's burn really was. */
function burnShare(r: RunEntry, pct: (x: number | null) => string): string {
  // Runs recorded before burnUs was kept: the burn follows from the calibration and the kind.
  const burnUs = r.burnUs ?? burnOfKind(r.calibration, r.kind);
  if (!burnUs) return '–';
  return r.baselineCpuMs ? `${burnUs} µs ÷ ${r.baselineCpuMs.toFixed(2)} ms = ${pct(burnUs / 1000 / r.baselineCpuMs)}` : `${burnUs} µs`;
}

/** The noise components of the runs that kept their windows (from 2026-11-24 on), as a table. */
function runNoise(runs: readonly RunEntry[]): string[] {
  const kept = runs.map((r, i) => ({ name: `#${i + 1} ${r.kind}`, windows: r.windows ?? [] })).filter((r) => r.windows.length > 0);
  return kept.length > 0 ? ['', noiseTable(kept)] : [];
}

export function runsTableCommand({ values, out }: CommandContext): string {
  const all = readEntries<RunEntry>(out, 'compare-runs.json').filter((r) => !values.since || r.date >= values.since);
  const pct = (x: number | null): string => (x === null ? '–' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`);
  return [
    '| # | date (UTC) | candidate | burn ÷ baseline CPU per request | verdict | exit | blocks | change | minutes |',
    '| ---: | --- | --- | --- | --- | ---: | ---: | ---: | ---: |',
    ...all.map((r, i) => `| ${i + 1} | ${r.date.slice(0, 16).replace('T', ' ')} | ${r.kind} | ${burnShare(r, pct)} | ${r.verdict} | ${r.exitCode} | ${r.blocks ?? '–'} | ${pct(r.change)} | ${r.minutes.toFixed(1)} |`),
    '',
    ...verdictSummary(all),
    ...runNoise(all),
  ].join('\n') + '\n';
}
