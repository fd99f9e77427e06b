/**
 * `gwprof compare`: both builds alive and warm on the same cores, subgraphs and request stream;
 * short measured windows alternate between them in blocks of four (ABBA, then BAAB), and after
 * every block analysis's sequential test says whether the verdict is in. Both sides are restarted
 * every few blocks (an epoch). compare.json is rewritten after every window.
 */
import { judgeComparison, type ComparisonDesign, type ComparisonVerdict } from '@gwprof/analysis';
import { GwprofError, RESULTS_SCHEMA_VERSION, asError, compareLoadAt, loadLabel, loadLevel, writeCompareResult, type CompareConfig, type CompareResult, type LoadShape, type StepRecord } from '@gwprof/results';
import { loadScenario, type Scenario } from '../fixtures.js';
import { gatewayFromSpec } from '../gateways/index.js';
import { measureStep, type StepSettings } from '../step/measure-step.js';
import { openSession, type Session } from '../session.js';
import type { ServiceOptions } from '../test-bed.js';
import type { ScenarioFiles } from '../defaults.js';
import { TOOL_VERSION } from '../version.js';
import type { GatewayUnderTest } from '../gateway-under-test.js';
import { GatewayPair, SIDES, type Side } from './gateway-pair.js';

export interface CompareOptions extends ServiceOptions {
  baseline: string;
  candidate: string;
  baselineEnv: Record<string, string>;
  candidateEnv: Record<string, string>;
  /** Port of the candidate; the baseline takes gatewayPort. */
  candidatePort: number;
  /** closed: levels are connections; open: levels are requests per second (overhead at equal load). */
  load: CompareConfig['load'];
  levels: number[];
  scenario: ScenarioFiles;
  windowSec: number;
  leadInSec: number;
  warmupSec: number;
  blocksPerEpoch: number;
  budgetMinutes: number;
  threshold: number;
  alpha: number;
  beta: number;
  minBlocks: number;
  profile: boolean;
  samplingIntervalUs: number;
  timeoutSec: number;
  outDir: string;
  runId?: string;
  commandLine: string[];
  signal: AbortSignal;
  onProgress: (line: string, final: boolean) => void;
}

/** Longest wait, before a window, for both gateways to be quiet. */
const WINDOW_SETTLE_SEC = 10;

interface Context {
  options: CompareOptions;
  scenario: Scenario;
  session: Session;
  pair: GatewayPair;
  compare: CompareResult;
  design: ComparisonDesign;
  started: number;
  blockMs: number[];
  epochStartMs: number[];
}

/** A comparison as measured; `failure` is what stopped it early, as for a sweep (`SweepOutcome`). */
export interface ComparisonOutcome {
  compare: CompareResult;
  runDir: string;
  failure: Error | null;
}

export async function runComparison(options: CompareOptions): Promise<ComparisonOutcome> {
  checkOptions(options);
  const adapters = { baseline: gatewayFromSpec(options.baseline), candidate: gatewayFromSpec(options.candidate) };
  const scenario = loadScenario(options.scenario);
  const session = openSession({
    ...options,
    label: 'compare',
    maxConcurrency: options.load.kind === 'open' ? options.load.maxInFlight : Math.max(...options.levels),
    gatewayPackages: Object.fromEntries(
      SIDES.flatMap((side) => Object.entries(adapters[side].packageVersions()).map(([name, version]) => [`${side}:${name}`, version])),
    ),
    profiler: options.profile ? 'inspector' : 'none',
  });
  const compare = newCompare(options, session);
  writeCompareResult(session.runDir, compare);
  let pair: GatewayPair | null = null;
  let failure: Error | null = null;
  try {
    const bed = await session.startBed();
    pair = new GatewayPair(
      bed,
      {
        baseline: { adapter: adapters.baseline, env: options.baselineEnv, port: options.gatewayPort },
        candidate: { adapter: adapters.candidate, env: options.candidateEnv, port: options.candidatePort },
      },
      session.resources.memoryLimitMB,
    );
    const design = { levels: options.levels, label: (level: number) => loadLabel(loadAt(options, level)), threshold: options.threshold, alpha: options.alpha, beta: options.beta, minBlocks: options.minBlocks };
    const ctx: Context = { options, scenario, session, pair, compare, design, started: Date.now(), blockMs: [], epochStartMs: [] };
    compare.stopReason = await measureUntilDecided(ctx);
    compare.state = options.signal.aborted ? 'interrupted' : 'complete';
  } catch (caught) {
    compare.state = options.signal.aborted ? 'interrupted' : 'failed';
    failure = options.signal.aborted ? null : asError(caught);
    compare.error = failure?.message ?? null;
    compare.stopReason = compare.error ?? 'interrupted';
    session.logs.harness.error({ err: caught }, 'compare stopped');
  } finally {
    await pair?.stop();
    pair?.release();
    await session.close();
    compare.finishedAt = new Date().toISOString();
    writeCompareResult(session.runDir, compare);
  }
  return { compare, runDir: session.runDir, failure };
}

