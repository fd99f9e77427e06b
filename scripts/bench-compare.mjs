#!/usr/bin/env node
// How good is `gwprof compare`'s verdict on this machine? Every measurement here runs the real CLI
// (each run holds /work/load.lock when it exists, so it never overlaps other measurements).
//
//   node scripts/bench-compare.mjs noise    [--windows 2,5,10,20] [--minutes 10]     noise per minute of machine time by window length
//   node scripts/bench-compare.mjs record   --label aa [--burn 5] [--minutes 60]    record windows of A/A (or A/B with a CPU burn of N%)
//   node scripts/bench-compare.mjs evaluate [--replays 2000]                          error rates by resampling the recordings
//   node scripts/bench-compare.mjs runs     [--aa 10] [--burn5 10] [--burn10 10]      real comparisons with the stopping rule
//                                            [--recalibrate]                          calibrate the burn before every burn run
//   node scripts/bench-compare.mjs runs-table [--since 2026-11-22T12:00]              every recorded real comparison, as one table
//
// Common: [--gateway mesh] [--window 5] [--blocks-per-epoch 3] [--out docs/bench]. Results are
// appended to <out>/compare-<command>.json and printed as markdown tables.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { evaluateProcedure, recordingNoise, DEFAULT_SEQUENTIAL_DESIGN } from '../packages/analysis/dist/index.js';
import { DEFAULTS } from '../packages/collect/dist/index.js';

// The design `gwprof compare` runs with: the analysis defaults, with the CLI's defaults on top.
const COMPARE_DESIGN = { ...DEFAULT_SEQUENTIAL_DESIGN, threshold: DEFAULTS.compare.threshold, alpha: DEFAULTS.compare.alpha, beta: DEFAULTS.compare.beta, minBlocks: DEFAULTS.compare.minBlocks };

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    gateway: { type: 'string', default: 'mesh' },
    window: { type: 'string', default: '5' },
    windows: { type: 'string', default: '2,5,10,20' },
    minutes: { type: 'string', default: '10' },
    label: { type: 'string' },
    burn: { type: 'string', default: '0' },
    'blocks-per-epoch': { type: 'string', default: '3' },
    replays: { type: 'string', default: '2000' },
    aa: { type: 'string', default: '10' },
    burn5: { type: 'string', default: '10' },
    burn10: { type: 'string', default: '10' },
    budget: { type: 'string', default: '10' },
    'budget5': { type: 'string', default: '20' },
    recalibrate: { type: 'boolean', default: false },
    out: { type: 'string', default: path.join(root, 'docs', 'bench') },
    since: { type: 'string' },
  },
});
const command = positionals[0];
const out = path.resolve(values.out);
mkdirSync(out, { recursive: true });
const work = mkdtempSync(path.join(os.tmpdir(), 'gwprof-bench-compare-'));
const burnPreload = path.join(root, 'scripts', 'burn-cpu-per-request.cjs');
const log = (line) => process.stderr.write(`${line}\n`);
// On the shared development machine every measurement holds this lock; elsewhere there is none.
const lockArgs = existsSync('/work/load.lock') ? ['flock', '/work/load.lock'] : [];
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const sd = (xs) => { const m = xs.reduce((a, b) => a + b, 0) / xs.length; return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1)); };

