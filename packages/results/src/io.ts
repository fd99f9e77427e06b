/** Reading and writing results.json. Writes go to a temporary file renamed into place, so a
 * reader (or a run interrupted mid-write) never sees a half-written file. */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GwprofError } from './errors.js';
import type { FailureCounts } from './failures.js';
import { RESULTS_SCHEMA_VERSION, type CompareResult, type RecordHeader, type RecordKind, type RunResult, type StepAnalysis, type StepRecord } from './types.js';
import type { SoakResult } from './soak-types.js';
import type { BisectResult } from './bisect-types.js';

export const RESULTS_FILE = 'results.json';
export const COMPARE_FILE = 'compare.json';
export const BISECT_FILE = 'bisect.json';

export function writeJsonAtomic(file: string, value: unknown): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(temporary, file);
}

/** The file each kind of record is written to in its run folder. */
export const RECORD_FILES: Readonly<Record<RecordKind, string>> = { sweep: RESULTS_FILE, soak: RESULTS_FILE, compare: COMPARE_FILE, bisect: BISECT_FILE };

/** Any record, into its kind's file. */
export function writeRecord(runDir: string, record: RecordHeader<RecordKind>): void {
  writeJsonAtomic(path.join(runDir, RECORD_FILES[record.kind]), record);
}

export function writeRunResult(runDir: string, run: RunResult): void {
  writeJsonAtomic(path.join(runDir, RESULTS_FILE), run);
}