/** The load of one level of this comparison. */
function loadAt(options: CompareOptions, level: number): LoadShape {
  return compareLoadAt(options.load, level);
}

function checkOptions(options: CompareOptions): void {
  const ports = [options.gatewayPort, options.candidatePort, ...Object.values(options.subgraphPorts)];
  if (new Set(ports).size !== ports.length) throw new GwprofError(`the two gateway ports and the subgraph ports must all differ (got ${ports.join(', ')})`);
  if (options.minBlocks < 2) throw new GwprofError('minBlocks must be at least 2: the test needs a variance');
}

/**
 * Epochs of blocks until the verdict is in (a window that failed validation ends it too: the
 * verdict is then `invalid`), the budget runs out, or the run is interrupted.
 */
async function measureUntilDecided(ctx: Context): Promise<string> {
  let block = 0;
  let verdict = judgeComparison(ctx.compare.windows, ctx.design);
  for (let epoch = 1; ; epoch++) {
    if (exceedsBudget(ctx, true)) return budgetReason(ctx, block);
    const gateways = await startEpoch(ctx, epoch);
    for (let i = 0; i < ctx.options.blocksPerEpoch; i++) {
      if (ctx.options.signal.aborted) return 'interrupted';
      if (i > 0 && exceedsBudget(ctx, false)) return budgetReason(ctx, block);
      const t0 = Date.now();
      await measureBlock(ctx, gateways, epoch, ++block, nextLevel(ctx, verdict));
      ctx.blockMs.push(Date.now() - t0);
      verdict = judgeComparison(ctx.compare.windows, ctx.design);
      progressAfterBlock(ctx, block, verdict);
      if (verdict.done) return `${verdict.verdict} after ${block} blocks: ${verdict.reasons[0] ?? ''}`;
    }
  }
}

/** Would another block (and, at an epoch's start, another restart) run past the budget? */
function exceedsBudget(ctx: Context, startingEpoch: boolean): boolean {
  if (ctx.blockMs.length === 0) return false;
  const average = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const next = average(ctx.blockMs) + (startingEpoch ? average(ctx.epochStartMs) : 0);
  return Date.now() - ctx.started + next > ctx.options.budgetMinutes * 60_000;
}

function budgetReason(ctx: Context, blocks: number): string {
  return `--budget ${ctx.options.budgetMinutes} min would be exceeded by another block (after ${blocks} blocks, ${((Date.now() - ctx.started) / 60_000).toFixed(1)} min)`;
}

/** The undecided level with the fewest blocks so far (levels take turns). */
function nextLevel(ctx: Context, verdict: ComparisonVerdict): number {
  const open = ctx.options.levels.filter((level) => verdict.decisions.get(level)?.outcome === 'continue');
  const candidates = open.length > 0 ? open : ctx.options.levels;
  const blocksAt = (level: number) => new Set(ctx.compare.windows.filter((w) => loadLevel(w.step.load) === level).map((w) => w.block)).size;
  return candidates.reduce((best, level) => (blocksAt(level) < blocksAt(best) ? level : best));
}

/**
 * Restarts both sides, each started and at once warmed up (until its throughput stops trending) at
 * the first level, in an order that alternates by epoch, so both sides have the same history.
 */
async function startEpoch(ctx: Context, epoch: number): Promise<Record<Side, GatewayUnderTest>> {
  const t0 = Date.now();
  ctx.options.onProgress(`epoch ${epoch}: restarting both gateways…`, false);
  await ctx.pair.restart();
  const gateways: Partial<Record<Side, GatewayUnderTest>> = {};
  const warmup: Record<Side, StepRecord | null> = { baseline: null, candidate: null };
  const readyAt: Record<Side, string> = { baseline: '', candidate: '' };
  for (const side of GatewayPair.startOrder(epoch)) {
    gateways[side] = await ctx.pair.startSide(side, epoch);
    readyAt[side] = new Date().toISOString();
    warmup[side] = await measureStep({
      ...stepContext(ctx, gateways[side], ctx.options.levels[0]!),
      id: `e${epoch}-warmup-${side}`,
      settings: { ...windowSettings(ctx.options), warmupSec: ctx.options.warmupSec, fixedWarmup: false },
      label: `epoch ${epoch} warm-up ${side}`,
    });
  }
  ctx.compare.epochs.push({
    epoch,
    startedAt: new Date(t0).toISOString(),
    pids: { baseline: gateways.baseline?.step.pid ?? 0, candidate: gateways.candidate?.step.pid ?? 0 },
    readyAt,
    warmup,
  });
  writeCompareResult(ctx.session.runDir, ctx.compare);
  ctx.epochStartMs.push(Date.now() - t0);
  return gateways as Record<Side, GatewayUnderTest>;
}