/** One `gwprof compare`, its compare.json and how long it took. */
function compare(label, flags, candidateEnv = {}) {
  const json = path.join(work, `${label}.json`);
  const args = [
    path.join(root, 'packages/cli/dist/bin.js'), 'compare', '--baseline', values.gateway, '--candidate', values.gateway,
    '--out', work, '--run-id', label, '--json', json, '--no-color', ...flags,
    ...Object.entries(candidateEnv).flatMap(([k, v]) => ['--candidate-env', `${k}=${v}`]),
  ];
  const [cmd, argv] = lockArgs.length ? [lockArgs[0], [...lockArgs.slice(1), process.execPath, ...args]] : [process.execPath, args];
  const started = Date.now();
  const child = spawnSync(cmd, argv, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  const wallMinutes = (Date.now() - started) / 60_000;
  let result = null;
  try {
    result = JSON.parse(readFileSync(json, 'utf8'));
  } catch {
    log(`${label}: no compare.json (exit ${child.status}): ${child.stderr.slice(-500)}`);
  }
  // The comparison's own clock: the wall time above also holds any wait for the lock.
  const ownMinutes = result?.startedAt && result?.finishedAt ? (Date.parse(result.finishedAt) - Date.parse(result.startedAt)) / 60_000 : null;
  return { result, exitCode: child.status, minutes: ownMinutes ?? wallMinutes };
}

/** The windows a recording keeps: enough to replay the procedure and to study noise. */
function slimWindows(result) {
  return result.windows.map((w) => ({
    epoch: w.epoch, block: w.block, position: w.position, side: w.side, level: w.step.concurrency,
    value: w.step.gateway.cpuMsPerOkRequest, ok: w.step.requests.ok, rps: w.step.rps,
    gcMs: w.step.profile?.nodeGc?.ms ?? null, majorGcMs: w.step.profile?.nodeGc?.msByKind?.['4'] ?? null,
  }));
}

function append(file, entry) {
  const target = path.join(out, file);
  const list = existsSync(target) ? JSON.parse(readFileSync(target, 'utf8')) : [];
  list.push(entry);
  writeFileSync(target, `${JSON.stringify(list, null, 1)}\n`);
}

/** A recording's blocks: x = mean log candidate − mean log baseline, for a value function. */
function blockRatios(windows, value) {
  const blocks = new Map();
  for (const w of windows) {
    const v = value(w);
    if (!(v > 0)) continue;
    const b = blocks.get(w.block) ?? { baseline: [], candidate: [] };
    b[w.side].push(Math.log(v));
    blocks.set(w.block, b);
  }
  const mean = (xs) => xs.reduce((a, x) => a + x, 0) / xs.length;
  return [...blocks.values()].filter((b) => b.baseline.length && b.candidate.length).map((b) => mean(b.candidate) - mean(b.baseline));
}

/**
 * Calibrates a burn of `percent` % of the baseline's CPU per request, in µs. Profiles stay on, as in
 * the comparisons: the profiler adds to the CPU per request, and a burn sized on the unprofiled cost
 * is a smaller share of what the comparison measures.
 */
function burnMicroseconds(percent) {
  const probe = compare(`calibrate-${Date.now()}`, ['--window', values.window, '--min-blocks', '100000', '--budget', '3']);
  const cpu = median(probe.result.windows.map((w) => w.step.gateway.cpuMsPerOkRequest).filter((v) => v > 0));
  return { cpuMsPerRequest: cpu, burnUs: Math.round(cpu * 1000 * percent / 100) };
}

/** The burn of a run kind ("+10%") from a calibration of 100%, in µs; 0 for A/A. */
function burnOfKind(calibration, kind) {
  const percent = Number(/^\+(\d+)%$/.exec(kind)?.[1] ?? 0);
  return calibration && percent ? Math.round((calibration.burnUs * percent) / 100) : 0;
}

/** Per kind of run: how the verdicts fell and how long they took, as markdown rows. */
function verdictSummary(runs) {
  const kinds = [...new Set(runs.map((r) => r.kind))];
  return [
    '| candidate | runs | regression | no change | improvement | inconclusive | invalid | median min | max min |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...kinds.map((k) => {
      const rs = runs.filter((r) => r.kind === k);
      const count = (v) => rs.filter((r) => r.verdict === v).length;
      return `| ${k} | ${rs.length} | ${count('regression')} | ${count('no change')} | ${count('improvement')} | ${count('inconclusive')} | ${count('invalid')} | ${median(rs.map((r) => r.minutes)).toFixed(1)} | ${Math.max(...rs.map((r) => r.minutes)).toFixed(1)} |`;
    }),
  ];
}

function recordFlags(window, minutes) {
  return ['--window', String(window), '--min-blocks', '100000', '--budget', String(minutes), '--blocks-per-epoch', values['blocks-per-epoch']];
}

