/**
 * Real comparisons by instructions at the CI recipe's settings: A/A, and candidates with a planted
 * loop sized to a share of the baseline's instructions per request. Kinds are interleaved, each
 * entry appended to compare-instruction-runs.json as soon as it ends, with its batches.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CompareResult, PublishedCompare } from '@gwprof/results';
import { appendEntry } from '../compare/json-log.js';
import { runCompareCli } from '../compare/driver.js';
import { existsSync } from 'node:fs';
import { sidesPadding } from './padding-cost.js';

export interface PlannedRun {
  /** 0 for A/A; otherwise the planted share of the baseline's instructions per request, in %. */
  plantedPercent: number;
}

export interface InstructionRunEntry {
  date: string;
  gateway: string;
  flags: string[];
  plantedPercent: number;
  /** Planted loop iterations per request, and what they cost by the loop's ground truth. */
  iterations: number;
  /**
   * How the work was planted: a Node preload's loop (each request received), a native one's (each
   * response written), or whitespace before each of the candidate's subgraph answers (`iterations`
   * is then its bytes, and the cost of one byte a request comes from padding-cost.json).
   */
  plantedBy?: 'node' | 'native' | 'padding';
  /** Padding: the bytes before every answer on both sides; the candidate's have `iterations` more. */
  paddingBaseBytes?: number;
  /** Native: the preload's calls over the whole run, both sides' every response (warm-ups, batches, readiness probes). */
  plantedCalls?: number | null;
  plantedInstructions: number;
  /** The planted instructions over the baseline's instructions per request, as measured in this run. */
  plantedShare: number | null;
  exitCode: number | null;
  verdict: string | null;
  /** From the comparison's start to its last verdict epoch: how long the verdict took. */
  verdictMinutes?: number;
  /** The whole comparison, the pair that shows where the instructions went included. */
  minutes: number;
  change: number | null;
  interval: { low: number; high: number } | null;
  epochs: number | null;
  baselinePerRequest: number | null;
  batches: Array<{ epoch: number; side: string; batch: number; perRequest: number | null; ok: number; requests: number; seconds: number }>;
  epochSeconds: number[];
}

/** Interleaved: an A/A, then each planted size, round after round. */
export function runPlan(counts: Record<number, number>): PlannedRun[] {
  const plan: PlannedRun[] = [];
  const rounds = Math.max(...Object.values(counts));
  for (let i = 0; i < rounds; i++) for (const [percent, count] of Object.entries(counts)) if (i < count) plan.push({ plantedPercent: Number(percent) });
  return plan;
}

