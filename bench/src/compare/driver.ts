// Runs the real `gwprof compare` CLI, one comparison at a time, and sizes CPU burns for it.
// It takes no lock: on a machine shared with other measurements, wrap the whole command in
// `flock <lock file>` (bench/README.md).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from '@gwprof/analysis';
import { loadLevel, type CompareResult } from '@gwprof/results';
import type { RecordedWindow } from './procedure-evaluation.js';

/** The flags of `compare.js`, as parsed (see its header). */
export interface BenchValues {
  gateway: string;
  /** Extra `gwprof compare` flags, space-separated: a lever of the noise study or a design to try. */
  flags: string;
  minutes: string;
  label?: string;
  burn: string;
  replays: string;
  aa: string;
  burn5: string;
  burn10: string;
  budget: string;
  budget5: string;
  recalibrate: boolean;
  out: string;
  since?: string;
  /** evaluate: the rule on the epochs' mean (default) or their trimmed mean. */
  statistic?: string;
  /** evaluate: `yes` (compare's default) when a regression or an improvement must hold without its farthest epoch, `no` for the plain rule. */
  hold?: string;
}

/** What every subcommand gets; it returns what to print on stdout. */
export interface CommandContext {
  values: BenchValues;
  /** The folder its JSON logs are read from and appended to. */
  out: string;
  driver: Driver;
  log: (line: string) => void;
}

export interface CompareRun {
  /** The comparison's compare.json; null when the CLI wrote none. */
  result: CompareResult | null;
  exitCode: number | null;
  minutes: number;
}

export interface Calibration {
  cpuMsPerRequest: number;
  burnUs: number;
}

export interface Driver {
  compare(label: string, flags: string[], candidateEnv?: Record<string, string>): CompareRun;
  calibrateBurn(percent: number): Calibration;
  burnEnv(burnUs: number): Record<string, string>;
}

/** The extra compare flags of --flags, as arguments. */
export function extraFlags(values: Pick<BenchValues, 'flags'>): string[] {
  return values.flags.split(/\s+/).filter((word) => word.length > 0);
}

/** A driver for one gateway: `compare` runs the CLI, `calibrateBurn` sizes a burn from a probe. */
export function createDriver({ root, gateway, flags, log }: { root: string; gateway: string; flags: string[]; log: (line: string) => void }): Driver {
  // Made on the first comparison, so that commands which only read data leave nothing behind.
  let workDir: string | null = null;
  const work = (): string => (workDir ??= mkdtempSync(path.join(os.tmpdir(), 'gwprof-bench-compare-')));
  const burnPreload = path.join(root, 'fixtures', 'burn-cpu-per-request.cjs');

  /** One `gwprof compare`, its compare.json and how long it took. */
  function compare(label: string, runFlags: string[], candidateEnv: Record<string, string> = {}): CompareRun {
    const run = runCompareCli({ root, gateway, workDir: work(), label, flags: [...flags, ...runFlags, ...candidateEnvFlags(candidateEnv)], log });
    return { result: run.result, exitCode: run.exitCode, minutes: run.minutes };
  }

  /**
   * Calibrates a burn of `percent` % of the baseline's CPU per request, in µs. Profiles stay on, as in
   * the comparisons: the profiler adds to the CPU per request, and a burn sized on the unprofiled cost
   * is a smaller share of what the comparison measures.
   */
  function calibrateBurn(percent: number): Calibration {
    const probe = compare(`calibrate-${Date.now()}`, recordFlags(3));
    if (!probe.result) throw new Error('the calibration probe wrote no compare.json');
    const cpu = median(probe.result.windows.map((w) => w.step.gateway.cpuMsPerOkRequest).filter((v): v is number => v !== null && v > 0));
    return { cpuMsPerRequest: cpu, burnUs: Math.round((cpu * 1000 * percent) / 100) };
  }

  /** The candidate's environment for a burn of `burnUs` µs per request; none for 0. */
  const burnEnv = (burnUs: number): Record<string, string> => (burnUs > 0 ? { NODE_OPTIONS: `--require ${burnPreload}`, GWPROF_BURN_US: String(burnUs) } : {});

  return { compare, calibrateBurn, burnEnv };
}

/** `--candidate-env` flags for an environment. */
export function candidateEnvFlags(env: Record<string, string>): string[] {
  return Object.entries(env).flatMap(([k, v]) => ['--candidate-env', `${k}=${v}`]);
}

/** What one run of the CLI's `gwprof compare` left: its compare.json (null when it wrote none), exit code and minutes. */
export interface CliComparison<R extends CompareResult> {
  result: R | null;
  exitCode: number | null;
  /** The comparison's own clock (its record's start to finish); the wall time when it wrote no record. */
  minutes: number;
}

/**
 * The one way the bench runs `gwprof compare`: the built CLI of `root`, the same gateway on both
 * sides (the candidate told apart by its flags and environment), its run folder in `workDir` (a
 * fresh temporary folder when absent), its compare.json read back.
 */
