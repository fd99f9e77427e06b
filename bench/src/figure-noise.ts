#!/usr/bin/env node
// How much other per-window figures than the gateway's CPU per request scatter from epoch to epoch
// (backs "The noise study" of docs/validation/compare-error-rates.md): the verdict's figure, the same
// with GC time taken out, and divided by a reading of the machine's speed: the subgraphs' CPU per
// subgraph request (processes that run the same code for both sides), or the CPU time of
// speed-probe.js's fixed work during the window (--probe, its JSON lines). What it shows: whether a
// comparison could decide on a quieter figure, and what each would do to a known change. Reads
// comparisons already made; drives no load.
//
//   node bench/dist/figure-noise.js [--since 2026-11-26T12:00] [--probe probe.jsonl] [--extract windows.json] FILE|LABEL=FILE ...
//
// A FILE is a comparison's compare.json (LABEL= names it), or a JSON log of entries that keep their
// windows (compare-recordings.json, compare-runs.json, or an --extract of earlier compare.json files;
// only entries of the default design, from --since on). --extract writes the compare.json inputs'
// windows, slimmed, so that the table can be made again from the repository.
import { readFileSync, writeFileSync } from 'node:fs';
import { benchArgs } from './args.js';
import type { CompareResult } from '@gwprof/results';
import { FIGURES, READINGS, figureScatter, probeDuring, windowCorrelation, type FigureWindow, type ProbeReading } from './compare/alternative-figures.js';
import { slimWindows } from './compare/driver.js';
import { defaultDesignEntries, type LoggedComparison } from './compare/json-log.js';

interface LabelledWindows {
  label: string;
  windows: FigureWindow[];
}

const { values: args, positionals } = benchArgs(
  { options: { since: { type: 'string', default: '' }, extract: { type: 'string' }, probe: { type: 'string' } }, allowPositionals: true },
  { usage: 'FILE|LABEL=FILE …', min: 1 },
);
const probe: ProbeReading[] = args.probe
  ? readFileSync(args.probe, 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as ProbeReading)
  : [];

/** The compare.json's windows, each with the probe's reading while its load was measured. */
function probedWindows(result: CompareResult): FigureWindow[] {
  return slimWindows(result).map((w, i) => {
    const step = result.windows[i]!.step;
    // A step starts when its settle begins; its load starts settleSec later, and the window windowStartSec into the load.
    const from = Date.parse(step.startedAt) + (step.timing.settleSec + step.timing.windowStartSec) * 1000;
    return probe.length ? { ...w, probeCpuUs: probeDuring(probe, from, from + step.timing.windowSec * 1000) } : w;
  });
}

/** A compare.json of the sides in turn, or the default-design entries of a JSON log. */
function readRuns(argument: string): { runs: LabelledWindows[]; fromCompareJson: boolean } {
  const [label, file] = argument.includes('=') ? (argument.split('=', 2) as [string, string]) : [argument, argument];
  const data = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(data)) {
    const result = data as CompareResult;
    const design = result.config.design;
    const mode = design?.simultaneous ? ' (simultaneous)' : design?.warmTogether ? ' (warmed together)' : '';
    return { runs: [{ label: `${label}${mode}`, windows: probedWindows(result) }], fromCompareJson: true };
  }
  const entries = defaultDesignEntries(data as Array<LoggedComparison<FigureWindow>>, args.since);
  return {
    runs: entries.map((e) => ({ label: [e.label ?? e.kind ?? file, e.date?.slice(0, 16)].filter(Boolean).join(' '), windows: e.windows })),
    fromCompareJson: false,
  };
}

const read = positionals.map(readRuns);
const runs = read.flatMap((r) => r.runs);
if (args.extract)
  writeFileSync(
    args.extract,
    `${JSON.stringify(
      read.filter((r) => r.fromCompareJson).flatMap((r) => r.runs),
      null,
      1,
    )}\n`,
  );

const pct = (x: number | null | undefined, sign = false): string =>
  x === null || x === undefined ? '–' : `${sign && x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
const r2 = (x: number | null): string => (x === null ? '–' : x.toFixed(2));
const names = Object.keys(FIGURES);
console.log(
  `| comparison | epochs | ${names.map((n) => `${n}: change, epoch sd`).join(' | ')} | r over all windows (gateway, GC per req) | r over all windows (gateway, subgraph per req) | r over all windows (gateway, probe) |`,
);
console.log(`| --- | ---: | ${names.map(() => '---:').join(' | ')} | ---: | ---: | ---: |`);
for (const run of runs) {
  const rows = figureScatter(run.windows);
  const cell = (name: string): string => {
    const row = rows.find((r) => r.figure === name);
    return row ? `${pct(row.meanChange, true)}, ${pct(row.epochSd)}` : '–';
  };
  const r = (reading: (w: FigureWindow) => number | null): string => r2(windowCorrelation(run.windows, (w) => w.value, reading));
  console.log(
    `| ${run.label} | ${rows[0]?.epochs ?? 0} | ${names.map(cell).join(' | ')} | ${r(READINGS.gcPerRequest)} | ${r(READINGS.subgraphCpuPerRequest)} | ${r(READINGS.probeCpuUs)} |`,
  );
}