if (command === 'noise') {
  const rows = [];
  for (const window of values.windows.split(',').map(Number)) {
    log(`window ${window} s: recording ${values.minutes} min of A/A…`);
    const run = compare(`noise-w${window}`, recordFlags(window, values.minutes));
    if (!run.result) continue;
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
    rows.push(row);
    append('compare-noise.json', { date: new Date().toISOString(), gateway: values.gateway, ...row, windows });
    log(JSON.stringify(row));
  }
  const f = (x, d = 3) => (x === null || x === undefined ? '–' : Number(x).toFixed(d));
  process.stdout.write([
    '| window s | blocks | min/block | sd of block log ratio | without GC time | blocks without major GC (sd) | σ² × min/block | epoch effect sd |',
    '| ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |',
    ...rows.map((r) => `| ${r.window} | ${r.blocks} | ${f(r.minutesPerBlock, 2)} | ${f(r.sdBlock)} | ${f(r.sdBlockWithoutGc)} | ${r.calmBlocks} (${f(r.sdBlockCalmOnly)}) | ${f(r.varianceMinutes * 1000, 3)}e-3 | ${f(r.epochEffectSd)} |`),
  ].join('\n') + '\n');
} else if (command === 'record') {
  if (!values.label) throw new Error('record needs --label');
  const percent = Number(values.burn);
  const calibration = percent > 0 ? burnMicroseconds(percent) : null;
  const env = calibration ? { NODE_OPTIONS: `--require ${burnPreload}`, GWPROF_BURN_US: String(calibration.burnUs) } : {};
  log(`recording ${values.label}: ${values.minutes} min${calibration ? `, burn ${calibration.burnUs} µs per request (${percent}% of ${calibration.cpuMsPerRequest.toFixed(2)} ms)` : ''}`);
  const run = compare(`record-${values.label}`, recordFlags(Number(values.window), values.minutes), env);
  const windows = slimWindows(run.result);
  append('compare-recordings.json', { label: values.label, date: new Date().toISOString(), gateway: values.gateway, window: Number(values.window), blocksPerEpoch: Number(values['blocks-per-epoch']), burnPercent: percent, calibration, minutes: run.minutes, windows });
  process.stdout.write(`${values.label}: ${new Set(windows.map((w) => w.block)).size} blocks in ${new Set(windows.map((w) => w.epoch)).size} epochs, ${run.minutes.toFixed(1)} min\n`);
} else if (command === 'evaluate') {
  const recordings = JSON.parse(readFileSync(path.join(out, 'compare-recordings.json'), 'utf8'));
  const rows = [];
  for (const rec of recordings) {
    const blocks = new Set(rec.windows.map((w) => w.block)).size;
    const secondsPerBlock = (rec.minutes * 60) / blocks;
    const recorded = rec.windows.map((w) => ({ epoch: w.epoch, block: w.block, side: w.side, value: w.value }));
    const shifts = rec.burnPercent > 0 ? [null] : [0, 0.05, 0.1];
    for (const shift of shifts) {
      for (const budget of [10, 20]) {
        const rates = evaluateProcedure(recorded, COMPARE_DESIGN, {
          replays: Number(values.replays), seed: 7, ...(shift ? { shift } : {}), center: shift !== null,
          blocksPerEpoch: rec.blocksPerEpoch, secondsPerBlock, budgetBlocks: Math.floor((budget * 60) / secondsPerBlock),
        });
        rows.push({ recording: rec.label, effect: shift === null ? `real +${rec.burnPercent}%` : `synthetic ${shift === 0 ? '0' : `+${shift * 100}%`}`, budget, secondsPerBlock, ...rates });
      }
    }
  }
  append('compare-evaluation.json', { date: new Date().toISOString(), replays: Number(values.replays), rows });
  const p = (x) => `${(x * 100).toFixed(1)}%`;
  process.stdout.write([
    '| recording | effect | budget min | regression | no change | improvement | inconclusive | median min to verdict |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((r) => `| ${r.recording} | ${r.effect} | ${r.budget} | ${p(r.shares.regression)} | ${p(r.shares['no change'])} | ${p(r.shares.improvement)} | ${p(r.shares.inconclusive)} | ${r.minutesToVerdict ? r.minutesToVerdict.median.toFixed(1) : '–'} |`),
  ].join('\n') + '\n');
} else if (command === 'runs') {
  // Interleaved kinds, so that the machine's drift over hours hits all of them alike.
  const plan = [];
  for (let i = 0; i < Math.max(Number(values.aa), Number(values.burn10), Number(values.burn5)); i++) {
    if (i < Number(values.aa)) plan.push({ kind: 'A/A', budget: values.budget });
    if (i < Number(values.burn10)) plan.push({ kind: '+10%', budget: values.budget });
    if (i < Number(values.burn5)) plan.push({ kind: '+5%', budget: values.budget5 });
  }
  // The machine's speed drifts over an hour, and the burn is a fixed time: --recalibrate sizes it
  // again right before each burn run, at the cost of a 3-minute probe.
  const burns = (run) => run.kind !== 'A/A';
  let calibration = plan.some(burns) && !values.recalibrate ? burnMicroseconds(100) : null;
  const results = [];
  for (const [i, run] of plan.entries()) {
    if (values.recalibrate && burns(run)) calibration = burnMicroseconds(100);
    const burnUs = burnOfKind(calibration, run.kind);
    const env = burnUs > 0 ? { NODE_OPTIONS: `--require ${burnPreload}`, GWPROF_BURN_US: String(burnUs) } : {};
    const r = compare(`run-${i}`, ['--window', values.window, '--budget', run.budget, '--blocks-per-epoch', values['blocks-per-epoch']], env);
    const level = r.result?.analysis?.levels?.[0];
    // The burn is a fixed CPU time, calibrated before the run; the machine's speed during the run decides what
    // share of the baseline's CPU per request it really is, so each run keeps that baseline.
    const entry = {
      kind: run.kind, budget: Number(run.budget), exitCode: r.exitCode, verdict: r.result?.analysis?.verdict ?? null, minutes: r.minutes,
      change: level?.decision?.relativeChange ?? null, blocks: level?.decision?.blocks ?? null, burnUs, baselineCpuMs: level?.cpu?.baseline?.median ?? null,
    };
    results.push(entry);
    append('compare-runs.json', { date: new Date().toISOString(), gateway: values.gateway, window: Number(values.window), calibration, ...entry });
    log(`${i + 1}/${plan.length} ${run.kind}: ${entry.verdict} (exit ${entry.exitCode}) in ${entry.minutes.toFixed(1)} min, change ${entry.change === null ? '–' : (entry.change * 100).toFixed(1)}%`);
  }
  process.stdout.write(`${verdictSummary(results).join('\n')}\n`);
} else if (command === 'runs-table') {
  const all = JSON.parse(readFileSync(path.join(out, 'compare-runs.json'), 'utf8')).filter((r) => !values.since || r.date >= values.since);
  const pct = (x) => (x === null ? '–' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`);
  const burnShare = (r) => {
    // Runs recorded before burnUs was kept: the burn follows from the calibration and the kind.
    const burnUs = r.burnUs ?? burnOfKind(r.calibration, r.kind);
    if (!burnUs) return '–';
    return r.baselineCpuMs ? `${burnUs} µs ÷ ${r.baselineCpuMs.toFixed(2)} ms = ${pct(burnUs / 1000 / r.baselineCpuMs)}` : `${burnUs} µs`;
  };
  process.stdout.write([
    '| # | date (UTC) | candidate | burn ÷ baseline CPU per request | verdict | exit | blocks | change | minutes |',
    '| ---: | --- | --- | --- | --- | ---: | ---: | ---: | ---: |',
    ...all.map((r, i) => `| ${i + 1} | ${r.date.slice(0, 16).replace('T', ' ')} | ${r.kind} | ${burnShare(r)} | ${r.verdict} | ${r.exitCode} | ${r.blocks ?? '–'} | ${pct(r.change)} | ${r.minutes.toFixed(1)} |`),
    '',
    ...verdictSummary(all),
  ].join('\n') + '\n');
} else {
  process.stderr.write('usage: node scripts/bench-compare.mjs noise|record|evaluate|runs|runs-table [options] (see the header of this file)\n');
  process.exit(2);
}
