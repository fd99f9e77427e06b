#!/usr/bin/env node
// Does each way of measuring a comparison report a known change at its size? (backs compare's choice
// of measurement mode, docs/validation/compare-error-rates.md#measuring-both-sides-at-once). The
// candidate burns a known CPU time per request (fixtures/burn-cpu-per-request.cjs); each mode runs a
// real `gwprof compare` of --minutes against it, the modes in a random order in every round:
//   - in-turn: each side alone on the gateway core for its windows (the default);
//   - warm-together: both warmed up at once after their start, then measured in turn;
//   - simultaneous: both loaded at once in every window, sharing the core.
// For each run: the candidate's extra CPU ms per successful request (per epoch, geometric mean of its
// windows minus the baseline's; then the mean over epochs) beside the burn, and the relative change.
// A mode whose extra CPU differs from the burn (and from the other modes) measures something the
// gateway would not pay alone. Results are appended to <out>/compare-modes.json as each run ends.
//
//   node bench/dist/compare-modes.js [--gateway mesh] [--burn-us 2000] [--minutes 5] [--rounds 2]
//     [--modes in-turn,warm-together,simultaneous] [--out bench/results/compare-epochs]
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { benchArgs } from './args.js';
import { mean, mulberry32 } from '@gwprof/analysis';
import { repoRoot } from './common.js';
import { createDriver, recordFlags, slimWindows, type SlimWindow } from './compare/driver.js';
import { appendEntry } from './compare/json-log.js';

const MODE_FLAGS: Record<string, string[]> = {
  'in-turn': [],
  'warm-together': ['--warm-together'],
  simultaneous: ['--simultaneous'],
};

const { values } = benchArgs({
  options: {
    gateway: { type: 'string', default: 'mesh' },
    'burn-us': { type: 'string', default: '2000' },
    minutes: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '2' },
    modes: { type: 'string', default: Object.keys(MODE_FLAGS).join(',') },
    out: { type: 'string', default: path.join(repoRoot, 'bench', 'results', 'compare-epochs') },
  },
});
const modes = values.modes.split(',');
for (const mode of modes) if (!MODE_FLAGS[mode]) throw new Error(`--modes: unknown mode "${mode}" (${Object.keys(MODE_FLAGS).join(', ')})`);
const burnUs = Number(values['burn-us']);
const out = path.resolve(values.out);
mkdirSync(out, { recursive: true });
const log = (line: string): void => void process.stderr.write(`${line}\n`);
const driver = createDriver({ root: repoRoot, gateway: values.gateway, flags: [], log });

/** Per epoch: the geometric means of each side's windows, ms per successful request. */
function epochMeans(windows: readonly SlimWindow[]): Array<{ baseline: number; candidate: number }> {
  const epochs = new Map<number, { baseline: number[]; candidate: number[] }>();
  for (const w of windows) {
    if (w.value === null || w.value <= 0) continue;
    const epoch = epochs.get(w.epoch) ?? { baseline: [], candidate: [] };
    epoch[w.side].push(Math.log(w.value));
    epochs.set(w.epoch, epoch);
  }
  return [...epochs.values()]
    .filter((e) => e.baseline.length > 0 && e.candidate.length > 0)
    .map((e) => ({ baseline: Math.exp(mean(e.baseline)), candidate: Math.exp(mean(e.candidate)) }));
}

/** Fisher–Yates: every order equally likely. */
function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

interface ModeRun {
  mode: string;
  round: number;
  date: string;
  burnUs: number;
  epochs: number;
  baselineCpuMs: number;
  extraCpuMs: number;
  relativeChange: number;
  windows: SlimWindow[];
}

const random = mulberry32(Date.now() % 2 ** 31);
const runs: ModeRun[] = [];
for (let round = 1; round <= Number(values.rounds); round++) {
  const order = shuffled(modes, random);
  for (const mode of order) {
    log(`round ${round}: ${mode}, ${values.minutes} min, burn ${burnUs} µs per request`);
    const run = driver.compare(`modes-${mode}-${round}`, [...recordFlags(values.minutes), ...MODE_FLAGS[mode]!], driver.burnEnv(burnUs));
    if (!run.result) throw new Error(`${mode}: the comparison wrote no compare.json (exit ${run.exitCode})`);
    const windows = slimWindows(run.result);
    const means = epochMeans(windows);
    const entry: ModeRun = {
      mode,
      round,
      date: new Date().toISOString(),
      burnUs,
      epochs: means.length,
      baselineCpuMs: mean(means.map((m) => m.baseline)),
      extraCpuMs: mean(means.map((m) => m.candidate - m.baseline)),
      relativeChange: Math.expm1(mean(means.map((m) => Math.log(m.candidate / m.baseline)))),
      windows,
    };
    runs.push(entry);
    appendEntry(out, 'compare-modes.json', entry);
    log(
      `  ${entry.epochs} epochs: baseline ${entry.baselineCpuMs.toFixed(2)} ms, extra ${entry.extraCpuMs.toFixed(2)} ms (${(entry.extraCpuMs / (burnUs / 1000)).toFixed(2)} × the burn), change ${(entry.relativeChange * 100).toFixed(1)}%`,
    );
  }
}

const rows = runs.map(
  (r) =>
    `| ${r.round} | ${r.mode} | ${r.epochs} | ${r.baselineCpuMs.toFixed(2)} | ${r.extraCpuMs.toFixed(2)} | ${(r.extraCpuMs / (r.burnUs / 1000)).toFixed(2)} | ${(r.relativeChange * 100).toFixed(1)}% |`,
);
process.stdout.write(
  [
    `burn ${burnUs} µs of CPU per request in the candidate; \`node bench/dist/compare-modes.js ${process.argv.slice(2).join(' ')}\``,
    '',
    '| round | mode | epochs | baseline CPU ms/req | candidate extra ms/req | extra ÷ burn | change |',
    '| ---: | --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
  ].join('\n'),
);