/** Four windows at one level: ABBA in a level's odd blocks, BAAB in its even ones. */
async function measureBlock(ctx: Context, gateways: Record<Side, GatewayUnderTest>, epoch: number, block: number, level: number): Promise<void> {
  const nth = new Set(ctx.compare.windows.filter((w) => loadLevel(w.step.load) === level).map((w) => w.block)).size;
  const order: Side[] = nth % 2 === 0 ? ['baseline', 'candidate', 'candidate', 'baseline'] : ['candidate', 'baseline', 'baseline', 'candidate'];
  for (const [position, side] of order.entries()) {
    const step = await measureStep({
      ...stepContext(ctx, gateways[side], level),
      id: `e${epoch}-b${block}-${position}-${side}-${ctx.options.load.kind === 'closed' ? 'c' : 'r'}${level}`,
      settings: windowSettings(ctx.options),
      label: `block ${block} ${side} ${position + 1}/4`,
    });
    if (!step) return;
    ctx.compare.windows.push({ epoch, block, position, side, step });
    writeCompareResult(ctx.session.runDir, ctx.compare);
  }
}

function stepContext(ctx: Context, target: GatewayUnderTest, level: number) {
  return {
    load: loadAt(ctx.options, level),
    scenario: ctx.scenario,
    gateway: target.step,
    subgraphs: target.subgraphs,
    profiler: target.profiler,
    profilerUnavailable: target.profilerUnavailable,
    runDir: ctx.session.runDir,
    logs: ctx.session.logs,
    settlePids: ctx.pair.pids(),
    settlePorts: [ctx.options.gatewayPort, ctx.options.candidatePort],
  };
}

/** A window: a fixed lead-in on fresh connections, then exactly windowSec measured. */
function windowSettings(options: CompareOptions): StepSettings {
  return {
    durationSec: options.windowSec,
    maxDurationSec: options.windowSec,
    warmupSec: options.leadInSec,
    fixedWarmup: true,
    timeoutSec: options.timeoutSec,
    minSuccess: 1,
    samplingIntervalUs: options.samplingIntervalUs,
    settleSec: WINDOW_SETTLE_SEC,
    signal: options.signal,
    onProgress: options.onProgress,
  };
}

function progressAfterBlock(ctx: Context, block: number, verdict: ComparisonVerdict): void {
  const levels = [...verdict.decisions.entries()].map(([level, d]) => `${loadLabel(loadAt(ctx.options, level))} ${d.relativeChange >= 0 ? '+' : ''}${(d.relativeChange * 100).toFixed(1)}% (${d.blocks} blocks): ${d.outcome}`);
  ctx.options.onProgress(`after block ${block} · ${((Date.now() - ctx.started) / 60_000).toFixed(1)} min · ${levels.join(' · ')}`, true);
}

function newCompare(options: CompareOptions, session: Session): CompareResult {
  const config: CompareConfig = {
    baseline: options.baseline,
    candidate: options.candidate,
    baselineEnv: options.baselineEnv,
    candidateEnv: options.candidateEnv,
    load: options.load,
    levels: options.levels,
    query: options.scenario.query,
    profile: options.profile,
    design: {
      threshold: options.threshold,
      windowSec: options.windowSec,
      leadInSec: options.leadInSec,
      warmupSec: options.warmupSec,
      blocksPerEpoch: options.blocksPerEpoch,
      budgetMinutes: options.budgetMinutes,
      alpha: options.alpha,
      beta: options.beta,
      minBlocks: options.minBlocks,
    },
  };
  return {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    tool: { name: 'gwprof', version: TOOL_VERSION },
    kind: 'compare',
    runId: session.runId,
    startedAt: new Date().toISOString(),
    finishedAt: null,
    state: 'running',
    error: null,
    mode: 'windows',
    config,
    environment: session.environment,
    runs: null,
    epochs: [],
    windows: [],
    stopReason: 'still running',
    analysis: null,
  };
}
