// `runs-table`: every recorded real comparison (compare-runs.json, written by `runs`), as one table.
import type { CommandContext } from './driver.js';
import { readEntries } from './json-log.js';
import { noiseTable } from './noise-components.js';
import { verdictSummary, type RunEntry } from './runs.js';

/** The share of the baseline's CPU per request that a run's burn really was. */
function burnShare(r: RunEntry, pct: (x: number | null) => string): string {
  if (!r.burnUs) return '–';
  return r.baselineCpuMs ? `${r.burnUs} µs ÷ ${r.baselineCpuMs.toFixed(2)} ms = ${pct(r.burnUs / 1000 / r.baselineCpuMs)}` : `${r.burnUs} µs`;
}

/** The noise components and pace of every run, as a table. */
function runNoise(runs: readonly RunEntry[]): string[] {
  const kept = runs
    .map((r, i) => ({ name: `#${i + 1} ${r.gateway} ${r.kind}`, windows: r.windows, epochs: r.epochRecords }))
    .filter((r) => r.windows.length > 0);
  return kept.length > 0 ? ['', noiseTable(kept)] : [];
}

export function runsTableCommand({ values, out }: CommandContext): string {
  const all = readEntries<RunEntry>(out, 'compare-runs.json').filter((r) => !values.since || r.date >= values.since);
  const pct = (x: number | null): string => (x === null ? '–' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`);
  return `${[
    '| # | date (UTC) | gateway | candidate | burn ÷ baseline CPU per request | verdict | exit | epochs | change [interval] | minutes |',
    '| ---: | --- | --- | --- | --- | --- | ---: | ---: | --- | ---: |',
    ...all.map(
      (r, i) =>
        `| ${i + 1} | ${r.date.slice(0, 16).replace('T', ' ')} | ${r.gateway} | ${r.kind} | ${burnShare(r, pct)} | ${r.verdict} | ${r.exitCode} | ${r.epochs ?? '–'} | ${pct(r.change)}${r.interval ? ` [${pct(r.interval.low)}, ${pct(r.interval.high)}]` : ''} | ${r.minutes.toFixed(1)} |`,
    ),
    '',
    ...verdictSummary(all),
    ...runNoise(all),
  ].join('\n')}\n`;
}