export function writeCompareResult(runDir: string, compare: CompareResult): void {
  writeJsonAtomic(path.join(runDir, COMPARE_FILE), compare);
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new GwprofError(`${file} ${code === 'ENOENT' ? 'does not exist: is this a gwprof run folder?' : `cannot be read (${code})`}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new GwprofError(`${file} is not valid JSON (${(error as Error).message})`);
  }
  withEveryFailureKind(value);
  return value;
}

/**
 * Failure counts written before malformed HTTP (`protocolErrors`) was told apart from socket
 * errors: they counted none apart. Every record kind holds counts (steps, soak intervals,
 * instruction batches), so the whole file is walked.
 */
function withEveryFailureKind(value: unknown): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== 'object') continue;
    for (const [key, child] of Object.entries(item)) {
      if (child === null || typeof child !== 'object') continue;
      if (key === 'failureCounts' && !Array.isArray(child)) (child as Partial<FailureCounts>).protocolErrors ??= 0;
      stack.push(child);
    }
  }
}

export function readRunResult(runDir: string): RunResult {
  const file = path.join(runDir, RESULTS_FILE);
  const value = readJson(file) as Partial<RunResult>;
  if (value?.kind !== 'sweep' || !Array.isArray(value.steps)) throw new GwprofError(`${file} is not a gwprof sweep result`);
  checkSchema(file, value.schemaVersion);
  const run = value as RunResult;
  if (value.schemaVersion === 2) {
    upgradeSteps([...run.steps, ...(run.probe?.steps ?? [])]);
    run.config = { ...run.config, windowMinimums: null };
  }
  run.config.heapSamplingBytes ??= null;
  run.config.engine ??= 'gwprof';
  withoutAllocations([...run.steps, ...(run.probe?.steps ?? [])], run.analysis?.steps ?? []);
  run.schemaVersion = RESULTS_SCHEMA_VERSION;
  return run;
}

export function readCompareResult(runDir: string): CompareResult {
  const file = path.join(runDir, COMPARE_FILE);
  const value = readJson(file) as Partial<CompareResult>;
  if (value?.kind !== 'compare' || !Array.isArray(value.windows)) throw new GwprofError(`${file} is not a gwprof compare result`);
  if (value.schemaVersion !== RESULTS_SCHEMA_VERSION) {
    // Comparisons before schema 3 were judged by another test, on blocks, and kept no epoch plan.
    throw new GwprofError(
      `${file} has schema version ${String(value.schemaVersion)}; this gwprof reads comparisons of version ${RESULTS_SCHEMA_VERSION} (re-publish older ones with the gwprof that made them)`,
    );
  }
  const compare = value as CompareResult;
  compare.config.heapSamplingBytes ??= null;
  // Comparisons recorded before the request source was one record kept no variables or goldens file.
  compare.config.variables ??= null;
  compare.config.expect ??= null;
  withoutAllocations(
    compare.windows.map((w) => w.step),
    compare.analysis?.windows ?? [],
  );
  for (const level of compare.analysis?.levels ?? []) {
    level.allocation ??= null;
    // Before comparisons by instructions, the gating metric was always CPU time, named `cpu`.
    const older = level as typeof level & { cpu?: typeof level.gating };
    if (older.cpu && !level.gating) {
      level.gating = older.cpu;
      delete older.cpu;
    }
  }
  return compare;
}

/** Sweep versions this gwprof reads: its own, and 2, whose steps also carried a `concurrency` field. */
const READABLE_SCHEMAS = [2, RESULTS_SCHEMA_VERSION];

function checkSchema(file: string, version: unknown): void {
  if (!READABLE_SCHEMAS.includes(version as number)) {
    throw new GwprofError(`${file} has schema version ${String(version)}; this gwprof reads versions ${READABLE_SCHEMAS.join(' and ')}`);
  }
}

/** Files written before allocation profiles: say there are none. */
function withoutAllocations(steps: readonly StepRecord[], analyses: readonly StepAnalysis[]): void {
  for (const step of steps) if (step.profile) step.profile.heap ??= null;
  for (const analysis of analyses) analysis.allocation ??= null;
}

/** Schema 2 → 3: `concurrency` repeated the load's connections, or held an open-loop step's in-flight cap. */
function upgradeSteps(steps: readonly StepRecord[]): void {
  for (const step of steps) delete (step as StepRecord & { concurrency?: number }).concurrency;
}

export function writeSoakResult(runDir: string, soak: SoakResult): void {
  writeJsonAtomic(path.join(runDir, RESULTS_FILE), soak);
}

export function readSoakResult(runDir: string): SoakResult {
  const file = path.join(runDir, RESULTS_FILE);
  const value = readJson(file) as Partial<SoakResult>;
  if (value?.kind !== 'soak' || !Array.isArray(value.intervals)) throw new GwprofError(`${file} is not a gwprof soak result`);
  checkSchema(file, value.schemaVersion);
  return value as SoakResult;
}

export function writeBisectResult(runDir: string, bisect: BisectResult): void {
  writeJsonAtomic(path.join(runDir, BISECT_FILE), bisect);
}

export function readBisectResult(runDir: string): BisectResult {
  const file = path.join(runDir, BISECT_FILE);
  const value = readJson(file) as Partial<BisectResult>;
  if (value?.kind !== 'bisect' || !Array.isArray(value.points)) throw new GwprofError(`${file} is not a gwprof bisection`);
  checkSchema(file, value.schemaVersion);
  return upgradeBisect(value as BisectResult);
}

/** A bisection written before its scatter was measured assumed one (`pointSd`): read as the floor under the measured one. */
function upgradeBisect(bisect: BisectResult): BisectResult {
  const config = bisect.config as BisectResult['config'] & { pointSd?: number };
  if (config.minPointSd === undefined && typeof config.pointSd === 'number') {
    const { pointSd, ...rest } = config;
    bisect.config = { ...rest, minPointSd: pointSd };
  }
  return bisect;
}

/** What kind of run a folder holds, from its files: a sweep or soak (results.json), a bisection (bisect.json) or a comparison (compare.json). */
export function runKindOf(runDir: string): 'sweep' | 'soak' | 'compare' | 'bisect' {
  if (existsSync(path.join(runDir, BISECT_FILE))) return 'bisect';
  const results = path.join(runDir, RESULTS_FILE);
  if (existsSync(results)) return (readJson(results) as { kind?: string }).kind === 'soak' ? 'soak' : 'sweep';
  return 'compare';
}