export function runCompareCli<R extends CompareResult = CompareResult>(options: {
  root: string;
  gateway: string;
  flags: readonly string[];
  workDir?: string;
  label?: string;
  /** The harness's own environment (the subgraphs take theirs from it); default this process's. */
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}): CliComparison<R> {
  const work = options.workDir ?? mkdtempSync(path.join(os.tmpdir(), 'gwprof-bench-compare-'));
  const json = path.join(work, `${options.label ?? 'compare'}.json`);
  const args = [
    path.join(options.root, 'packages/cli/dist/bin.js'),
    'compare',
    '--baseline',
    options.gateway,
    '--candidate',
    options.gateway,
    '--out',
    work,
    ...(options.label ? ['--run-id', options.label] : []),
    '--json',
    json,
    '--no-color',
    ...options.flags,
  ];
  const started = Date.now();
  const child = spawnSync(process.execPath, args, {
    cwd: options.root,
    encoding: 'utf8',
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const wallMinutes = (Date.now() - started) / 60_000;
  let result: R | null = null;
  try {
    result = JSON.parse(readFileSync(json, 'utf8')) as R;
  } catch {
    const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
    log(`${options.label ?? options.gateway}: no compare.json (exit ${child.status}): ${child.stderr.slice(-500)}`);
  }
  // The comparison's own clock: the wall time above also holds the CLI's start and publish.
  const ownMinutes = result?.startedAt && result?.finishedAt ? (Date.parse(result.finishedAt) - Date.parse(result.startedAt)) / 60_000 : null;
  return { result, exitCode: child.status, minutes: ownMinutes ?? wallMinutes };
}

/** The burn of a run kind ("+10%") from a calibration of 100%, in µs; 0 for A/A. */
export function burnOfKind(calibration: Calibration | null | undefined, kind: string): number {
  const percent = Number(/^\+(\d+)%$/.exec(kind)?.[1] ?? 0);
  return calibration && percent ? Math.round((calibration.burnUs * percent) / 100) : 0;
}

/** Flags of a recording: no look before an unreachable number of epochs, so it runs for the whole budget. */
export function recordFlags(minutes: string | number): string[] {
  return ['--min-epochs', '100000', '--budget', String(minutes)];
}

/** One window as the JSON logs keep it. */
export interface SlimWindow {
  epoch: number;
  block: number;
  position: number;
  side: 'baseline' | 'candidate';
  /** The load the window held: connections, or requests per second for an open-loop comparison. */
  level: number;
  /** Gateway CPU ms per successful request. */
  value: number | null;
  ok: number;
  rps: number;
  gcMs: number | null;
  majorGcMs: number | null;
  /** The four subgraphs' CPU ms in the window and the requests they served (absent from logs before 2026-11-26 20:00). */
  subgraphCpuMs?: number | null;
  subgraphRequests?: number;
}

/** One epoch as the JSON logs keep it: its seed, and where its restart's time went. */
export interface SlimEpoch {
  epoch: number;
  seed: number | null;
  /** Both sides launched and warmed up at once (a simultaneous comparison). */
  warmedTogether?: boolean;
  /** From its start to its last window's end, s; null when it did not finish. */
  seconds: number | null;
  stopMs: number;
  /** Per side: start order, ms to prepare, listen and answer, and the warm-up's seconds (settling before it included) and end. */
  sides: Record<
    'baseline' | 'candidate',
    { order: number; prepareMs: number; listenMs: number; readyMs: number; warmupSec: number | null; warmupSteady: boolean | null }
  >;
}

/** The windows a recording keeps: enough to replay the procedure and to study noise. */
export function slimWindows(result: CompareResult): SlimWindow[] {
  return result.windows.map((w) => ({
    epoch: w.epoch,
    block: w.block,
    position: w.position,
    side: w.side,
    level: loadLevel(w.step.load),
    value: w.step.gateway.cpuMsPerOkRequest,
    ok: w.step.requests.ok,
    rps: w.step.rps,
    gcMs: w.step.profile?.nodeGc?.ms ?? null,
    // A window with GC readings and no major collection had 0 ms of it.
    majorGcMs: w.step.profile?.nodeGc ? (w.step.profile.nodeGc.msByKind['4'] ?? 0) : null,
    ...subgraphWork(w.step),
  }));
}

/** The subgraphs' CPU in a window, from their CPU share over its seconds, and the requests they served. */
function subgraphWork(step: CompareResult['windows'][number]['step']): Pick<SlimWindow, 'subgraphCpuMs' | 'subgraphRequests'> {
  const share = step.subgraphs.cpuPercent;
  const subgraphRequests = Object.values(step.subgraphs.perSubgraph).reduce((sum, s) => sum + s.requests, 0);
  return { subgraphCpuMs: share === null ? null : (share / 100) * step.timing.windowSec * 1000, subgraphRequests };
}

export function slimEpochs(result: CompareResult): SlimEpoch[] {
  return result.epochs.map((e) => {
    const side = (s: 'baseline' | 'candidate') => ({
      order: e.sides[s].order,
      ...e.sides[s].startup,
      warmupSec: e.sides[s].warmup ? e.sides[s].warmup!.settleSec + e.sides[s].warmup!.seconds : null,
      warmupSteady: e.sides[s].warmup?.steady ?? null,
    });
    return {
      epoch: e.epoch,
      seed: e.seed,
      warmedTogether: e.warmedTogether ?? false,
      stopMs: e.stopMs,
      seconds: e.finishedAt ? (Date.parse(e.finishedAt) - Date.parse(e.startedAt)) / 1000 : null,
      sides: { baseline: side('baseline'), candidate: side('candidate') },
    };
  });
}

/** Kept windows as the procedure's evaluation takes them: the gating value of each, where there is one. */
export function recordedWindows(windows: readonly SlimWindow[]): RecordedWindow[] {
  return windows.filter((w) => w.value !== null).map((w) => ({ epoch: w.epoch, block: w.block, position: w.position, side: w.side, value: w.value! }));
}