export function runOne(options: {
  root: string;
  gateway: string;
  flags: string[];
  run: PlannedRun;
  instructionsPerIteration: number;
  baselinePerRequest: number;
  label: string;
  out: string;
  /** The native preload (fixtures/native-work) to plant with; the Node one otherwise. */
  nativeLibrary?: string;
  /**
   * Plant by padding subgraph answers instead: both sides' by `base` bytes, the candidate's by the
   * planted bytes more (instructionsPerIteration is then one more padded byte's cost).
   */
  padding?: { base: number };
}): InstructionRunEntry {
  const { root, gateway, run } = options;
  const iterations = Math.round(((run.plantedPercent / 100) * options.baselinePerRequest) / options.instructionsPerIteration);
  const work = mkdtempSync(path.join(os.tmpdir(), 'gwprof-bench-instr-'));
  const countFile = path.join(work, 'planted-calls');
  const candidateEnv = iterations > 0 && !options.padding ? plantEnv(root, iterations, options.nativeLibrary, countFile) : [];
  // The subgraphs take their padding from the harness's environment.
  const env = options.padding ? { ...process.env, SUBGRAPH_PADDING_BYTES: sidesPadding(options.padding.base, iterations) } : process.env;
  const started = Date.now();
  const { result, exitCode, minutes } = runCompareCli<PublishedCompare>({
    root,
    gateway,
    workDir: work,
    label: options.label,
    flags: ['--measure', 'instructions', ...options.flags, ...candidateEnv],
    env,
  });
  const lastEpoch = Math.max(...(result?.instructionEpochs ?? []).map((e) => (e.finishedAt ? Date.parse(e.finishedAt) : 0)));
  const verdictMinutes = result && lastEpoch > 0 ? (lastEpoch - Date.parse(result.startedAt)) / 60_000 : minutes;
  const level = result?.analysis?.levels[0];
  const baselinePerRequest = level?.gating.baseline.geometricMean ?? null;
  const plantedInstructions = iterations * options.instructionsPerIteration;
  const entry: InstructionRunEntry = {
    date: new Date(started).toISOString(),
    gateway,
    flags: options.flags,
    plantedPercent: run.plantedPercent,
    iterations,
    plantedBy: options.padding ? 'padding' : options.nativeLibrary ? 'native' : 'node',
    ...(options.padding ? { paddingBaseBytes: options.padding.base } : {}),
    ...(options.nativeLibrary ? { plantedCalls: iterations > 0 && existsSync(countFile) ? Number(readFileSync(countFile).readBigUInt64LE(0)) : null } : {}),
    plantedInstructions,
    plantedShare: baselinePerRequest ? plantedInstructions / baselinePerRequest : null,
    exitCode,
    verdict: result?.analysis?.verdict ?? null,
    verdictMinutes,
    minutes,
    change: level?.decision?.relativeChange ?? null,
    interval: level?.decision?.interval ?? null,
    epochs: level?.decision?.epochs ?? null,
    baselinePerRequest,
    batches: (result?.batches ?? []).map((b) => ({
      epoch: b.epoch,
      side: b.side,
      batch: b.batch,
      perRequest: b.instructionsPerOkRequest,
      ok: b.ok,
      requests: b.requests,
      seconds: b.seconds,
    })),
    epochSeconds: epochSeconds(result),
  };
  appendEntry(options.out, 'compare-instruction-runs.json', entry);
  return entry;
}

/** The candidate's environment that plants the loop: a Node preload, or a native one with its call counter. */
function plantEnv(root: string, iterations: number, nativeLibrary: string | undefined, countFile: string): string[] {
  const env = nativeLibrary
    ? [`LD_PRELOAD=${nativeLibrary}`, `GWPROF_WORK_ITERATIONS=${iterations}`, `GWPROF_WORK_COUNT_FILE=${countFile}`]
    : [`NODE_OPTIONS=--require ${path.join(root, 'fixtures', 'work-per-request.cjs')}`, `GWPROF_WORK_ITERATIONS=${iterations}`];
  return env.flatMap((e) => ['--candidate-env', e]);
}

function epochSeconds(result: CompareResult | null): number[] {
  return (result?.instructionEpochs ?? []).filter((e) => e.finishedAt).map((e) => Math.round((Date.parse(e.finishedAt!) - Date.parse(e.startedAt)) / 100) / 10);
}

/** The gateway, and how the work was planted when not by a loop: runs planted apart are not one group. */
function gatewayLabel(e: InstructionRunEntry): string {
  if (e.plantedBy !== 'padding') return e.gateway;
  return e.paddingBaseBytes ? `${e.gateway} (answers padded: ${e.paddingBaseBytes} B both sides)` : `${e.gateway} (candidate's answers padded)`;
}

/** One row per gateway and planted size: verdicts, minutes, and the planted size against what was read. */
export function runsTable(entries: readonly InstructionRunEntry[]): string[] {
  const groups = [...new Set(entries.map((e) => `${gatewayLabel(e)}|${e.plantedPercent}`))];
  const rows = groups.map((g) => {
    const [gateway, percent] = g.split('|');
    const rs = entries.filter((e) => `${gatewayLabel(e)}|${e.plantedPercent}` === g);
    const count = (verdict: string, within = Infinity) => rs.filter((r) => r.verdict === verdict && (r.verdictMinutes ?? r.minutes) <= within).length;
    const read = rs.filter((r) => r.change !== null && r.plantedShare !== null && r.plantedShare > 0).map((r) => r.change! / r.plantedShare!);
    const readText = read.length > 0 ? `${Math.min(...read).toFixed(3)}–${Math.max(...read).toFixed(3)}` : '–';
    const sorted = (values: number[]) => values.sort((a, b) => a - b);
    const verdictMinutes = sorted(rs.map((r) => r.verdictMinutes ?? r.minutes));
    const minutes = sorted(rs.map((r) => r.minutes));
    const median = (values: number[]) => values[Math.floor((values.length - 1) / 2)]!.toFixed(1);
    return `| ${gateway} | ${Number(percent) === 0 ? 'A/A' : `+${percent}%`} | ${rs.length} | ${count('no change')} | ${count('no change', 10)} | ${count('regression')} | ${count('regression', 10)} | ${count('inconclusive')} | ${count('improvement')} | ${count('invalid')} | ${count('error')} | ${readText} | ${median(verdictMinutes)} | ${verdictMinutes.at(-1)!.toFixed(1)} | ${median(minutes)} |`;
  });
  return [
    '| gateway | planted | runs | no change | within 10 min | regression | within 10 min | inconclusive | improvement | invalid | error | read ÷ planted | median min to verdict | max min to verdict | median min in all |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |',
    ...rows,
  ];
}

const signedPercent = (x: number | null | undefined) => (x == null ? '–' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(2)}%`);

/** Every run in order, with its verdict, reading and minutes; then each planted size's mean reading. */
export function runsDetail(entries: readonly InstructionRunEntry[]): string[] {
  const rows = entries.map((e, i) => {
    const planted = e.plantedPercent === 0 ? '–' : `${((e.plantedShare ?? 0) * 100).toFixed(2)}%`;
    const interval = e.interval ? `[${signedPercent(e.interval.low)}, ${signedPercent(e.interval.high)}]` : '–';
    const flags = e.flags.length > 0 ? e.flags.join(' ') : '–';
    return `| ${i + 1} | ${e.date.slice(0, 16).replace('T', ' ')} | ${gatewayLabel(e)} | ${e.plantedPercent === 0 ? 'A/A' : `+${e.plantedPercent}%`} | ${planted} | ${e.verdict ?? '–'} | ${e.exitCode ?? '–'} | ${signedPercent(e.change)} | ${interval} | ${e.epochs ?? '–'} | ${(e.verdictMinutes ?? e.minutes).toFixed(1)} | ${e.minutes.toFixed(1)} | ${flags} |`;
  });
  const sizes = [...new Set(entries.filter((e) => e.plantedPercent > 0).map((e) => `${gatewayLabel(e)} +${e.plantedPercent}%`))];
  const readings = sizes.map((size) => {
    const read = entries
      .filter((e) => `${gatewayLabel(e)} +${e.plantedPercent}%` === size && e.verdict !== 'invalid' && e.change !== null && e.plantedShare)
      .map((e) => e.change! / e.plantedShare!);
    if (read.length === 0) return `${size}: no valid run`;
    const mean = read.reduce((a, b) => a + b, 0) / read.length;
    return `${size}: ${read.map((r) => r.toFixed(2)).join(', ')} (mean ${mean.toFixed(3)})`;
  });
  return [
    '| # | start (UTC) | gateway | kind | planted | verdict | exit | change | interval (90%, adjusted) | epochs | min to verdict | min in all | flags |',
    '| ---: | --- | --- | --- | ---: | --- | ---: | ---: | --- | ---: | ---: | ---: | --- |',
    ...rows,
    '',
    `Readings over planted sizes, run by run: ${readings.join('; ')}.`,
  ];
}
